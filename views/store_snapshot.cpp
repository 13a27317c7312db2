#include "views/store_snapshot.h"

#include "core/analysis/findings.h"
#include "core/analysis/topology_change.h"
#include "core/tiers.h"

#include <map>

namespace fabscope {
namespace {

void index(StoreSnapshot& s) {
    s.tiers = computeTiers(s.fabric);
    s.shape = analyseShape(s.fabric);
    s.linkOfPort.assign(s.fabric.ports.size(), LinkId());
    for (std::size_t i = 0; i < s.fabric.links.size(); ++i) {
        s.linkOfPort[s.fabric.links[i].a.value()] = LinkId(i);
        s.linkOfPort[s.fabric.links[i].b.value()] = LinkId(i);
    }
    for (std::size_t i = 0; i < s.fabric.nodes.size(); ++i) {
        const Node& n = s.fabric.nodes[i];
        if (!n.guid.empty()) s.nodeByName.emplace(n.guid, static_cast<std::uint32_t>(i));
        if (!n.description.empty()) s.nodeByName.emplace(n.description, static_cast<std::uint32_t>(i));
    }
    s.portsOfNode.assign(s.fabric.nodes.size(), {});
    for (std::size_t p = 0; p < s.fabric.ports.size(); ++p) s.portsOfNode[s.fabric.ports[p].node.value()].push_back(static_cast<std::uint32_t>(p));
}

} // namespace

std::optional<PortId> StoreSnapshot::findPort(const PortRef& ref) const {
    auto it = ref.guid.empty() ? nodeByName.end() : nodeByName.find(ref.guid);
    if (it == nodeByName.end()) it = nodeByName.find(ref.node);
    if (it == nodeByName.end()) return std::nullopt;
    // Among the node's own ports: a job's overlay asks for every hop of thousands of routes.
    if (it->second < portsOfNode.size()) {
        for (const std::uint32_t p : portsOfNode[it->second])
            if (fabric.ports[p].name == ref.port) return PortId(p);
        return std::nullopt;
    }
    for (std::size_t i = 0; i < fabric.ports.size(); ++i)  // a snapshot made without index()
        if (fabric.ports[i].node.value() == it->second && fabric.ports[i].name == ref.port) return PortId(i);
    return std::nullopt;
}

std::optional<LinkId> StoreSnapshot::linkOf(PortId p) const {
    if (p.value() >= linkOfPort.size() || !linkOfPort[p.value()].valid()) return std::nullopt;
    return linkOfPort[p.value()];
}

TimeRange StoreSnapshot::timeSpan() const {
    if (info.timeStart && info.timeEnd) return {*info.timeStart, *info.timeEnd};
    if (!rates.empty()) return rates.span();
    return {};
}

std::string StoreSnapshot::portLabel(PortId p) const {
    const Port& port = fabric.port(p);
    const Node& node = fabric.node(port.node);
    const bool number = !port.name.empty() && port.name.find_first_not_of("0123456789") == std::string::npos;
    return (node.description.empty() ? node.guid : node.description) + (number ? " p" : " ") + port.name;
}

std::string StoreSnapshot::linkLabel(LinkId l) const {
    const Link& link = fabric.link(l);
    return portLabel(link.a) + " \u2014 " + portLabel(link.b);
}

std::pair<double, double> StoreSnapshot::capacityGbpsAt(LinkId l, double t) const {
    return {rates.capacityGbpsAt(l.value(), 0, t), rates.capacityGbpsAt(l.value(), 1, t)};
}

bool StoreSnapshot::capacityVaries(LinkId l) const { return rates.speedChanges.count(l.value()) > 0; }

namespace {
// Per-port readings keyed by the fabric's PortId, in one pass over the ports rather than a search
// per reading: 83k-link fabrics.
template <typename Reading> std::unordered_map<std::uint32_t, Reading> byPortId(const Fabric& fabric, std::vector<Reading> readings) {
    std::unordered_map<std::uint32_t, Reading> out;
    std::map<std::pair<std::string, std::string>, Reading> byKey;
    for (Reading& r : readings) byKey.emplace(std::pair{r.nodeGuid, r.port}, std::move(r));
    for (std::size_t i = 0; i < fabric.ports.size() && !byKey.empty(); ++i) {
        const Port& p = fabric.ports[i];
        if (auto it = byKey.find({fabric.node(p.node).guid, p.name}); it != byKey.end()) {
            out.emplace(static_cast<std::uint32_t>(i), std::move(it->second));
            byKey.erase(it);
        }
    }
    return out;
}

std::shared_ptr<StoreSnapshot> readFabric(const Store& store) {
    auto s = std::make_shared<StoreSnapshot>();
    s->path = store.path();
    s->info = store.info();
    const auto latest = store.latestSnapshot();
    if (latest) {
        s->snapshotId = latest->id;
        s->fabric = store.loadFabric(latest->id);
    }
    index(*s);
    if (latest && !latest->planned)
        if (const auto plans = store.plans(); !plans.empty())
            s->planChecks = diffAgainstPlan(store.loadFabric(plans.back().id), plans.back().label, s->fabric, latest->time);
    if (s->snapshotId) {
        s->optics = byPortId(s->fabric, loadPortOptics(store, s->snapshotId));
        s->ber = byPortId(s->fabric, loadPortBer(store, s->snapshotId));
        for (FabricEvent& e : loadFabricEvents(store, s->snapshotId))
            if (const auto n = s->nodeByName.find(e.nodeGuid); n != s->nodeByName.end()) s->events[n->second].push_back(std::move(e));
    }
    return s;
}
} // namespace

std::shared_ptr<const StoreSnapshot> loadStoreSnapshot(const std::string& path, const std::atomic<bool>* cancel,
                                                       const AnalysisConfig& config) {
    const Store store(path, Store::Mode::ReadOnly);
    auto s = readFabric(store);
    if (s->snapshotId) s->rates = loadLinkTimeSeries(store, s->snapshotId, s->fabric, s->tiers, cancel, config);
    return s;
}

std::shared_ptr<const StoreSnapshot> loadStoreFabric(const std::string& path) {
    return readFabric(Store(path, Store::Mode::ReadOnly));
}

std::shared_ptr<const StoreSnapshot> withLinkRates(const StoreSnapshot& base, const std::atomic<bool>* cancel,
                                                   const AnalysisConfig& config) {
    auto s = std::make_shared<StoreSnapshot>(base);
    if (s->snapshotId) {
        const Store store(base.path, Store::Mode::ReadOnly);
        s->rates = loadLinkTimeSeries(store, s->snapshotId, s->fabric, s->tiers, cancel, config);
    }
    return s;
}

std::shared_ptr<const StoreSnapshot> makeSnapshot(Fabric fabric, LinkTimeSeries rates) {
    auto s = std::make_shared<StoreSnapshot>();
    s->fabric = std::move(fabric);
    index(*s);
    s->rates = std::move(rates);
    return s;
}

} // namespace fabscope
