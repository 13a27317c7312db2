#include "views/link_bundles.h"

#include "views/fabric_layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>

namespace fabscope {
namespace {

constexpr std::uint32_t kNoGroup = UINT32_MAX;

std::uint32_t findRoot(std::vector<std::uint32_t>& parent, std::uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

} // namespace

std::vector<std::uint32_t> switchGroups(const Fabric& f, const FabricLayout& L, std::vector<std::string>& groupName) {
    const std::size_t n = L.nodeCount;
    std::vector<std::uint32_t> group(n, kNoGroup);
    groupName.clear();
    if (L.shape == FabricShape::Dragonfly) return group;
    std::vector<std::uint32_t> parent(n);
    for (int t = 1; t <= L.maxTier; ++t) {
        // Tier t's pods: joined by the links to the tier below; the leaves by theirs to the spines.
        const int upper = t == 1 ? 2 : t;
        std::iota(parent.begin(), parent.end(), 0u);
        for (const Link& l : f.links) {
            const auto a = static_cast<std::uint32_t>(f.port(l.a).node.value()), b = static_cast<std::uint32_t>(f.port(l.b).node.value());
            if (a >= n || b >= n) continue;
            const int ta = L.tier[a], tb = L.tier[b];
            if (std::min(ta, tb) == upper - 1 && std::max(ta, tb) == upper) parent[findRoot(parent, a)] = findRoot(parent, b);
        }
        std::map<std::uint32_t, std::vector<std::uint32_t>> pods;
        for (std::uint32_t i = 0; i < n; ++i)
            if (L.tier[i] == t && f.nodes[i].type == NodeType::Switch) pods[findRoot(parent, i)].push_back(i);
        std::vector<std::vector<std::uint32_t>> ordered;
        for (auto& [root, members] : pods) {
            std::sort(members.begin(), members.end(), [&](auto a, auto b) { return L.x[a] < L.x[b]; });
            ordered.push_back(std::move(members));
        }
        std::sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) { return L.x[a.front()] < L.x[b.front()]; });
        for (const auto& members : ordered) {
            // A large pod in runs of near-equal size along the row.
            const std::size_t runs = (members.size() + kMaxGroup - 1) / kMaxGroup;
            for (std::size_t r = 0; r < runs; ++r) {
                const std::size_t b = members.size() * r / runs, e = members.size() * (r + 1) / runs;
                const auto id = static_cast<std::uint32_t>(groupName.size());
                for (std::size_t k = b; k < e; ++k) group[members[k]] = id;
                auto name = [&](std::uint32_t i) { return i < L.label.size() && !L.label[i].empty() ? L.label[i] : f.nodes[i].description; };
                groupName.push_back(e - b > 1 ? name(members[b]) + " \u2026 " + name(members[e - 1]) : name(members[b]));
            }
        }
    }
    return group;
}

