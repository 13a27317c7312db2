#pragma once
// Where the fabric view puts things, for three shapes of fabric (core/fabric_shape.h):
// - fat tree: tiers (hosts at the bottom grouped under their leaf, leaves, then each higher tier
//   ordered by the barycentre of its neighbours below);
// - rail-optimised: the same tiers, leaves ordered by rail so each rail is one band of NICs with
//   its leaves above them;
// - dragonfly: groups in a row, each group's switches on an arch (so local links show as chords)
//   with their hosts under them; global links run between the arches.
// Plus the links to draw at two levels of detail. Plain data, no painting; x in host slots, y in
// rows (0 = hosts at the bottom, `top` at the top).
#include "core/fabric_shape.h"
#include "core/model.h"
#include "views/link_bundles.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fabscope {

enum class LayoutKind { Auto, FatTree, Dragonfly, Rail };

struct DrawEdge {
    std::uint32_t from = 0, to = 0;            // point indices (nodes, then host groups)
    std::uint32_t firstMember = 0, members = 0;  // range in FabricLayout::edgeMembers
};

// A labelled span of x: a rail or a dragonfly group.
struct LayoutBand {
    double x0 = 0, x1 = 0;
    std::string label;
    std::vector<std::uint32_t> nodes;  // the band's switches and hosts
};

struct FabricLayout {
    FabricShape shape = FabricShape::FatTree;  // the layout drawn
    int maxTier = 0;
    double top = 1;                  // largest y
    double width = 1;                // world units (host slots)
    std::vector<double> x, y;        // per point: world position; points = nodes, then host groups
    std::vector<int> tier;           // per point; -1: not placed; 0: hosts and host groups
    std::vector<std::uint32_t> groupOfHost;  // per node: point index of its host group, or UINT32_MAX
    std::vector<std::uint32_t> groupLeaf;    // per group: the switch it hangs under
    std::vector<std::uint32_t> groupSize;    // per group: hosts in it
    std::vector<LayoutBand> bands;           // rails or dragonfly groups; empty for a fat tree
    std::size_t nodeCount = 0;
    // Two levels of detail: every node drawn (unfolded) or hosts folded into one group per leaf.
    std::vector<DrawEdge> edgesUnfolded, edgesFolded;
    std::vector<std::uint32_t> edgeMembers;  // link ids, grouped by edge (both edge lists index it)
    std::vector<std::uint32_t> edgeOfLinkUnfolded, edgeOfLinkFolded;  // per link
    // Per node, the name drawn by it (a host's host name, a switch's description or GUID) without
    // what every name of its row (tier) shares at the start and end (views/label_trim.h): cut at
    // words in `label`, also at parts of words in `shortLabel` for a row whose labels do not fit.
    std::vector<std::string> label, shortLabel;
    std::vector<std::uint32_t> longestLabel;  // per tier: the node whose `label` is longest
    // Switch groups per tier and the bundles of links between them at each level of detail, drawn
    // as bands at low zoom (views/link_bundles.h); none for a dragonfly.
    std::vector<std::uint32_t> switchGroup;  // per node, UINT32_MAX for none
    std::vector<std::string> groupName;      // per switch group
    LinkBundles bundlesFolded, bundlesUnfolded;

    [[nodiscard]] bool isGroup(std::uint32_t point) const { return point >= nodeCount; }
    [[nodiscard]] std::size_t points() const { return x.size(); }
};

FabricLayout layoutFatTree(const Fabric& fabric, const std::vector<int>& tiers);
// rails: per node, from findRails (leaves and NICs; -1 elsewhere).
FabricLayout layoutRails(const Fabric& fabric, const std::vector<int>& tiers, const NodeGroups& rails);
// groups: per node, from findDragonflyGroups; switches in no group form one more band.
FabricLayout layoutDragonfly(const Fabric& fabric, const std::vector<int>& tiers, const NodeGroups& groups);

// The layout for `kind` (Auto: the detected shape); computes groups or rails when the detected
// shape differs from a forced one.
FabricLayout layoutFor(const Fabric& fabric, const std::vector<int>& tiers, const ShapeAnalysis& detected, LayoutKind kind);

} // namespace fabscope
