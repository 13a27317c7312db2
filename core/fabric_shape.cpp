#include "core/fabric_shape.h"

#include "core/natural_order.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

namespace fabscope {
namespace {

bool isSwitch(const Fabric& f, std::uint32_t n) { return f.nodes[n].type == NodeType::Switch; }

// Distinct neighbours of every node, sorted (parallel links count once).
std::vector<std::vector<std::uint32_t>> neighbours(const Fabric& f) {
    std::vector<std::vector<std::uint32_t>> adj(f.nodes.size());
    for (const Link& l : f.links) {
        const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
        if (a == b) continue;
        adj[a].push_back(static_cast<std::uint32_t>(b));
        adj[b].push_back(static_cast<std::uint32_t>(a));
    }
    for (auto& v : adj) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    }
    return adj;
}

std::uint32_t findRoot(std::vector<std::uint32_t>& parent, std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

} // namespace

std::string_view shapeName(FabricShape s) {
    switch (s) {
    case FabricShape::Dragonfly: return "dragonfly";
    case FabricShape::Rail: return "rail";
    case FabricShape::FatTree: break;
    }
    return "fat-tree";
}

NodeGroups findDragonflyGroups(const Fabric& f) {
    const std::size_t n = f.nodes.size();
    const auto adj = neighbours(f);
    std::vector<std::vector<std::uint32_t>> sw(n);  // switch neighbours of switches
    for (std::uint32_t i = 0; i < n; ++i)
        if (isSwitch(f, i))
            for (auto j : adj[i])
                if (isSwitch(f, j)) sw[i].push_back(j);
    // Common switch neighbours of each switch-switch edge: an all-to-all group of a switches gives
    // each local edge a - 2 of them; a global edge has few (only other globals between the pair).
    struct Edge {
        std::uint32_t a, b;
        std::size_t common;
    };
    std::vector<Edge> edges;
    std::vector<std::size_t> best(n, 0);
    std::vector<std::uint32_t> shared;
    for (std::uint32_t i = 0; i < n; ++i)
        for (auto j : sw[i]) {
            if (j <= i) continue;
            shared.clear();
            std::set_intersection(sw[i].begin(), sw[i].end(), sw[j].begin(), sw[j].end(), std::back_inserter(shared));
            edges.push_back({i, j, shared.size()});
            best[i] = std::max(best[i], shared.size());
            best[j] = std::max(best[j], shared.size());
        }
    // Local: at least half as many common neighbours as the ends' densest edges.
    std::vector<std::uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0u);
    for (const Edge& e : edges)
        if (e.common > 0 && 2 * e.common >= std::min(best[e.a], best[e.b])) parent[findRoot(parent, e.a)] = findRoot(parent, e.b);
    std::vector<std::size_t> size(n, 0);
    for (std::uint32_t i = 0; i < n; ++i)
        if (isSwitch(f, i)) ++size[findRoot(parent, i)];
    // Groups numbered by their first switch in name order, so the numbering is stable.
    std::vector<std::uint32_t> order;
    for (std::uint32_t i = 0; i < n; ++i)
        if (isSwitch(f, i)) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](auto x, auto y) { return naturalLess(f.nodes[x].description, f.nodes[y].description); });
    NodeGroups g;
    g.of.assign(n, -1);
    std::map<std::uint32_t, int> idOfRoot;
    for (auto i : order) {
        const auto r = findRoot(parent, i);
        if (size[r] < 2) continue;
        auto [it, fresh] = idOfRoot.emplace(r, g.count);
        if (fresh) ++g.count;
        g.of[i] = it->second;
    }
    // Hosts take their switch's group.
    for (std::uint32_t i = 0; i < n; ++i)
        if (!isSwitch(f, i))
            for (auto j : adj[i])
                if (g.of[j] >= 0) {
                    g.of[i] = g.of[j];
                    break;
                }
    return g;
}

