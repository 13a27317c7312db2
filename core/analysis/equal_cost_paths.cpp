#include "core/analysis/equal_cost_paths.h"

#include <boost/graph/adjacency_list.hpp>

#include <algorithm>
#include <limits>
#include <list>
#include <mutex>
#include <unordered_map>

namespace fabscope {
namespace {

struct EdgeProps {
    std::uint32_t link = 0;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, EdgeProps>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

constexpr std::uint32_t kNotSwitch = std::numeric_limits<std::uint32_t>::max();
constexpr std::size_t kKeptBytes = std::size_t{32} << 20;

// A destination by what its distances depend on: 0 and the switch itself, or 1 and a host's switches.
using Key = std::vector<std::uint32_t>;
struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept {
        std::size_t h = k.size();
        for (const std::uint32_t v : k) h = h * 0x9E3779B97F4A7C15ULL + v;
        return h;
    }
};

} // namespace

// A job's pairs end at hosts on a few hundred leaves: the hop distances from a destination's
// switches are kept per leaf (16 bits a switch), so a 16k-rank job on the k=48 tree searches the
// fabric about once per leaf, wherever its ranks were placed. The search runs over the switches
// alone (hosts are never transit), in one flat adjacency array; the Boost graph it is read from
// is freed once built.
struct EqualCostRouter::Impl {
    using Hops = std::uint16_t;
    static constexpr Hops kFarHops = std::numeric_limits<Hops>::max();
    static constexpr std::uint32_t kFar = std::numeric_limits<std::uint32_t>::max();
    using Entry = std::pair<Key, std::vector<Hops>>;  // per switch: hops to the destination

    // Per node, its links as the walk takes them (in the graph's order, so routes come in the
    // same order as they always did): the neighbour and the link's direction towards it.
    struct Step {
        std::uint32_t to;
        Hop hop;
    };
    std::vector<std::uint32_t> stepStart;
    std::vector<Step> steps;
    std::vector<std::uint32_t> switchIndex;             // per node: its index among the switches, or kNotSwitch
    std::vector<std::uint32_t> adjacencyStart, adjacent;  // switches' switch neighbours, by switch index
    std::size_t keep = 0;  // destinations whose distances are kept
    std::mutex mutex;      // routes() is const; its kept distances are not
    std::list<Entry> kept;  // most recently used first
    std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> keptByKey;
    // Within one routes() call, each node's steps one hop closer, found on its first visit: the
    // walk comes back to the nodes near the destination for every route (64 routes, 64 scans of
    // their ~48 links each, before).
    std::vector<std::uint32_t> closerStamp, closerFirst, closerCount;  // per node
    std::vector<std::uint32_t> closer;  // step indices
    std::uint32_t stamp = 0;

    [[nodiscard]] bool isSwitch(Vertex v) const { return switchIndex[v] != kNotSwitch; }

    const std::vector<Hops>& distancesTo(Vertex dst) {
        const bool toSwitch = isSwitch(dst);
        Key key{toSwitch ? 0u : 1u};
        if (toSwitch) key.push_back(switchIndex[dst]);
        else
            for (std::uint32_t k = stepStart[dst]; k < stepStart[dst + 1]; ++k)
                if (const Vertex v = steps[k].to; isSwitch(v)) key.push_back(switchIndex[v]);
        std::sort(key.begin() + 1, key.end());
        key.erase(std::unique(key.begin() + 1, key.end()), key.end());
        if (const auto it = keptByKey.find(key); keep > 0 && it != keptByKey.end()) {
            kept.splice(kept.begin(), kept, it->second);
            return it->second->second;
        }
        while (!kept.empty() && kept.size() >= std::max<std::size_t>(keep, 1)) {  // the one in use stays
            keptByKey.erase(kept.back().first);
            kept.pop_back();
        }
        std::vector<Hops> toDst(adjacencyStart.size() - 1, kFarHops);
        std::vector<std::uint32_t> queue(key.begin() + 1, key.end());
        for (const std::uint32_t s : queue) toDst[s] = toSwitch ? 0 : 1;
        for (std::size_t head = 0; head < queue.size(); ++head) {  // breadth first
            const std::uint32_t u = queue[head];
            for (std::uint32_t k = adjacencyStart[u]; k < adjacencyStart[u + 1]; ++k)
                if (const std::uint32_t v = adjacent[k]; toDst[v] == kFarHops) {
                    toDst[v] = static_cast<Hops>(toDst[u] + 1);
                    queue.push_back(v);
                }
        }
        kept.emplace_front(key, std::move(toDst));
        keptByKey.emplace(std::move(key), kept.begin());
        return kept.front().second;
    }
};

EqualCostRouter::EqualCostRouter(const Fabric& f, std::size_t keptDestinations) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    Graph g(f.nodes.size());  // read into the flat arrays below, then freed
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const auto a = f.port(f.links[i].a).node.value(), b = f.port(f.links[i].b).node.value();
        if (a != b) boost::add_edge(a, b, EdgeProps{static_cast<std::uint32_t>(i)}, g);
    }
    m.stepStart.assign(f.nodes.size() + 1, 0);
    for (std::size_t u = 0; u < f.nodes.size(); ++u) {
        for (auto [e, end] = boost::out_edges(u, g); e != end; ++e) {
            const Link& l = f.links[g[*e].link];
            const bool aIsU = f.port(l.a).node.value() == u;
            m.steps.push_back({static_cast<std::uint32_t>(boost::target(*e, g)), Hop{aIsU ? l.a : l.b, aIsU ? l.b : l.a}});
        }
        m.stepStart[u + 1] = static_cast<std::uint32_t>(m.steps.size());
    }
    m.closerStamp.assign(f.nodes.size(), 0);
    m.closerFirst.assign(f.nodes.size(), 0);
    m.closerCount.assign(f.nodes.size(), 0);
    m.switchIndex.assign(f.nodes.size(), kNotSwitch);
    std::uint32_t switches = 0;
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (f.nodes[i].type == NodeType::Switch) m.switchIndex[i] = switches++;
    m.adjacencyStart.assign(switches + 1, 0);
    for (std::size_t v = 0; v < f.nodes.size(); ++v) {
        if (!m.isSwitch(v)) continue;
        for (auto [e, end] = boost::out_edges(v, g); e != end; ++e)
            if (const Vertex w = boost::target(*e, g); m.isSwitch(w)) m.adjacent.push_back(m.switchIndex[w]);
        m.adjacencyStart[m.switchIndex[v] + 1] = static_cast<std::uint32_t>(m.adjacent.size());
    }
    const std::size_t entryBytes = std::max<std::size_t>(1, switches) * sizeof(Impl::Hops);
    m.keep = keptDestinations == kKeepByMemory ? std::max<std::size_t>(16, kKeptBytes / entryBytes) : keptDestinations;
}

