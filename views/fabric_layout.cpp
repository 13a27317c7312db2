#include "views/fabric_layout.h"

#include "core/natural_order.h"
#include "views/label_trim.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace fabscope {
namespace {

constexpr double kGap = 1.5;      // between leaves' host blocks (host slots)
constexpr double kBandGap = 5.0;  // between rails or dragonfly groups

void buildEdges(const Fabric& f, const std::vector<std::uint32_t>& pointOfNode, std::vector<DrawEdge>& edges,
                std::vector<std::uint32_t>& members, std::vector<std::uint32_t>& edgeOfLink, const std::vector<int>& tier) {
    // Group links by their (unordered) pair of drawn points; lower tiers first so upper links
    // are painted over the dense host fan-out.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> byPair;
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        std::uint32_t a = pointOfNode[f.port(f.links[i].a).node.value()], b = pointOfNode[f.port(f.links[i].b).node.value()];
        if (a == UINT32_MAX || b == UINT32_MAX || a == b) continue;
        if (a > b) std::swap(a, b);
        byPair[{a, b}].push_back(static_cast<std::uint32_t>(i));
    }
    std::vector<std::pair<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>>> sorted(byPair.begin(), byPair.end());
    std::stable_sort(sorted.begin(), sorted.end(), [&](const auto& x, const auto& y) {
        return std::min(tier[x.first.first], tier[x.first.second]) < std::min(tier[y.first.first], tier[y.first.second]);
    });
    edgeOfLink.assign(f.links.size(), UINT32_MAX);
    for (const auto& [pair, links] : sorted) {
        DrawEdge e{pair.first, pair.second, static_cast<std::uint32_t>(members.size()), static_cast<std::uint32_t>(links.size())};
        for (auto l : links) {
            edgeOfLink[l] = static_cast<std::uint32_t>(edges.size());
            members.push_back(l);
        }
        edges.push_back(e);
    }
}

std::vector<std::vector<std::uint32_t>> adjacency(const Fabric& f) {
    std::vector<std::vector<std::uint32_t>> adj(f.nodes.size());
    for (const Link& l : f.links) {
        const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
        adj[a].push_back(static_cast<std::uint32_t>(b));
        adj[b].push_back(static_cast<std::uint32_t>(a));
    }
    return adj;
}

// Shared by the layouts: places a switch's hosts (the tier-0 neighbours not placed yet) in a
// block from `cursor`, the switch above its middle, and records the block as a foldable group.
class HostBlocks {
public:
    HostBlocks(const Fabric& f, const std::vector<int>& tiers, FabricLayout& L)
        : f_(f), tiers_(tiers), L_(L), adj_(adjacency(f)), placed_(f.nodes.size(), false) {
        L.nodeCount = f.nodes.size();
        L.x.assign(L.nodeCount, 0);
        L.y.assign(L.nodeCount, 0);
        L.tier.assign(tiers.begin(), tiers.end());
        L.groupOfHost.assign(L.nodeCount, UINT32_MAX);
    }
    [[nodiscard]] const std::vector<std::uint32_t>& neighbours(std::uint32_t n) const { return adj_[n]; }
    [[nodiscard]] const std::string& name(std::uint32_t i) const {
        return f_.nodes[i].description.empty() ? f_.nodes[i].guid : f_.nodes[i].description;
    }
    [[nodiscard]] bool nameLess(std::uint32_t a, std::uint32_t b) const { return naturalLess(name(a), name(b)); }

    // Returns the hosts placed.
    std::vector<std::uint32_t> place(std::uint32_t sw, double& cursor) {
        std::vector<std::uint32_t> hosts;
        for (auto h : adj_[sw])
            if (tiers_[h] == 0 && !placed_[h]) {
                placed_[h] = true;
                hosts.push_back(h);
            }
        std::sort(hosts.begin(), hosts.end(), [&](auto a, auto b) { return nameLess(a, b); });
        const double begin = cursor;
        for (auto h : hosts) L_.x[h] = cursor++ + 0.5;
        if (hosts.empty()) cursor += 1;
        L_.x[sw] = (begin + cursor) / 2;
        if (!hosts.empty()) {
            const auto g = static_cast<std::uint32_t>(L_.x.size());
            L_.x.push_back(L_.x[sw]);
            L_.y.push_back(0);
            L_.tier.push_back(0);
            L_.groupLeaf.push_back(sw);
            L_.groupSize.push_back(static_cast<std::uint32_t>(hosts.size()));
            for (auto h : hosts) L_.groupOfHost[h] = g;
        }
        cursor += kGap;
        return hosts;
    }
    // Hosts on no switch (host-to-host links, lone HCAs with a tier) go to the right.
    void placeRest(double& cursor) {
        for (std::uint32_t i = 0; i < L_.nodeCount; ++i)
            if (tiers_[i] == 0 && !placed_[i]) L_.x[i] = cursor++ + 0.5;
        L_.width = std::max(1.0, cursor);
    }
    void buildEdges() {
        const std::size_t n = L_.nodeCount;
        std::vector<std::uint32_t> unfolded(n), folded(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            unfolded[i] = L_.tier[i] >= 0 ? i : UINT32_MAX;
            folded[i] = L_.tier[i] < 0 ? UINT32_MAX : (L_.groupOfHost[i] != UINT32_MAX ? L_.groupOfHost[i] : i);
        }
        fabscope::buildEdges(f_, unfolded, L_.edgesUnfolded, L_.edgeMembers, L_.edgeOfLinkUnfolded, L_.tier);
        fabscope::buildEdges(f_, folded, L_.edgesFolded, L_.edgeMembers, L_.edgeOfLinkFolded, L_.tier);
    }

private:
    const Fabric& f_;
    const std::vector<int>& tiers_;
    FabricLayout& L_;
    std::vector<std::vector<std::uint32_t>> adj_;
    std::vector<bool> placed_;
};

