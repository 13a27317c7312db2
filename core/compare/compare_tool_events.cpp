// What the diagnostic tools reported about nodes that changed between the runs (fabric_events:
// ibdiagnet's WARNINGS_/ERRORS_ rows, ibswinfo's power supplies and fans not OK): a problem new in
// the bad run is an errors change on its node, one gone from it a small one. A tool is compared
// only where it ran for both sides' snapshots, so a run without ibswinfo shows no problem as
// "gone". Rules: docs/ANALYSIS.md "Compare".
#include "core/compare/compare_parts.h"
#include "core/store/fabric_events.h"

#include <map>
#include <set>

namespace fabscope::compare {
namespace {

// The tools whose output was imported with the side's snapshot, by the importers' format names.
std::set<std::string> toolsRun(const Side& side) {
    std::set<std::string> tools;
    for (const ImportRecord& r : side.store->imports()) {
        if (r.snapshotId != *side.snapshotId) continue;
        if (r.format == "ibdiagnet-db-csv") tools.insert("ibdiagnet");
        else if (r.format == "ibswinfo") tools.insert("ibswinfo");
    }
    return tools;
}

// One problem, told apart from others on the same node by tool, port, check and event name (the
// summary's figures may differ between runs).
std::string keyOf(const FabricEvent& e) { return e.tool + '\x1f' + e.nodeGuid + '\x1f' + e.port + '\x1f' + e.check + '\x1f' + e.name; }

// The node (its description and GUID) with the event's port, empty when it is about the node.
std::vector<PortRef> placeOf(const Side& side, const FabricEvent& e) {
    for (const Node& n : side.ctx->fabric().nodes)
        if (n.guid == e.nodeGuid) return {PortRef{n.description, n.guid, e.port}};
    return {PortRef{"", e.nodeGuid, e.port}};
}

ChangeValues reported(const FabricEvent& e) {
    return {{"tool", e.tool}, {"severity", std::string(e.error ? "error" : "warning")}, {"event", e.name}, {"reported", e.summary}};
}

} // namespace

void toolEventChanges(const Side& good, const Side& bad, std::vector<Change>& out) {
    if (!good.snapshotId || !bad.snapshotId) return;
    if (good.store == bad.store && *good.snapshotId == *bad.snapshotId) return;
    const std::set<std::string> inGood = toolsRun(good), inBad = toolsRun(bad);
    auto load = [](const Side& side, const std::set<std::string>& both) {
        std::map<std::string, FabricEvent> byKey;
        for (FabricEvent& e : loadFabricEvents(*side.store, *side.snapshotId))
            if (both.count(e.tool)) byKey.emplace(keyOf(e), std::move(e));
        return byKey;
    };
    std::set<std::string> both;
    for (const std::string& t : inGood)
        if (inBad.count(t)) both.insert(t);
    if (both.empty()) return;
    const auto before = load(good, both), after = load(bad, both);
    // `e` reported on `side` only: new in the bad run, or gone from it.
    const auto add = [&out](const Side& side, const FabricEvent& e, bool appeared) {
        const ChangeValues none{{"reported", std::string("nothing")}};
        Change c;
        c.kind = ChangeKind::Errors;
        c.ports = placeOf(side, e);
        c.good = appeared ? none : reported(e);
        c.bad = appeared ? reported(e) : none;
        const PortRef& at = c.ports.front();
        c.summary = std::string(appeared ? "new in the bad run: " : "gone in the bad run: ") + e.tool + " " +
                    (e.error ? "error" : "warning") + " on " + (at.node.empty() ? at.guid : at.node) +
                    (e.port.empty() ? "" : " p" + e.port) + ": " + e.summary;
        c.score = !appeared ? 5 : e.error ? 45 : 15;  // a failed supply or fan, or ibdiagnet's error, before its warnings
        out.push_back(std::move(c));
    };
    for (const auto& [key, e] : after)
        if (!before.count(key)) add(bad, e, true);
    for (const auto& [key, e] : before)
        if (!after.count(key)) add(good, e, false);
}

} // namespace fabscope::compare
