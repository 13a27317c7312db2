#include "core/analysis/equal_cost_paths.h"

#include <boost/graph/adjacency_list.hpp>

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>

namespace fabscope {
namespace {

struct EdgeProps {
    std::uint32_t link = 0;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, EdgeProps>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

} // namespace

// A job's ring pairs neighbouring ranks, whose hosts mostly share a leaf: the hop distances from
// a destination host's switches are kept for the last few destinations, so consecutive pairs walk
// without a search of the whole fabric each (a 16k-rank job on the k=48 tree: one BFS per leaf).
struct EqualCostRouter::Impl {
    static constexpr std::uint32_t kFar = std::numeric_limits<std::uint32_t>::max();
    struct Distances {
        std::vector<Vertex> key;           // 0 and the switch itself, or 1 and a host's switches
        std::vector<std::uint32_t> toDst;  // per node: hops to the destination through switches
    };
    Graph g;
    std::size_t keep = 0;  // destinations whose distances are kept
    std::mutex mutex;      // routes() is const; its kept distances are not
    std::deque<Distances> kept;  // newest last

    const std::vector<std::uint32_t>& distancesTo(const Fabric& f, Vertex dst) {
        const bool isSwitch = f.nodes[dst].type == NodeType::Switch;
        std::vector<Vertex> key{isSwitch ? 0u : 1u};
        if (isSwitch) key.push_back(dst);
        else
            for (auto [e, end] = boost::out_edges(dst, g); e != end; ++e)
                if (const Vertex v = boost::target(*e, g); f.nodes[v].type == NodeType::Switch) key.push_back(v);
        std::sort(key.begin() + 1, key.end());
        key.erase(std::unique(key.begin() + 1, key.end()), key.end());
        for (const Distances& d : kept)
            if (keep > 0 && d.key == key) return d.toDst;
        while (!kept.empty() && kept.size() >= std::max<std::size_t>(keep, 1)) kept.pop_front();  // the one in use stays
        Distances& d = kept.emplace_back(Distances{key, std::vector<std::uint32_t>(f.nodes.size(), kFar)});
        std::deque<Vertex> queue;
        for (std::size_t i = 1; i < key.size(); ++i) {
            d.toDst[key[i]] = isSwitch ? 0 : 1;
            queue.push_back(key[i]);
        }
        while (!queue.empty()) {  // breadth first, through switches only: hosts are never transit
            const Vertex u = queue.front();
            queue.pop_front();
            for (auto [e, end] = boost::out_edges(u, g); e != end; ++e)
                if (const Vertex v = boost::target(*e, g); d.toDst[v] == kFar && f.nodes[v].type == NodeType::Switch) {
                    d.toDst[v] = d.toDst[u] + 1;
                    queue.push_back(v);
                }
        }
        return d.toDst;
    }
};

EqualCostRouter::EqualCostRouter(const Fabric& f, std::size_t keptDestinations) : fabric_(f), impl_(std::make_unique<Impl>()) {
    impl_->keep = keptDestinations;
    Graph& g = impl_->g;
    g = Graph(f.nodes.size());
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const auto a = f.port(f.links[i].a).node.value(), b = f.port(f.links[i].b).node.value();
        if (a != b) boost::add_edge(a, b, EdgeProps{static_cast<std::uint32_t>(i)}, g);
    }
}

EqualCostRouter::~EqualCostRouter() = default;

std::vector<Route> EqualCostRouter::routes(NodeId srcId, NodeId dstId, std::size_t maxRoutes) const {
    const Fabric& f = fabric_;
    const Graph& g = impl_->g;
    std::vector<Route> routes;
    if (srcId == dstId || maxRoutes == 0) return routes;
    const Vertex src = srcId.value(), dst = dstId.value();
    const std::lock_guard lock(impl_->mutex);
    const std::vector<std::uint32_t>& toDst = impl_->distancesTo(f, dst);

    // Hop distance of a node to dst: 0 at dst, through switches elsewhere; a host source is one
    // hop beyond its nearest neighbour. A route steps only to nodes one hop closer.
    constexpr auto kFar = Impl::kFar;
    std::uint32_t srcDistance = f.nodes[src].type == NodeType::Switch ? toDst[src] : kFar;
    if (f.nodes[src].type != NodeType::Switch)
        for (auto [e, end] = boost::out_edges(src, g); e != end; ++e) {
            const Vertex v = boost::target(*e, g);
            const std::uint32_t d = v == dst ? 0 : f.nodes[v].type == NodeType::Switch ? toDst[v] : kFar;
            if (d != kFar) srcDistance = std::min(srcDistance, d + 1);
        }
    if (srcDistance == kFar) return routes;
    const auto distance = [&](Vertex v) {
        if (v == dst) return std::uint32_t{0};
        if (v == src) return srcDistance;
        return f.nodes[v].type == NodeType::Switch ? toDst[v] : kFar;  // another host: never transit
    };

    Route current;
    std::function<void(Vertex)> walk = [&](Vertex u) {
        if (routes.size() >= maxRoutes) return;
        if (u == dst) {
            routes.push_back(current);
            return;
        }
        const std::uint32_t here = distance(u);
        for (auto [e, end] = boost::out_edges(u, g); e != end; ++e) {
            const Vertex v = boost::target(*e, g);
            if (const std::uint32_t d = distance(v); d == kFar || d + 1 != here) continue;
            const Link& l = f.links[g[*e].link];
            const bool aIsU = f.port(l.a).node.value() == u;
            current.push_back(Hop{aIsU ? l.a : l.b, aIsU ? l.b : l.a});
            walk(v);
            current.pop_back();
        }
    };
    walk(src);
    return routes;
}

} // namespace fabscope