// FabricLayout::label, shortLabel and longestLabel, row by row.
void labelRows(const Fabric& f, FabricLayout& L) {
    const std::size_t n = std::min(f.nodes.size(), L.nodeCount);
    L.label.assign(n, {});
    L.shortLabel.assign(n, {});
    L.longestLabel.assign(static_cast<std::size_t>(std::max(0, L.maxTier) + 1), 0);
    std::vector<std::vector<std::uint32_t>> rows(L.longestLabel.size());
    for (std::uint32_t i = 0; i < n; ++i) {
        const Node& node = f.nodes[i];
        std::string name = node.description.empty() ? node.guid : node.description;
        if (L.tier[i] == 0) name = name.substr(0, name.find(' '));  // a host: its host name ("dgx021 mlx5_0")
        L.label[i] = std::move(name);
        if (L.tier[i] >= 0 && L.tier[i] <= L.maxTier) rows[static_cast<std::size_t>(L.tier[i])].push_back(i);
    }
    for (std::size_t t = 0; t < rows.size(); ++t) {
        std::vector<std::string> names;
        names.reserve(rows[t].size());
        for (auto i : rows[t]) names.push_back(L.label[i]);
        auto words = trimCommonAffixes(names, LabelCut::Words);
        auto parts = trimCommonAffixes(words, LabelCut::Parts);
        for (std::size_t k = 0; k < rows[t].size(); ++k) {
            const auto i = rows[t][k];
            L.label[i] = std::move(words[k]);
            L.shortLabel[i] = std::move(parts[k]);
            if (L.label[i].size() > L.label[L.longestLabel[t]].size() || k == 0) L.longestLabel[t] = i;
        }
    }
}

// Fat tree and rails: leaves with their hosts, then higher tiers by barycentre. With rails, leaves
// are ordered by rail and each rail becomes a band.
FabricLayout layoutTiers(const Fabric& f, const std::vector<int>& tiers, const NodeGroups* rails) {
    FabricLayout L;
    L.shape = rails ? FabricShape::Rail : FabricShape::FatTree;
    for (int t : tiers) L.maxTier = std::max(L.maxTier, t);
    HostBlocks blocks(f, tiers, L);
    const std::size_t n = f.nodes.size();
    auto railOf = [&](std::uint32_t i) { return rails ? rails->of[i] : -1; };

    std::vector<std::uint32_t> leaves;
    for (std::uint32_t i = 0; i < n; ++i)
        if (tiers[i] == 1) leaves.push_back(i);
    std::sort(leaves.begin(), leaves.end(), [&](auto a, auto b) {
        // Leaves of no rail (-1) after the rails.
        const unsigned ra = static_cast<unsigned>(railOf(a)), rb = static_cast<unsigned>(railOf(b));
        return ra != rb ? ra < rb : blocks.nameLess(a, b);
    });
    double cursor = 0;
    for (std::size_t k = 0; k < leaves.size(); ++k) {
        const auto leaf = leaves[k];
        if (rails && (k == 0 || railOf(leaf) != railOf(leaves[k - 1]))) {
            if (k > 0) cursor += kBandGap;
            LayoutBand band;
            band.x0 = cursor;
            band.label = railOf(leaf) >= 0 ? "rail " + std::to_string(railOf(leaf)) : "no rail";
            L.bands.push_back(std::move(band));
        }
        const auto hosts = blocks.place(leaf, cursor);
        if (rails) {
            auto& band = L.bands.back();
            band.x1 = cursor - kGap;
            band.nodes.push_back(leaf);
            band.nodes.insert(band.nodes.end(), hosts.begin(), hosts.end());
        }
    }
    blocks.placeRest(cursor);

    // Higher tiers: ordered by the mean x of their neighbours one tier below, spread evenly.
    for (int t = 2; t <= L.maxTier; ++t) {
        std::vector<std::pair<double, std::uint32_t>> order;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (tiers[i] != t) continue;
            double sum = 0;
            int cnt = 0;
            for (auto j : blocks.neighbours(i))
                if (tiers[j] == t - 1) sum += L.x[j], ++cnt;
            order.emplace_back(cnt ? sum / cnt : L.width / 2, i);
        }
        std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : blocks.nameLess(a.second, b.second);
        });
        for (std::size_t k = 0; k < order.size(); ++k)
            L.x[order[k].second] = L.width * (static_cast<double>(k) + 0.5) / static_cast<double>(order.size());
    }
    for (std::uint32_t i = 0; i < n; ++i) L.y[i] = std::max(0, tiers[i]);
    L.top = std::max(1, L.maxTier);
    blocks.buildEdges();
    labelRows(f, L);
    L.switchGroup = switchGroups(f, L, L.groupName);
    L.bundlesFolded = bundleEdges(L, L.edgesFolded);
    L.bundlesUnfolded = bundleEdges(L, L.edgesUnfolded);
    return L;
}

} // namespace

