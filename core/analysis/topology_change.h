#pragma once
// topology_change: what differs between two topology snapshots (docs/FINDINGS.md): links added, removed,
// moved to another port, or running another width/speed. Used by `fabscope analyze` (latest
// snapshot against the one before it) and by `fabscope diff`.
#include "core/analysis/findings.h"
#include "core/model.h"
#include "core/store/store.h"

#include <vector>

namespace fabscope {

// Ports are matched by node identity (GUID, else description) and port name. Findings are
// unsorted and unnumbered; start = beforeTime, end = afterTime.
std::vector<Finding> diffTopology(const Fabric& before, double beforeTime, const Fabric& after, double afterTime);

// The discovered fabric against a cabling plan (an ibdm topology file): nodes matched by the
// plan's system names (plannedName in the .cpp), findings worded for a plan and naming the
// discovered ports: "removed" = planned, not cabled; "added" = cabled between nodes the plan
// names, not planned; "moved" = cabled elsewhere than planned; "width_speed" only where the
// plan gives one. start = end = fabricTime (a plan file has no time of its own); metrics.plan = planLabel.
std::vector<Finding> diffAgainstPlan(const Fabric& plan, const std::string& planLabel, const Fabric& fabric, double fabricTime);

// Appends the changes between the latest snapshot and the one before it (nothing with < 2).
void detectTopologyChanges(const Store& store, std::vector<Finding>& out);
// Appends how the latest discovered fabric differs from the latest cabling plan (nothing without both).
void detectPlanMismatches(const Store& store, std::vector<Finding>& out);

} // namespace fabscope
