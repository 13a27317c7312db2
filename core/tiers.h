#pragma once
// Tiers of a fabric found from the graph alone: hosts (CAs) are tier 0, switches that touch a
// host are tier 1 (leaves), and every other switch sits one above its nearest lower switch, except
// a leaf without hosts (all its hosts down or not cabled yet): a switch that links only to spines
// which all serve one same leaf with hosts is wired like that leaf and is a leaf too. By distance
// alone it would sit a tier above the spines, with the cores or in a row of its own.
#include "core/model.h"

#include <vector>

namespace fabscope {

// One tier per node, -1 for nodes connected to nothing that has a tier.
std::vector<int> computeTiers(const Fabric& fabric);

} // namespace fabscope
