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

// Appends the changes between the latest snapshot and the one before it (nothing with < 2).
void detectTopologyChanges(const Store& store, std::vector<Finding>& out);

} // namespace fabscope
