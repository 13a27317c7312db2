#pragma once
// Where the fabric view puts things: a fat-tree in tiers (hosts at the bottom grouped under their
// leaf, leaves, then each higher tier ordered by the barycentre of its neighbours below), and the
// links to draw at two levels of detail. Plain data, no painting; x in host slots, y in tiers.
#include "core/model.h"

#include <cstdint>
#include <vector>

namespace fabscope {

struct DrawEdge {
    std::uint32_t from = 0, to = 0;            // point indices (nodes, then host groups)
    std::uint32_t firstMember = 0, members = 0;  // range in FabricLayout::edgeMembers
};

struct FabricLayout {
    int maxTier = 0;
    double width = 1;                // world units (host slots)
    std::vector<double> x;           // per point: world x; points = nodes, then host groups
    std::vector<int> tier;           // per point; -1: not placed
    std::vector<std::uint32_t> groupOfHost;  // per node: point index of its host group, or UINT32_MAX
    std::vector<std::uint32_t> groupLeaf;    // per group: the leaf node it hangs under
    std::vector<std::uint32_t> groupSize;    // per group: hosts in it
    std::size_t nodeCount = 0;
    // Two levels of detail: every node drawn (unfolded) or hosts folded into one group per leaf.
    std::vector<DrawEdge> edgesUnfolded, edgesFolded;
    std::vector<std::uint32_t> edgeMembers;  // link ids, grouped by edge (both edge lists index it)
    std::vector<std::uint32_t> edgeOfLinkUnfolded, edgeOfLinkFolded;  // per link

    [[nodiscard]] bool isGroup(std::uint32_t point) const { return point >= nodeCount; }
    [[nodiscard]] std::size_t points() const { return x.size(); }
};

FabricLayout layoutFatTree(const Fabric& fabric, const std::vector<int>& tiers);

} // namespace fabscope
