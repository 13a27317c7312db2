#include "core/analysis/probe_routes.h"

#include "core/analysis/host_places.h"
#include "core/natural_order.h"
#include "core/port_links.h"

#include <algorithm>
#include <cctype>

namespace fabscope {
namespace {

bool digits(std::string_view s) {
    return !s.empty() && s.size() < 6 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

} // namespace

std::string_view toString(RouteSource s) {
    switch (s) {
    case RouteSource::RecordedPath: return "recorded_path";
    case RouteSource::ForwardingTables: return "forwarding_tables";
    case RouteSource::EqualCost: return "equal_cost";
    }
    return "equal_cost";
}

PathHop parsePathHop(std::string_view hop) {
    hop = trimmed(hop);
    if (const auto colon = hop.rfind(':'); colon != std::string_view::npos && digits(hop.substr(colon + 1)))
        return {std::string(trimmed(hop.substr(0, colon))), std::string(hop.substr(colon + 1))};
    if (const auto sp = hop.rfind(' '); sp != std::string_view::npos && hop.size() > sp + 2 && hop[sp + 1] == 'p' &&
                                        digits(hop.substr(sp + 2)))
        return {std::string(trimmed(hop.substr(0, sp))), std::string(hop.substr(sp + 2))};
    return {std::string(hop), {}};
}

ProbeRouter::ProbeRouter(const HostPlaces& places, const std::vector<SwitchRoutes>& tables, std::size_t maxRoutes)
    : places_(places), fabric_(places.fabric()), maxRoutes_(maxRoutes) {
    const Fabric& f = fabric_;
    linkOfPort_ = linkOfEachPort(f);
    linksOfNode_.resize(f.nodes.size());
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const auto a = f.port(f.links[i].a).node.value(), b = f.port(f.links[i].b).node.value();
        linksOfNode_[a].push_back(LinkId(i));
        if (b != a) linksOfNode_[b].push_back(LinkId(i));
    }
    for (std::size_t i = 0; i < f.ports.size(); ++i)
        portByNumber_.emplace(std::pair{f.ports[i].node.value(), f.ports[i].number}, PortId(i));
    // Full names only (host names go by RankHosts' rule); of two nodes sharing one, the later in
    // natural order keeps it (in a sane fabric a GUID, system name or description names one node).
    std::vector<std::uint32_t> order(f.nodes.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return naturalLess(f.nodes[a].description, f.nodes[b].description); });
    for (auto i : order) {
        const Node& n = f.nodes[i];
        for (const std::string* name : {&n.guid, &n.systemName, &n.description})
            if (!name->empty()) byName_[*name] = i;
    }
    std::unordered_map<std::string, std::uint32_t> byGuid;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (!f.nodes[i].guid.empty()) byGuid.emplace(f.nodes[i].guid, i);
    for (const SwitchRoutes& t : tables)
        if (auto it = byGuid.find(t.nodeGuid); it != byGuid.end()) tables_.emplace(it->second, &t);
}

std::optional<NodeId> ProbeRouter::node(std::string_view name) const {
    const std::string key(trimmed(name));
    if (auto it = byName_.find(key); it != byName_.end()) return NodeId(it->second);
    return places_.hosts().node(key);  // a host name: "gpu001" of "gpu001 mlx5_0"
}

std::optional<PortId> ProbeRouter::hostPort(std::string_view name) const {
    const std::string key(trimmed(name));
    if (auto p = places_.hosts().port(key)) return p;
    // Else a GUID (or a name the host rule does not take): its node, when that is a host.
    const auto it = byName_.find(key);
    if (it == byName_.end() || fabric_.nodes[it->second].type == NodeType::Switch) return std::nullopt;
    return places_.hosts().linkedPort(NodeId(it->second));
}

// Follows the destination's LID through each switch's table from the source host.
std::optional<Route> ProbeRouter::traceTables(PortId src, PortId dst) const {
    const int lid = fabric_.port(dst).lid;
    if (lid <= 0) return std::nullopt;
    const NodeId target = fabric_.port(dst).node;
    Route route;
    PortId tx = src;
    for (int hop = 0; hop < 64; ++hop) {
        const auto link = linkOfPort_[tx.value()];
        if (!link) return std::nullopt;
        const Link& l = fabric_.link(*link);
        const PortId rx = l.a == tx ? l.b : l.a;
        route.push_back({tx, rx});
        const NodeId at = fabric_.port(rx).node;
        if (at == target) return route;
        const auto table = tables_.find(at.value());
        if (table == tables_.end() || static_cast<std::size_t>(lid) >= table->second->egress.size()) return std::nullopt;
        const int out = table->second->egress[static_cast<std::size_t>(lid)];
        const auto next = portByNumber_.find({at.value(), out});
        if (out == SwitchRoutes::kNoRoute || next == portByNumber_.end()) return std::nullopt;
        tx = next->second;
    }
    return std::nullopt;  // a forwarding loop
}

std::optional<Route> ProbeRouter::resolvePath(PortId src, PortId dst, const std::vector<std::string>& hops) const {
    std::vector<PathHop> path;
    for (const auto& h : hops) path.push_back(parsePathHop(h));
    const NodeId srcNode = fabric_.port(src).node, dstNode = fabric_.port(dst).node;
    // traceroute lists switches only: the end hosts are implied.
    if (path.empty() || node(path.front().node) != srcNode) path.insert(path.begin(), {fabric_.node(srcNode).description, {}});
    if (node(path.back().node) != dstNode) path.push_back({fabric_.node(dstNode).description, {}});
    Route route;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const auto a = node(path[i].node), b = node(path[i + 1].node);
        if (!a || !b) return std::nullopt;
        const bool last = i + 2 == path.size();
        std::optional<Hop> found;
        for (const LinkId id : linksOfNode_[a->value()]) {
            const Link& l = fabric_.link(id);
            for (const auto& [x, y] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
                if (fabric_.port(x).node != *a || fabric_.port(y).node != *b) continue;
                if (!path[i].port.empty() && fabric_.port(x).name != path[i].port) continue;
                if (last && !path[i + 1].port.empty() && fabric_.port(y).name != path[i + 1].port) continue;
                if (!found) found = Hop{x, y};
            }
        }
        if (!found) return std::nullopt;
        route.push_back(*found);
    }
    return route;
}

ProbeRoutes ProbeRouter::routes(PortId src, PortId dst, const std::map<std::vector<std::string>, int>& recorded) const {
    ProbeRoutes out;
    int total = 0;
    std::vector<std::pair<int, Route>> resolved;
    for (const auto& [hops, count] : recorded)
        if (auto r = resolvePath(src, dst, hops)) {
            resolved.emplace_back(count, std::move(*r));
            total += count;
        }
    if (total > 0) {
        out.source = RouteSource::RecordedPath;
        for (auto& [count, r] : resolved) out.routes.push_back({static_cast<double>(count) / total, std::move(r)});
        return out;
    }
    if (!tables_.empty())
        if (auto r = traceTables(src, dst)) {
            out.source = RouteSource::ForwardingTables;
            out.routes.push_back({1, std::move(*r)});
            return out;
        }
    out.source = RouteSource::EqualCost;
    auto all = places_.router().routes(fabric_.port(src).node, fabric_.port(dst).node, maxRoutes_);
    for (auto& r : all) out.routes.push_back({1.0 / static_cast<double>(all.size()), std::move(r)});
    return out;
}

} // namespace fabscope
