#pragma once
// The shape of a fabric, found from the graph alone (nothing in ibnetdiscover or LLDP files says
// "dragonfly group" or "rail"), so the fabric view can pick a layout:
// - dragonfly: switches fall into groups with dense local connectivity (a switch-switch link is
//   local when the two ends share many switch neighbours, as in an all-to-all group; global links
//   share few), and there are at least 3 such groups linked to each other;
// - rail-optimised: hosts with several NICs (NICs grouped by the first word of their description,
//   "gpu007 mlx5_0".."gpu007 mlx5_7") whose NICs land on different leaves, NIC r of every host on
//   the leaves of rail r;
// - otherwise a fat tree (tiers, core/tiers.h).
#include "core/model.h"

#include <string_view>
#include <vector>

namespace fabscope {

enum class FabricShape { FatTree, Dragonfly, Rail };
std::string_view shapeName(FabricShape shape);

// Per node: its dragonfly group (switches, and hosts by their switch), -1 when in none.
struct NodeGroups {
    std::vector<int> of;
    int count = 0;
};

NodeGroups findDragonflyGroups(const Fabric& fabric);
// Per node: the rail of a NIC (its rank within its host, as the majority of its leaf's NICs) and
// of a leaf; -1 for everything else. count = 0 when the fabric is not rail-optimised.
NodeGroups findRails(const Fabric& fabric);

struct ShapeAnalysis {
    FabricShape shape = FabricShape::FatTree;
    NodeGroups groups;  // dragonfly groups (count 0 unless a dragonfly)
    NodeGroups rails;   // rails (count 0 unless rail-optimised)
};
ShapeAnalysis analyseShape(const Fabric& fabric);

} // namespace fabscope
