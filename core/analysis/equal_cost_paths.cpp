#include "core/analysis/equal_cost_paths.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/visitors.hpp>

#include <functional>
#include <limits>

namespace fabscope {
namespace {

struct EdgeProps {
    std::uint32_t link = 0;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, EdgeProps>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

// Switches, plus the two end points: no route may cross a host.
struct TransitFilter {
    const Fabric* fabric = nullptr;
    Vertex src = 0, dst = 0;
    bool operator()(Vertex v) const {
        return v == src || v == dst || fabric->nodes[v].type == NodeType::Switch;
    }
};

} // namespace

struct EqualCostRouter::Impl {
    Graph g;
};

EqualCostRouter::EqualCostRouter(const Fabric& f) : fabric_(f), impl_(std::make_unique<Impl>()) {
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
    const TransitFilter keep{&f, src, dst};
    const boost::filtered_graph<const Graph, boost::keep_all, TransitFilter> fg(g, boost::keep_all(), keep);

    // Hop distance of every node to dst; a route steps only to nodes one hop closer.
    constexpr auto kFar = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> dist(f.nodes.size(), kFar);
    dist[dst] = 0;
    boost::breadth_first_search(
        fg, dst, boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge()))));
    if (dist[src] == kFar) return routes;

    Route current;
    std::function<void(Vertex)> walk = [&](Vertex u) {
        if (routes.size() >= maxRoutes) return;
        if (u == dst) {
            routes.push_back(current);
            return;
        }
        for (auto [e, end] = boost::out_edges(u, fg); e != end; ++e) {
            const Vertex v = boost::target(*e, fg);
            if (dist[v] == kFar || dist[v] + 1 != dist[u]) continue;
            const Link& l = f.links[fg[*e].link];
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
