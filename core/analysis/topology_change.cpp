#include "core/analysis/topology_change.h"

#include "core/analysis/format.h"
#include "core/linkrate.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace fabscope {
namespace {

using PortKey = std::pair<std::string, std::string>;  // (node identity, port name)

struct LinkView {
    PortKey a, b;
    PortRef refA, refB;          // the ports a finding names
    std::string labelA, labelB;  // how its summary names them ("SW-1-2 p2")
    bool switchA = false;        // whether a is a switch's port
    std::optional<int> width;
    std::string speed;
};

std::string identity(const Node& n) { return n.guid.empty() ? "name:" + n.description : n.guid; }

// How each node of a fabric is matched and named: its identity (ports match across the two
// sides when their nodes' identities and port names do) and the node its findings name.
struct NodeKeys {
    std::vector<std::string> identity;
    std::vector<const Node*> shown;  // the node a finding's port refers to (the discovered one for a plan's)
    std::vector<std::string> named;  // what a summary calls it (the plan's name for a planned node)
};

NodeKeys keysOf(const Fabric& f) {
    NodeKeys k;
    for (const Node& n : f.nodes) {
        k.identity.push_back(identity(n));
        k.shown.push_back(&n);
        k.named.push_back(n.description.empty() ? n.guid : n.description);
    }
    return k;
}

std::string label(const std::string& node, const std::string& port) {
    const bool number = !port.empty() && port.find_first_not_of("0123456789") == std::string::npos;
    return node + (number ? " p" : " ") + port;
}

// Each side's links keyed by both of their ports.
struct Side {
    std::vector<LinkView> links;
    std::map<PortKey, std::size_t> byPort;
    std::map<std::pair<PortKey, PortKey>, std::size_t> byPair;  // (lower key, higher key)
};

Side index(const Fabric& f, const NodeKeys& keys) {
    Side s;
    auto refOf = [&](PortId p) {
        const Port& port = f.port(p);
        const Node& n = *keys.shown[port.node.value()];
        return PortRef{n.description.empty() ? n.guid : n.description, n.guid, port.name};
    };
    for (const Link& l : f.links) {
        LinkView v;
        v.a = {keys.identity[f.port(l.a).node.value()], f.port(l.a).name};
        v.b = {keys.identity[f.port(l.b).node.value()], f.port(l.b).name};
        v.refA = refOf(l.a);
        v.refB = refOf(l.b);
        v.labelA = label(keys.named[f.port(l.a).node.value()], f.port(l.a).name);
        v.labelB = label(keys.named[f.port(l.b).node.value()], f.port(l.b).name);
        v.switchA = f.node(f.port(l.a).node).type == NodeType::Switch;
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

std::string linkLabel(const LinkView& v) { return v.labelA + " <-> " + v.labelB; }

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

// What a change is called: between two runs ("removed"), or against a cabling plan ("not cabled").
struct Wording {
    const std::string* plan = nullptr;  // the plan's label; null between runs
    [[nodiscard]] std::string widthSpeed(const LinkView& now, const LinkView& was) const {
        const std::string n = widthSpeedLabel(now.width, now.speed), w = widthSpeedLabel(was.width, was.speed);
        return linkLabel(now) + (plan ? " runs " + n + ", the cabling plan " + *plan + " says " + w : " now runs " + n + ", was " + w);
    }
    [[nodiscard]] std::string added(const LinkView& v) const {
        return "link " + linkLabel(v) + (plan ? " is cabled but not in the cabling plan " + *plan : " added");
    }
    [[nodiscard]] std::string moved(const std::string& kept, const std::string& now, const std::string& was) const {
        return kept + (plan ? " connects to " + now + ", the cabling plan " + *plan + " says " + was : " now connects to " + now + ", was " + was);
    }
    [[nodiscard]] std::string removed(const LinkView& v) const {
        return plan ? "planned link " + linkLabel(v) + " is not cabled (cabling plan " + *plan + ")" : "link " + linkLabel(v) + " removed";
    }
};

std::vector<Finding> diff(const Side& A, const Side& B, const Wording& w, double beforeTime, double afterTime,
                          const std::function<bool(const LinkView&)>& reported) {
    std::vector<Finding> out;
    std::vector<bool> oldExplained(A.links.size(), false);

    for (const LinkView& v : B.links) {
        auto same = A.byPair.find(std::minmax(v.a, v.b));
        if (same != A.byPair.end()) {
            oldExplained[same->second] = true;
            const LinkView& o = A.links[same->second];
            if (o.width == v.width && o.speed == v.speed) continue;
            // A plan that names no speed ("-4X->") or nothing ("->") is not contradicted by one.
            if (w.plan && (!o.width || o.width == v.width) && o.speed == "???") continue;
            const double capOld = static_cast<double>(capacityBps(o.width, o.speed));
            const double capNew = static_cast<double>(capacityBps(v.width, v.speed));
            const bool worse = capNew < capOld || (capNew == 0 && capOld > 0);
            Finding f = make(worse ? FindingSeverity::Warning : FindingSeverity::Info, beforeTime, afterTime, "width_speed", w.widthSpeed(v, o));
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
            if (!reported(v)) continue;
            Finding f = make(FindingSeverity::Info, beforeTime, afterTime, "added", w.added(v));
            f.ports = {v.refA, v.refB};
            out.push_back(std::move(f));
            continue;
        }
        // The port that kept its cable comes first, then its new and its old peer.
        // Against a plan, a cable on the wrong port is told from its switch's port where both were planned.
        const bool keepA = oldOfA.has_value() && (!w.plan || !oldOfB || v.switchA);
        const LinkView& o = A.links[keepA ? *oldOfA : *oldOfB];
        const PortKey& kept = keepA ? v.a : v.b;
        const PortRef& keptRef = keepA ? v.refA : v.refB;
        const PortRef& newPeer = keepA ? v.refB : v.refA;
        const PortRef& oldPeer = o.a == kept ? o.refB : o.refA;
        const std::string& keptLabel = keepA ? v.labelA : v.labelB;
        const std::string& newLabel = keepA ? v.labelB : v.labelA;
        const std::string& oldLabel = o.a == kept ? o.labelB : o.labelA;
        oldExplained[keepA ? *oldOfA : *oldOfB] = true;
        if (oldOfA && oldOfB) oldExplained[keepA ? *oldOfB : *oldOfA] = true;
        Finding f = make(FindingSeverity::Warning, beforeTime, afterTime, "moved", w.moved(keptLabel, newLabel, oldLabel));
        f.ports = {keptRef, newPeer, oldPeer};
        f.metrics.emplace_back("from", oldLabel);
        f.metrics.emplace_back("to", newLabel);
        out.push_back(std::move(f));
    }
    for (std::size_t i = 0; i < A.links.size(); ++i) {
        if (oldExplained[i]) continue;
        const LinkView& o = A.links[i];
        // Both ends still cabled, each elsewhere: already told as the moves of the new links.
        if (B.byPort.count(o.a) && B.byPort.count(o.b)) continue;
        Finding f = make(FindingSeverity::Warning, beforeTime, afterTime, "removed", w.removed(o));
        f.ports = {o.refA, o.refB};
        f.metrics.emplace_back("old", widthSpeedLabel(o.width, o.speed));
        out.push_back(std::move(f));
    }
    return out;
}

// The name a discovered node goes by in a cabling plan: its description, its system name, the
// system of a switch's "MF0;<system>:<type>/U1", or a host adapter's first word ("H-1" of
// "H-1 HCA-1") when no other node starts with it; empty when the plan names none of them.
std::string plannedName(const Node& n, const std::set<std::string>& planned, const std::map<std::string, int>& firstWords) {
    auto in = [&](const std::string& s) { return !s.empty() && planned.count(s); };
    if (in(n.description)) return n.description;
    if (in(n.systemName)) return n.systemName;
    if (const auto semi = n.description.find(';'), colon = n.description.find(':'); semi != std::string::npos && colon != std::string::npos && colon > semi) {
        const std::string system = n.description.substr(semi + 1, colon - semi - 1);
        if (in(system)) return system;
    }
    const std::string first = n.description.substr(0, n.description.find(' '));
    if (in(first) && firstWords.at(first) == 1) return first;
    return {};
}

} // namespace

std::vector<Finding> diffTopology(const Fabric& before, double beforeTime, const Fabric& after, double afterTime) {
    return diff(index(before, keysOf(before)), index(after, keysOf(after)), Wording{}, beforeTime, afterTime,
                [](const LinkView&) { return true; });
}

std::vector<Finding> diffAgainstPlan(const Fabric& plan, const std::string& planLabel, const Fabric& fabric, double fabricTime) {
    std::set<std::string> planned;
    for (const Node& n : plan.nodes) planned.insert(n.description);
    std::map<std::string, int> firstWords;
    for (const Node& n : fabric.nodes) ++firstWords[n.description.substr(0, n.description.find(' '))];
    NodeKeys discovered = keysOf(fabric);
    std::map<std::string, const Node*> byName;  // plan name -> the discovered node it is
    for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
        const std::string name = plannedName(fabric.nodes[i], planned, firstWords);
        if (name.empty() || !byName.emplace(name, &fabric.nodes[i]).second) continue;
        discovered.identity[i] = "plan:" + name;
        discovered.named[i] = name;
    }
    NodeKeys planKeys;
    for (const Node& n : plan.nodes) {
        planKeys.identity.push_back("plan:" + n.description);
        const auto it = byName.find(n.description);
        planKeys.shown.push_back(it == byName.end() ? &n : it->second);  // findings name the discovered node where there is one
        planKeys.named.push_back(n.description);
    }
    // A cable between two nodes the plan does not name is outside it: not reported.
    auto inPlan = [](const LinkView& v) { return v.a.first.starts_with("plan:") || v.b.first.starts_with("plan:"); };
    std::vector<Finding> out = diff(index(plan, planKeys), index(fabric, discovered), Wording{&planLabel}, fabricTime, fabricTime, inPlan);
    for (Finding& f : out) f.metrics.emplace_back("plan", planLabel);  // what reports and the GUI tell a plan's changes by
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

void detectPlanMismatches(const Store& store, std::vector<Finding>& out) {
    const std::vector<SnapshotInfo> plans = store.plans();
    const auto fabric = store.latestSnapshot();
    if (plans.empty() || !fabric || fabric->planned) return;
    const SnapshotInfo& plan = plans.back();
    for (Finding& f : diffAgainstPlan(store.loadFabric(plan.id), plan.label, store.loadFabric(fabric->id), fabric->time))
        out.push_back(std::move(f));
}

} // namespace fabscope
