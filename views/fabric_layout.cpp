#include "views/fabric_layout.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <string_view>

namespace fabscope {
namespace {

// "leaf2" < "leaf10": compare digit runs by value.
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
            std::size_t i2 = i, j2 = j;
            while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
            while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
            const std::string_view na = std::string_view(a).substr(i, i2 - i), nb = std::string_view(b).substr(j, j2 - j);
            const auto ta = na.find_first_not_of('0'), tb = nb.find_first_not_of('0');
            const std::string_view sa = ta == std::string_view::npos ? "" : na.substr(ta);
            const std::string_view sb = tb == std::string_view::npos ? "" : nb.substr(tb);
            if (sa.size() != sb.size()) return sa.size() < sb.size();
            if (sa != sb) return sa < sb;
            i = i2, j = j2;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i, ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

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

} // namespace

FabricLayout layoutFatTree(const Fabric& f, const std::vector<int>& tiers) {
    FabricLayout L;
    const std::size_t n = f.nodes.size();
    L.nodeCount = n;
    for (int t : tiers) L.maxTier = std::max(L.maxTier, t);
    std::vector<std::vector<std::uint32_t>> adj(n);
    for (const Link& l : f.links) {
        const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    auto name = [&](std::uint32_t i) -> const std::string& {
        return f.nodes[i].description.empty() ? f.nodes[i].guid : f.nodes[i].description;
    };
    L.x.assign(n, 0);
    L.tier.assign(tiers.begin(), tiers.end());
    L.groupOfHost.assign(n, UINT32_MAX);

    // Leaves in name order; each leaf's hosts under it (a host on several leaves: its first).
    std::vector<std::uint32_t> leaves;
    for (std::uint32_t i = 0; i < n; ++i)
        if (tiers[i] == 1) leaves.push_back(i);
    std::sort(leaves.begin(), leaves.end(), [&](auto a, auto b) { return naturalLess(name(a), name(b)); });
    std::vector<std::vector<std::uint32_t>> hostsOf(n);
    std::vector<bool> placed(n, false);
    for (auto leaf : leaves)
        for (auto h : adj[leaf])
            if (tiers[h] == 0 && !placed[h]) {
                placed[h] = true;
                hostsOf[leaf].push_back(h);
            }
    double cursor = 0;
    constexpr double kGap = 1.5;
    for (auto leaf : leaves) {
        auto& hosts = hostsOf[leaf];
        std::sort(hosts.begin(), hosts.end(), [&](auto a, auto b) { return naturalLess(name(a), name(b)); });
        const double begin = cursor;
        for (auto h : hosts) L.x[h] = cursor++ + 0.5;
        if (hosts.empty()) cursor += 1;
        L.x[leaf] = (begin + cursor) / 2;
        if (!hosts.empty()) {
            const auto g = static_cast<std::uint32_t>(L.x.size());
            L.x.push_back(L.x[leaf]);
            L.tier.push_back(0);
            L.groupLeaf.push_back(leaf);
            L.groupSize.push_back(static_cast<std::uint32_t>(hosts.size()));
            for (auto h : hosts) L.groupOfHost[h] = g;
        }
        cursor += kGap;
    }
    // Hosts on no leaf (host-to-host links, lone HCAs with a tier) go to the right.
    for (std::uint32_t i = 0; i < n; ++i)
        if (tiers[i] == 0 && !placed[i]) L.x[i] = cursor++ + 0.5;
    L.width = std::max(1.0, cursor);

    // Higher tiers: ordered by the mean x of their neighbours one tier below, spread evenly.
    for (int t = 2; t <= L.maxTier; ++t) {
        std::vector<std::pair<double, std::uint32_t>> order;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (tiers[i] != t) continue;
            double sum = 0;
            int cnt = 0;
            for (auto j : adj[i])
                if (tiers[j] == t - 1) sum += L.x[j], ++cnt;
            order.emplace_back(cnt ? sum / cnt : L.width / 2, i);
        }
        std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : naturalLess(name(a.second), name(b.second));
        });
        for (std::size_t k = 0; k < order.size(); ++k)
            L.x[order[k].second] = L.width * (static_cast<double>(k) + 0.5) / static_cast<double>(order.size());
    }

    std::vector<std::uint32_t> unfolded(n), folded(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        unfolded[i] = tiers[i] >= 0 ? i : UINT32_MAX;
        folded[i] = tiers[i] < 0 ? UINT32_MAX : (L.groupOfHost[i] != UINT32_MAX ? L.groupOfHost[i] : i);
    }
    buildEdges(f, unfolded, L.edgesUnfolded, L.edgeMembers, L.edgeOfLinkUnfolded, L.tier);
    buildEdges(f, folded, L.edgesFolded, L.edgeMembers, L.edgeOfLinkFolded, L.tier);
    return L;
}

} // namespace fabscope
