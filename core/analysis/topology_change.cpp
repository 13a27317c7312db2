#include "core/analysis/topology_change.h"

#include "core/analysis/format.h"
#include "core/linkrate.h"

#include <map>
#include <optional>
#include <utility>

namespace fabscope {
namespace {

using PortKey = std::pair<std::string, std::string>;  // (node identity, port name)

struct LinkView {
    PortKey a, b;
    PortRef refA, refB;
    std::optional<int> width;
    std::string speed;
};

std::string identity(const Node& n) { return n.guid.empty() ? "name:" + n.description : n.guid; }

PortRef refOf(const Fabric& f, PortId p) {
    const Port& port = f.port(p);
    const Node& n = f.node(port.node);
    return {n.description.empty() ? n.guid : n.description, n.guid, port.name};
}

// Each side's links keyed by both of their ports.
struct Side {
    std::vector<LinkView> links;
    std::map<PortKey, std::size_t> byPort;
    std::map<std::pair<PortKey, PortKey>, std::size_t> byPair;  // (lower key, higher key)
};

Side index(const Fabric& f) {
    Side s;
    for (const Link& l : f.links) {
        LinkView v;
        v.a = {identity(f.node(f.port(l.a).node)), f.port(l.a).name};
        v.b = {identity(f.node(f.port(l.b).node)), f.port(l.b).name};
        v.refA = refOf(f, l.a);
        v.refB = refOf(f, l.b);
        v.width = l.width;
        v.speed = l.speed;
        const std::size_t i = s.links.size();
        s.byPort[v.a] = i;
        s.byPort[v.b] = i;
        s.byPair[std::minmax(v.a, v.b)] = i;
        s.links.push_back(std::move(v));
    }
    return s;
}

std::string label(const PortRef& p) {
    const bool number = !p.port.empty() && p.port.find_first_not_of("0123456789") == std::string::npos;
    return p.node + (number ? " p" : " ") + p.port;
}

std::string linkLabel(const LinkView& v) { return label(v.refA) + " <-> " + label(v.refB); }

Finding make(FindingSeverity sev, double t0, double t1, std::string change, std::string summary) {
    Finding f;
    f.kind = FindingKind::TopologyChange;
    f.severity = sev;
    f.start = t0;
    f.end = t1;
    f.summary = std::move(summary);
    f.metrics.emplace_back("change", std::move(change));
    return f;
}

} // namespace

std::vector<Finding> diffTopology(const Fabric& before, double beforeTime, const Fabric& after, double afterTime) {
    const Side A = index(before), B = index(after);
    std::vector<Finding> out;
    std::vector<bool> oldExplained(A.links.size(), false);

    for (const LinkView& v : B.links) {
        auto same = A.byPair.find(std::minmax(v.a, v.b));
        if (same != A.byPair.end()) {
            oldExplained[same->second] = true;
            const LinkView& o = A.links[same->second];
            if (o.width == v.width && o.speed == v.speed) continue;
            const double capOld = static_cast<double>(capacityBps(o.width, o.speed));
            const double capNew = static_cast<double>(capacityBps(v.width, v.speed));
            const bool worse = capNew < capOld || (capNew == 0 && capOld > 0);
            Finding f = make(worse ? FindingSeverity::Warning : FindingSeverity::Info, beforeTime, afterTime, "width_speed",
                             linkLabel(v) + " now runs " + widthSpeedLabel(v.width, v.speed) + ", was " +
                                 widthSpeedLabel(o.width, o.speed));
            f.ports = {v.refA, v.refB};
            f.metrics.emplace_back("old", widthSpeedLabel(o.width, o.speed));
            f.metrics.emplace_back("new", widthSpeedLabel(v.width, v.speed));
            f.metrics.emplace_back("capacity_change_gbps", numfmt::round((capNew - capOld) / 1e9));
            out.push_back(std::move(f));
            continue;
        }
        // A new pairing: "moved" when one of its ports was cabled elsewhere before.
        std::optional<std::size_t> oldOfA, oldOfB;
        if (auto it = A.byPort.find(v.a); it != A.byPort.end()) oldOfA = it->second;
        if (auto it = A.byPort.find(v.b); it != A.byPort.end()) oldOfB = it->second;
        if (!oldOfA && !oldOfB) {
            Finding f = make(FindingSeverity::Info, beforeTime, afterTime, "added", "link " + linkLabel(v) + " added");
            f.ports = {v.refA, v.refB};
            out.push_back(std::move(f));
            continue;
        }
        // The port that kept its cable comes first, then its new and its old peer.
        const bool keepA = oldOfA.has_value();
        const LinkView& o = A.links[keepA ? *oldOfA : *oldOfB];
        const PortKey& kept = keepA ? v.a : v.b;
        const PortRef& keptRef = keepA ? v.refA : v.refB;
        const PortRef& newPeer = keepA ? v.refB : v.refA;
        const PortRef& oldPeer = o.a == kept ? o.refB : o.refA;
        oldExplained[keepA ? *oldOfA : *oldOfB] = true;
        if (oldOfA && oldOfB) oldExplained[keepA ? *oldOfB : *oldOfA] = true;
        Finding f = make(FindingSeverity::Warning, beforeTime, afterTime, "moved",
                         label(keptRef) + " now connects to " + label(newPeer) + ", was " + label(oldPeer));
        f.ports = {keptRef, newPeer, oldPeer};
        f.metrics.emplace_back("from", label(oldPeer));
        f.metrics.emplace_back("to", label(newPeer));
        out.push_back(std::move(f));
    }
    for (std::size_t i = 0; i < A.links.size(); ++i) {
        if (oldExplained[i]) continue;
        const LinkView& o = A.links[i];
        // Both ends still cabled, each elsewhere: already told as the moves of the new links.
        if (B.byPort.count(o.a) && B.byPort.count(o.b)) continue;
        Finding f = make(FindingSeverity::Warning, beforeTime, afterTime, "removed", "link " + linkLabel(o) + " removed");
        f.ports = {o.refA, o.refB};
        f.metrics.emplace_back("old", widthSpeedLabel(o.width, o.speed));
        out.push_back(std::move(f));
    }
    return out;
}

void detectTopologyChanges(const Store& store, std::vector<Finding>& out) {
    const std::vector<SnapshotInfo> snaps = store.snapshots();
    if (snaps.size() < 2) return;
    const SnapshotInfo& prev = snaps[snaps.size() - 2];
    const SnapshotInfo& last = snaps.back();
    for (Finding& f : diffTopology(store.loadFabric(prev.id), prev.time, store.loadFabric(last.id), last.time))
        out.push_back(std::move(f));
}

} // namespace fabscope