LinkBundles bundleEdges(const FabricLayout& L, const std::vector<DrawEdge>& edges) {
    LinkBundles out;
    out.bundleOfEdge.assign(edges.size(), UINT32_MAX);
    const auto tiers = static_cast<std::size_t>(std::max(0, L.maxTier)) + 1;
    out.edgesAbove.assign(tiers, 0);
    if (L.switchGroup.size() != L.nodeCount) return out;
    // Groups are numbered tier by tier, left to right: a group's rank in its row.
    std::vector<std::uint32_t> firstGroup(tiers, UINT32_MAX);
    for (std::uint32_t i = 0; i < L.nodeCount; ++i)
        if (L.switchGroup[i] != kNoGroup) firstGroup[static_cast<std::size_t>(L.tier[i])] = std::min(firstGroup[static_cast<std::size_t>(L.tier[i])], L.switchGroup[i]);
    struct Ends {
        std::uint32_t lo, hi, gLo, gHi;
        std::size_t tLo;
    };
    std::vector<Ends> ends(edges.size(), Ends{0, 0, kNoGroup, kNoGroup, 0});
    std::vector<std::map<std::pair<std::uint32_t, std::uint32_t>, int>> pairs(tiers);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        auto lo = edges[e].from, hi = edges[e].to;
        if (L.isGroup(lo) || L.isGroup(hi)) continue;
        if (L.tier[lo] > L.tier[hi]) std::swap(lo, hi);
        const auto gLo = L.switchGroup[lo], gHi = L.switchGroup[hi];
        if (gLo == kNoGroup || gHi == kNoGroup || L.tier[lo] == L.tier[hi]) continue;
        ends[e] = {lo, hi, gLo, gHi, static_cast<std::size_t>(L.tier[lo])};
        pairs[ends[e].tLo][{gLo, gHi}] = 1;
    }
    std::vector<std::uint32_t> merge(tiers, 1);
    for (std::size_t t = 0; t < tiers; ++t)
        while (static_cast<double>(pairs[t].size()) / (merge[t] * merge[t]) > kMaxBands) ++merge[t];
    auto super = [&](std::uint32_t g, int tier, std::uint32_t f) {
        const auto first = firstGroup[static_cast<std::size_t>(tier)];
        return first + (g - first) / f;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> index;
    std::vector<std::array<std::uint32_t, 4>> span;  // per bundle: first and last group at each end
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const Ends& x = ends[e];
        if (x.gLo == kNoGroup) continue;
        const auto f = merge[x.tLo];
        auto [it, added] = index.try_emplace({super(x.gLo, L.tier[x.lo], f), super(x.gHi, L.tier[x.hi], f)}, static_cast<std::uint32_t>(out.bundles.size()));
        if (added) {
            LinkBundle b;
            b.tierLow = L.tier[x.lo], b.tierHigh = L.tier[x.hi];
            b.yLow = L.y[x.lo], b.yHigh = L.y[x.hi];
            out.bundles.push_back(std::move(b));
            span.push_back({x.gLo, x.gLo, x.gHi, x.gHi});
        }
        LinkBundle& b = out.bundles[it->second];
        auto& s = span[it->second];
        s = {std::min(s[0], x.gLo), std::max(s[1], x.gLo), std::min(s[2], x.gHi), std::max(s[3], x.gHi)};
        b.xLow += L.x[x.lo], b.xHigh += L.x[x.hi];  // summed here, averaged below
        b.xLowMin = std::min(b.xLowMin, L.x[x.lo]), b.xLowMax = std::max(b.xLowMax, L.x[x.lo]);
        b.xHighMin = std::min(b.xHighMin, L.x[x.hi]), b.xHighMax = std::max(b.xHighMax, L.x[x.hi]);
        b.links += edges[e].members;
        b.edges.push_back(static_cast<std::uint32_t>(e));
        out.bundleOfEdge[e] = it->second;
        ++out.edgesAbove[x.tLo];
    }
    // "first … last" of a run of groups, from the groups' own "first … last" names.
    auto name = [&](std::uint32_t g0, std::uint32_t g1) {
        if (g1 >= L.groupName.size()) return std::string();
        const std::string sep = " \u2026 ";
        const std::string& a = L.groupName[g0];
        const std::string& b = L.groupName[g1];
        const auto cut = b.find(sep);
        if (g0 == g1) return a;
        return a.substr(0, a.find(sep)) + sep + (cut == std::string::npos ? b : b.substr(cut + sep.size()));
    };
    for (std::size_t i = 0; i < out.bundles.size(); ++i) {
        auto& b = out.bundles[i];
        b.xLow /= static_cast<double>(b.edges.size());
        b.xHigh /= static_cast<double>(b.edges.size());
        b.nameLow = name(span[i][0], span[i][1]);
        b.nameHigh = name(span[i][2], span[i][3]);
        out.maxLinks = std::max(out.maxLinks, b.links);
    }
    return out;
}

std::vector<char> chooseBands(const LinkBundles& bundles, const std::vector<DrawEdge>& edges, const FabricLayout& L, double sx, double ox,
                              double widthPx, double rowPx, int thick) {
    std::vector<char> band(bundles.bundles.size(), 0);
    std::vector<double> ink(bundles.edgesAbove.size(), 0);
    for (const auto& b : bundles.bundles)
        for (auto e : b.edges) {
            const double xa = ox + sx * L.x[edges[e].from], xb = ox + sx * L.x[edges[e].to];
            const double mid = (xa + xb) / 2, dx = xb - xa, dy = std::max(1.0, rowPx * std::abs(L.y[edges[e].to] - L.y[edges[e].from]));
            if (mid >= 0 && mid < widthPx) ink[static_cast<std::size_t>(b.tierLow)] += thick * std::hypot(dx, dy) / dy;
        }
    const double drawnWidth = std::max(1.0, L.width * sx);
    for (std::size_t i = 0; i < band.size(); ++i) {
        const auto t = static_cast<std::size_t>(bundles.bundles[i].tierLow);
        band[i] = bundles.bundles[i].edges.size() >= 2 &&
                  (bundles.edgesAbove[t] / drawnWidth > kBundleDensity || ink[t] / std::max(1.0, widthPx) > kBundleInk);
    }
    return band;
}

int bandWidth(const LinkBundle& b, std::uint32_t maxLinks) {
    if (maxLinks == 0) return 3;
    return 3 + static_cast<int>(std::lround(12.0 * b.links / maxLinks));
}

} // namespace fabscope
