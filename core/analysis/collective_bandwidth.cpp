#include "core/analysis/collective_bandwidth.h"

#include "core/analysis/equal_cost_paths.h"

#include <algorithm>

namespace fabscope {
namespace {

constexpr std::size_t kMaxRoutes = 64;

double linkGbps(const Fabric& f, const Hop& h) {
    // the link's capacity, else the slower end's (a port seen from one side only)
    for (const Link& l : f.links)
        if ((l.a == h.tx && l.b == h.rx) || (l.a == h.rx && l.b == h.tx))
            if (l.capacityBps) return static_cast<double>(l.capacityBps) / 1e9;
    const auto a = f.port(h.tx).capacityBps, b = f.port(h.rx).capacityBps;
    const auto c = a && b ? std::min(a, b) : std::max(a, b);
    return static_cast<double>(c) / 1e9;
}

} // namespace

std::optional<NodeId> hostNode(const Fabric& f, const std::string& host) {
    if (host.empty()) return std::nullopt;
    const auto aggregation = findAggregationNodes(f);
    std::optional<NodeId> prefix;
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        const Node& n = f.nodes[i];
        if (n.type == NodeType::Switch || aggregation[i]) continue;
        if (n.description == host || n.systemName == host) return NodeId(static_cast<std::uint32_t>(i));
        if (!prefix && n.description.starts_with(host + " ")) prefix = NodeId(static_cast<std::uint32_t>(i));
    }
    return prefix;
}

CollectiveAssessment assessCollectiveRun(const Fabric& f, const CollectiveRun& run) {
    CollectiveAssessment a;
    a.runId = run.id;
    a.tool = run.tool;
    for (const CollectiveRow& r : run.rows) {
        for (const auto& v : {r.busbwGBs, r.inPlaceBusbwGBs})
            if (v && (!a.peakBusbwGBs || *v > *a.peakBusbwGBs)) a.peakBusbwGBs = v;
        if (r.sizeBytes >= a.largestBytes && (r.busbwGBs || r.inPlaceBusbwGBs)) {
            a.largestBytes = r.sizeBytes;
            a.busbwGBs = r.busbwGBs ? r.busbwGBs : r.inPlaceBusbwGBs;
        }
    }
    std::vector<std::string> ring;  // distinct consecutive hosts
    for (const auto& h : run.hosts)
        if (ring.empty() || ring.back() != h) ring.push_back(h);
    while (ring.size() > 1 && ring.front() == ring.back()) ring.pop_back();
    if (run.hosts.empty()) {
        a.note = "the output names no hosts (no `Rank N ... on HOST` lines)";
        return a;
    }
    if (ring.size() < 2) {
        a.note = "all ranks on one host: no fabric link carries the run";
        return a;
    }
    std::vector<std::optional<NodeId>> nodes;
    for (const auto& h : ring) {
        nodes.push_back(hostNode(f, h));
        if (!nodes.back() && std::find(a.unmappedHosts.begin(), a.unmappedHosts.end(), h) == a.unmappedHosts.end())
            a.unmappedHosts.push_back(h);
    }
    if (!a.unmappedHosts.empty()) {
        std::string names;
        for (const auto& h : a.unmappedHosts) names += (names.empty() ? "" : ", ") + h;
        a.note = "host(s) not in the fabric (" + names + "): the ring cannot be routed";
        return a;
    }
    const EqualCostRouter router(f);
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const std::size_t j = (i + 1) % ring.size();
        const auto routes = router.routes(*nodes[i], *nodes[j], kMaxRoutes);
        if (routes.empty()) {
            a.note = "no route between " + ring[i] + " and " + ring[j];
            a.bottleneck.reset();
            return a;
        }
        // best route by its narrowest hop; remember that hop
        double pairCap = -1;
        Hop pairHop{};
        for (const Route& r : routes) {
            double routeCap = -1;
            Hop narrow{};
            for (const Hop& h : r) {
                const double c = linkGbps(f, h);
                if (c > 0 && (routeCap < 0 || c < routeCap)) {
                    routeCap = c;
                    narrow = h;
                }
            }
            if (routeCap > pairCap) {
                pairCap = routeCap;
                pairHop = narrow;
            }
        }
        if (pairCap <= 0) continue;  // capacities unknown on every route
        if (!a.bottleneck || pairCap < a.bottleneck->capacityGbps) {
            const Port& tx = f.port(pairHop.tx);
            const Port& rx = f.port(pairHop.rx);
            a.bottleneck = CollectiveBottleneck{f.node(tx.node).description, tx.name, f.node(rx.node).description, rx.name,
                                                pairCap, ring[i], ring[j]};
        }
    }
    if (!a.bottleneck) a.note = "link capacities unknown on the ring's routes";
    else if (a.busbwGBs) a.efficiency = *a.busbwGBs * 8.0 / a.bottleneck->capacityGbps;
    return a;
}

} // namespace fabscope
