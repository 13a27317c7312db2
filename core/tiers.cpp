#include "core/tiers.h"

#include <algorithm>
#include <deque>
#include <iterator>

namespace fabscope {

std::vector<int> computeTiers(const Fabric& f) {
    std::vector<std::vector<std::uint32_t>> adj(f.nodes.size());
    for (const auto& l : f.links) {
        const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
        if (a == b) continue;
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    std::vector<int> tier(f.nodes.size(), -1);
    std::deque<std::uint32_t> queue;
    // A switch's internal aggregation node is drawn at tier 0 but is no host: a spine holding
    // one must not become a leaf.
    const auto aggregation = findAggregationNodes(f);
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (f.nodes[i].type != NodeType::Switch) {
            tier[i] = 0;
            if (!aggregation[i]) queue.push_back(i);
        }
    // Breadth-first from all hosts at once: a switch's tier is its distance to the nearest host.
    while (!queue.empty()) {
        const auto n = queue.front();
        queue.pop_front();
        for (auto m : adj[n]) {
            if (tier[m] != -1 || f.nodes[m].type != NodeType::Switch) continue;
            tier[m] = tier[n] + 1;
            queue.push_back(m);
        }
    }
    // Leaves without hosts: every switch neighbour a spine (tier 2), and some leaf with hosts
    // reaches all of those spines (the spines' leaf sets intersect). A core links to spines of
    // several pods, whose leaves are apart. Such a switch links to tier 2 only, so moving it leaves
    // every other distance as it was. Moved after the scan: only leaves with hosts vouch.
    std::vector<std::uint32_t> hostlessLeaves;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i) {
        if (f.nodes[i].type != NodeType::Switch || tier[i] < 3) continue;
        std::vector<std::uint32_t> common;  // leaves with hosts under every spine seen so far
        bool first = true, leafLike = true;
        for (auto s : adj[i]) {
            if (f.nodes[s].type != NodeType::Switch || tier[s] != 2) {
                leafLike = false;
                break;
            }
            std::vector<std::uint32_t> under;
            for (auto l : adj[s])
                if (tier[l] == 1) under.push_back(l);
            std::sort(under.begin(), under.end());
            under.erase(std::unique(under.begin(), under.end()), under.end());
            if (first) common = std::move(under);
            else {
                std::vector<std::uint32_t> both;
                std::set_intersection(common.begin(), common.end(), under.begin(), under.end(), std::back_inserter(both));
                common = std::move(both);
            }
            first = false;
            if (common.empty()) break;
        }
        if (leafLike && !first && !common.empty()) hostlessLeaves.push_back(i);
    }
    for (auto i : hostlessLeaves) tier[i] = 1;
    // Switch-only fabrics (no hosts seen): put every switch on tier 1.
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (tier[i] == -1 && f.nodes[i].type == NodeType::Switch) tier[i] = 1;
    return tier;
}

} // namespace fabscope
