#pragma once
// Tiers of a fabric found from the graph alone: hosts (CAs) are tier 0, switches that touch a
// host are tier 1 (leaves), and every other switch sits one above its nearest lower switch.
#include "core/model.h"

#include <vector>

namespace fabscope {

// One tier per node, -1 for nodes connected to nothing that has a tier.
std::vector<int> computeTiers(const Fabric& fabric);

} // namespace fabscope