EqualCostRouter::~EqualCostRouter() = default;

std::vector<Route> EqualCostRouter::routes(NodeId srcId, NodeId dstId, std::size_t maxRoutes) const {
    Impl& m = *impl_;
    std::vector<Route> routes;
    if (srcId == dstId || maxRoutes == 0) return routes;
    const Vertex src = srcId.value(), dst = dstId.value();
    const std::lock_guard lock(impl_->mutex);
    const std::vector<Impl::Hops>& toDst = impl_->distancesTo(dst);

    // Hop distance of a node to dst: 0 at dst, through switches elsewhere; a host source is one
    // hop beyond its nearest neighbour. A route steps only to nodes one hop closer.
    constexpr auto kFar = Impl::kFar;
    const auto switchDistance = [&](Vertex v) {
        const Impl::Hops h = toDst[m.switchIndex[v]];
        return h == Impl::kFarHops ? kFar : std::uint32_t{h};
    };
    std::uint32_t srcDistance = m.isSwitch(src) ? switchDistance(src) : kFar;
    if (!m.isSwitch(src))
        for (std::uint32_t k = m.stepStart[src]; k < m.stepStart[src + 1]; ++k) {
            const Vertex v = m.steps[k].to;
            const std::uint32_t d = v == dst ? 0 : m.isSwitch(v) ? switchDistance(v) : kFar;
            if (d != kFar) srcDistance = std::min(srcDistance, d + 1);
        }
    if (srcDistance == kFar) return routes;
    const auto distance = [&](Vertex v) {
        if (v == dst) return std::uint32_t{0};
        if (v == src) return srcDistance;
        return m.isSwitch(v) ? switchDistance(v) : kFar;  // another host: never transit
    };

    Route current;
    const auto walk = [&](const auto& self, Vertex u) -> void {
        if (routes.size() >= maxRoutes) return;
        if (u == dst) {
            routes.push_back(current);
            return;
        }
        if (m.closerStamp[u] != m.stamp) {
            m.closerStamp[u] = m.stamp;
            m.closerFirst[u] = static_cast<std::uint32_t>(m.closer.size());
            const std::uint32_t here = distance(u);
            for (std::uint32_t k = m.stepStart[u]; k < m.stepStart[u + 1]; ++k)
                if (const std::uint32_t d = distance(m.steps[k].to); d != kFar && d + 1 == here) m.closer.push_back(k);
            m.closerCount[u] = static_cast<std::uint32_t>(m.closer.size()) - m.closerFirst[u];
        }
        for (std::uint32_t i = 0, first = m.closerFirst[u], count = m.closerCount[u]; i < count; ++i) {
            const Impl::Step& step = m.steps[m.closer[first + i]];  // by index: the recursion appends
            current.push_back(step.hop);
            self(self, step.to);
            current.pop_back();
        }
    };
    if (++m.stamp == 0) {  // wrapped: no stamp may match a node's old one
        std::fill(m.closerStamp.begin(), m.closerStamp.end(), 0);
        m.stamp = 1;
    }
    m.closer.clear();
    walk(walk, src);
    return routes;
}

} // namespace fabscope