FabricLayout layoutFatTree(const Fabric& f, const std::vector<int>& tiers) { return layoutTiers(f, tiers, nullptr); }

FabricLayout layoutRails(const Fabric& f, const std::vector<int>& tiers, const NodeGroups& rails) {
    return layoutTiers(f, tiers, &rails);
}

FabricLayout layoutDragonfly(const Fabric& f, const std::vector<int>& tiers, const NodeGroups& groups) {
    FabricLayout L;
    L.shape = FabricShape::Dragonfly;
    const std::size_t n = f.nodes.size();
    // Every switch on one level: a dragonfly has no tiers, only groups.
    std::vector<int> level(n, -1);
    for (std::uint32_t i = 0; i < n; ++i)
        level[i] = tiers[i] < 0 ? -1 : (f.nodes[i].type == NodeType::Switch ? 1 : 0);
    L.maxTier = 1;
    HostBlocks blocks(f, level, L);
    std::vector<std::vector<std::uint32_t>> members(static_cast<std::size_t>(groups.count) + 1);  // last: no group
    for (std::uint32_t i = 0; i < n; ++i)
        if (level[i] == 1) members[groups.of[i] >= 0 ? static_cast<std::size_t>(groups.of[i]) : members.size() - 1].push_back(i);
    constexpr double kArch = 0.8;  // rows an arch rises above the switch row
    double cursor = 0;
    for (std::size_t g = 0; g < members.size(); ++g) {
        auto& sw = members[g];
        if (sw.empty()) continue;
        std::sort(sw.begin(), sw.end(), [&](auto a, auto b) { return blocks.nameLess(a, b); });
        if (!L.bands.empty()) cursor += kBandGap;
        LayoutBand band;
        band.x0 = cursor;
        band.label = g + 1 < members.size() ? "group " + std::to_string(g + 1) : "no group";
        for (std::size_t k = 0; k < sw.size(); ++k) {
            const auto hosts = blocks.place(sw[k], cursor);
            // On a quarter arch rising left to right: the all-to-all local links are chords rather
            // than one flat line, and no two switches of a group share a height, so global links
            // between groups do not lie on top of each other.
            L.y[sw[k]] = 1 + kArch * std::sin(std::numbers::pi / 2 * (static_cast<double>(k) + 0.5) / static_cast<double>(sw.size()));
            band.nodes.push_back(sw[k]);
            band.nodes.insert(band.nodes.end(), hosts.begin(), hosts.end());
        }
        band.x1 = cursor - kGap;
        L.bands.push_back(std::move(band));
    }
    blocks.placeRest(cursor);
    L.top = 1 + kArch;
    blocks.buildEdges();
    labelRows(f, L);
    return L;
}

FabricLayout layoutFor(const Fabric& f, const std::vector<int>& tiers, const ShapeAnalysis& detected, LayoutKind kind) {
    FabricShape shape = detected.shape;
    if (kind == LayoutKind::FatTree) shape = FabricShape::FatTree;
    if (kind == LayoutKind::Dragonfly) shape = FabricShape::Dragonfly;
    if (kind == LayoutKind::Rail) shape = FabricShape::Rail;
    switch (shape) {
    case FabricShape::Dragonfly:
        return layoutDragonfly(f, tiers, detected.shape == FabricShape::Dragonfly ? detected.groups : findDragonflyGroups(f));
    case FabricShape::Rail: return layoutRails(f, tiers, detected.shape == FabricShape::Rail ? detected.rails : findRails(f));
    case FabricShape::FatTree: break;
    }
    return layoutFatTree(f, tiers);
}

} // namespace fabscope