NodeGroups findRails(const Fabric& f) {
    const std::size_t n = f.nodes.size();
    const auto adj = neighbours(f);
    NodeGroups out;
    out.of.assign(n, -1);
    // NICs by host: the first word of the description.
    std::map<std::string, std::vector<std::uint32_t>> hosts;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (isSwitch(f, i)) continue;
        const std::string& d = f.nodes[i].description;
        const auto space = d.find(' ');
        if (space == std::string::npos || space == 0) continue;
        hosts[d.substr(0, space)].push_back(i);
    }
    auto leafOf = [&](std::uint32_t nic) -> int {
        for (auto j : adj[nic])
            if (isSwitch(f, j)) return static_cast<int>(j);
        return -1;
    };
    std::vector<int> rank(n, -1);
    std::size_t multi = 0, spread = 0;
    for (auto& [host, nics] : hosts) {
        if (nics.size() < 2) continue;
        ++multi;
        std::sort(nics.begin(), nics.end(), [&](auto a, auto b) { return naturalLess(f.nodes[a].description, f.nodes[b].description); });
        std::vector<int> leaves;
        for (std::size_t k = 0; k < nics.size(); ++k) {
            rank[nics[k]] = static_cast<int>(k);
            leaves.push_back(leafOf(nics[k]));
        }
        std::sort(leaves.begin(), leaves.end());
        if (std::adjacent_find(leaves.begin(), leaves.end()) == leaves.end() && leaves.front() >= 0) ++spread;
    }
    // Rail-optimised: several multi-NIC hosts, most with every NIC on its own leaf.
    if (multi < 2 || 4 * spread < 3 * multi) return out;
    // A leaf's rail: the rank most of its NICs have; a NIC's rail: its leaf's.
    std::vector<std::map<int, int>> votes(n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (rank[i] >= 0)
            if (const int leaf = leafOf(i); leaf >= 0) ++votes[static_cast<std::size_t>(leaf)][rank[i]];
    std::size_t agree = 0, ranked = 0;
    int maxRail = -1;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (votes[i].empty()) continue;
        const auto top = std::max_element(votes[i].begin(), votes[i].end(), [](auto& a, auto& b) { return a.second < b.second; });
        out.of[i] = top->first;
        maxRail = std::max(maxRail, top->first);
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        if (isSwitch(f, i)) continue;
        const int leaf = leafOf(i);
        if (leaf < 0 || out.of[static_cast<std::size_t>(leaf)] < 0) continue;
        out.of[i] = out.of[static_cast<std::size_t>(leaf)];
        if (rank[i] >= 0) ++ranked, agree += rank[i] == out.of[i] ? 1 : 0;
    }
    if (maxRail < 1 || 4 * agree < 3 * ranked) {
        out.of.assign(n, -1);
        return out;
    }
    out.count = maxRail + 1;
    return out;
}

ShapeAnalysis analyseShape(const Fabric& f) {
    ShapeAnalysis s;
    NodeGroups groups = findDragonflyGroups(f);
    if (groups.count >= 3) {
        // Most switches in a group, and groups linked to each other by global links.
        std::size_t switches = 0, grouped = 0, global = 0;
        for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
            if (isSwitch(f, i)) ++switches, grouped += groups.of[i] >= 0 ? 1 : 0;
        for (const Link& l : f.links) {
            const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
            if (isSwitch(f, a) && isSwitch(f, b) && groups.of[a] >= 0 && groups.of[b] >= 0 && groups.of[a] != groups.of[b]) ++global;
        }
        if (10 * grouped >= 9 * switches && global >= static_cast<std::size_t>(groups.count - 1)) {
            s.shape = FabricShape::Dragonfly;
            s.groups = std::move(groups);
            return s;
        }
    }
    NodeGroups rails = findRails(f);
    if (rails.count >= 2) {
        s.shape = FabricShape::Rail;
        s.rails = std::move(rails);
    }
    return s;
}

} // namespace fabscope
