#include "core/analysis/host_places.h"

#include "core/port_links.h"
#include "core/tiers.h"

#include <algorithm>
#include <utility>

namespace fabscope {

HostPlaces::HostPlaces(const Fabric& f, const std::vector<bool>& aggregation)
    : HostPlaces(f, aggregation, f.nodes.empty() ? std::vector<int>{} : computeTiers(f)) {}

HostPlaces::HostPlaces(const Fabric& f, const std::vector<bool>& aggregation, std::vector<int> tiers)
    : f_(f), names_(f, aggregation), linkOfPort_(linkOfEachPort(f)), tier_(std::move(tiers)) {
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (f.nodes[i].type == NodeType::Switch) top_ = std::max(top_, tier_[i]);
}

HostPlaces::HostPlaces(const Fabric& f) : HostPlaces(f, findAggregationNodes(f)) {}

const EqualCostRouter& HostPlaces::router() const {
    std::call_once(routerOnce_, [this] { router_.emplace(f_); });
    return *router_;
}

std::vector<NodeId> HostPlaces::nics(const std::string& host) const {
    std::vector<NodeId> out = names_.nodesLedBy(host);
    if (out.empty())
        if (auto one = names_.node(host)) out.push_back(*one);
    return out;
}

std::optional<std::pair<NodeId, double>> HostPlaces::uplink(NodeId nic) const {
    const auto mine = names_.linkedPort(nic);
    if (!mine) return std::nullopt;
    const Link& l = f_.link(*linkOfPort_[mine->value()]);
    const PortId other = l.a == *mine ? l.b : l.a;
    const auto cap = l.capacityBps ? l.capacityBps : f_.port(*mine).capacityBps;
    return std::pair{f_.port(other).node, static_cast<double>(cap) / 1e9};
}

PairDistance HostPlaces::distance(NodeId a, NodeId b) const {
    // The route between two hosts climbs as high as the one between the switches they meet.
    const auto meets = [this](NodeId n) {
        const auto up = uplink(n);
        return up ? up->first.value() : n.value();
    };
    const auto key = std::pair{meets(a), meets(b)};
    {
        const std::lock_guard lock(distanceMutex_);
        if (const auto it = distanceOf_.find(key); it != distanceOf_.end()) return it->second;
    }
    PairDistance d = PairDistance::Unknown;
    if (const auto one = router().routes(a, b, 1); !one.empty()) {
        int climb = 0;
        for (const Hop& h : one.front()) climb = std::max(climb, tier_[f_.port(h.rx).node.value()]);
        d = climb <= 1 ? PairDistance::SameLeaf : climb < top_ ? PairDistance::SamePod : PairDistance::AcrossSpines;
    }
    const std::lock_guard lock(distanceMutex_);
    return distanceOf_.emplace(key, d).first->second;
}

} // namespace fabscope
