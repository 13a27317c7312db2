#pragma once
// Links between groups of switches drawn as one band when they are too many to tell apart (#23).
// On Selene the 3,286 links between three switch tiers filled the space between the rows with one
// grey mass. The switches of each tier are grouped (a pod: switches joined by the links to the
// tier below, the leaves by their links to the spines; groups of more than kMaxGroup switches cut
// in runs along the row), and the edges between two groups of different tiers form a bundle. At a
// zoom where the edges between two tiers are too dense (chooseBands), every bundle of those tiers is
// drawn as one band, as wide as its link count asks and
// coloured by its worst link; zooming in shows the links again. Plain data (no Qt), computed with
// the layout.
#include "core/model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fabscope {

struct DrawEdge;
struct FabricLayout;

struct LinkBundle {
    std::string nameLow, nameHigh;  // the switch groups it joins ("SLG01-01 \u2026 SLG01-16"), lower tier first
    int tierLow = 0, tierHigh = 0;  // the tiers of its ends
    double xLow = 0, yLow = 0, xHigh = 0, yHigh = 0;  // band ends, world units (the mean of the edges' ends)
    double xLowMin = 1e300, xLowMax = -1e300, xHighMin = 1e300, xHighMax = -1e300;  // the switches' x at each end
    std::uint32_t links = 0;        // links in it (parallel links of an edge each count)
    std::vector<std::uint32_t> edges;  // indices into the edge list it was made from
};

struct LinkBundles {
    std::vector<LinkBundle> bundles;
    std::vector<std::uint32_t> bundleOfEdge;  // per edge: its bundle, or UINT32_MAX
    std::uint32_t maxLinks = 0;               // the largest bundle's link count
    std::vector<std::uint32_t> edgesAbove;    // per tier: edges in bundles from it to a higher tier
};

constexpr double kBundleDensity = 0.2;  // edges per px of drawn width (5 px apart) above which a tier's bundles are bands
constexpr double kBundleInk = 0.75;       // share of the view's width inked at mid-height, likewise
constexpr std::size_t kMaxGroup = 24;     // switches per group at most
constexpr double kMaxBands = 256;         // bundles between two tiers at most: neighbouring groups merge

// Per node: the group of a switch of tier >= 1 in a tiered layout (fat tree, rail), UINT32_MAX
// otherwise; groups are numbered tier by tier, left to right. `groupName` gets one name per group
// ("SLG01-01 … SLG01-16": its first and last label).
std::vector<std::uint32_t> switchGroups(const Fabric& fabric, const FabricLayout& layout, std::vector<std::string>& groupName);

// The bundles of `edges` (edges between switch points of different tiers and groups). Two tiers
// with more than kMaxBands group pairs (k = 48: 48 pods x 24 core planes) have their groups merged
// f at a time along both rows, f the smallest whole number that brings them under it.
LinkBundles bundleEdges(const FabricLayout& layout, const std::vector<DrawEdge>& edges);

// Per bundle: 1 when drawn as a band in a view `widthPx` wide at screen x = ox + sx * world x, rows
// `rowPx` apart, lines `thick` px: when its tiers' edges are more than kBundleDensity per px of the
// fabric's drawn width, or their ink at mid-height covers more than kBundleInk of the view's
// width (a line of t px crossing a row at angle a covers t / sin(a) of it: zooming in, which
// stretches only x, lays long links flat until they cover the view). A bundle of one edge never is.
// `edges`: the list the bundles were made from.
[[nodiscard]] std::vector<char> chooseBands(const LinkBundles& bundles, const std::vector<DrawEdge>& edges, const FabricLayout& layout,
                                            double sx, double ox, double widthPx, double rowPx, int thick);

// The band's width in px: 3 px for one link up to 15 px for the largest bundle, by link count.
[[nodiscard]] int bandWidth(const LinkBundle& bundle, std::uint32_t maxLinks);

} // namespace fabscope
