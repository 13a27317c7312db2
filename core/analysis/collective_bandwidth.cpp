#include "core/analysis/collective_bandwidth.h"

#include "core/analysis/capacity_history.h"
#include "core/analysis/equal_cost_paths.h"
#include "core/port_links.h"

#include <algorithm>

namespace fabscope {
namespace {

constexpr std::size_t kMaxRoutes = 64;

} // namespace

CollectiveAssessor::CollectiveAssessor(const Fabric& fabric, const CapacityHistory* history)
    : f_(fabric), history_(history), hosts_(fabric, findAggregationNodes(fabric)), router_(fabric), linkOfPort_(linkOfEachPort(fabric)) {}

double CollectiveAssessor::hopGbps(const Hop& h, double time) const {
    // the link's capacity, else the slower end's (a port seen from one side only)
    double bps = 0;
    if (const auto l = linkOfPort_[h.tx.value()]) {
        const Link& link = f_.link(*l);
        if ((link.a == h.tx && link.b == h.rx) || (link.a == h.rx && link.b == h.tx)) bps = static_cast<double>(link.capacityBps);
    }
    if (bps <= 0) {
        const auto a = f_.port(h.tx).capacityBps, b = f_.port(h.rx).capacityBps;
        bps = static_cast<double>(a && b ? std::min(a, b) : std::max(a, b));
    }
    // a run without a time (0) takes the speeds the fabric shows
    if (history_ && time > 0 && bps > 0) bps = history_->at(h.tx, time, bps);
    return bps / 1e9;
}

CollectiveAssessment assessCollectiveRun(const Fabric& f, const CollectiveRun& run) { return CollectiveAssessor(f).assess(run); }

CollectiveAssessment CollectiveAssessor::assess(const CollectiveRun& run) const {
    const Fabric& f = f_;
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
        nodes.push_back(hosts_.node(h));
        if (!nodes.back() && std::find(a.unmappedHosts.begin(), a.unmappedHosts.end(), h) == a.unmappedHosts.end())
            a.unmappedHosts.push_back(h);
    }
    if (!a.unmappedHosts.empty()) {
        std::string names;
        for (const auto& h : a.unmappedHosts) names += (names.empty() ? "" : ", ") + h;
        a.note = "host(s) not in the fabric (" + names + "): the ring cannot be routed";
        return a;
    }
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const std::size_t j = (i + 1) % ring.size();
        const auto routes = router_.routes(*nodes[i], *nodes[j], kMaxRoutes);
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
                const double c = hopGbps(h, run.time);
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
