#include "core/tiers.h"

#include <deque>

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
    // Switch-only fabrics (no hosts seen): put every switch on tier 1.
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (tier[i] == -1 && f.nodes[i].type == NodeType::Switch) tier[i] = 1;
    return tier;
}

} // namespace fabscope
