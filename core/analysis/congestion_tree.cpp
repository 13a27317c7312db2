// congestion_tree (InfiniBand): a port is congested when its PortXmitWait time (ticks x tick_ns)
// covers >= share of the interval for >= min_samples consecutive intervals. Congested port P
// feeds congested port Q when Q sits on the node P transmits to (and does not point straight
// back). A root is a congested port that feeds no other: its own downstream (the receiver, or
// the link itself) is the over-subscribed end. Each root gives one finding: origin = the root,
// ports = the root, its receiver, then the congested ports upstream of it (nearest first);
// metrics.spread lists the edges "upstream -> downstream".
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"
#include "core/analysis/time_shares.h"
#include "core/parallel_connections.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>

namespace fabscope {
namespace {

struct Congested {
    PortId port;
    double start = 0, end = 0, peak = 0, mean = 0;
};


// The longest run of intervals at or above the share threshold, if long enough.
std::optional<Congested> congestedRun(const AnalysisContext& ctx, const Store& via, PortId p, std::int64_t series) {
    const CongestionTreeConfig& c = ctx.config().congestionTree;
    // An interval's share is its ticks per second x the tick: below the threshold at the
    // series' peak rate, below it everywhere, and nothing needs loading.
    if (xmitWaitSeconds(ctx.peakRate(via, series), c) * AnalysisContext::kPeakSlack < c.share) return std::nullopt;
    const RateSeries r = ctx.rates(via, series, "xmit_wait");
    std::optional<Congested> best;
    std::size_t bestLen = 0, i = 0;
    auto share = [&](std::size_t k) {
        const double dt = static_cast<double>(r.endMs[k] - r.startMs[k]) / 1000.0;
        return shareOfInterval(xmitWaitSeconds(r.delta[k], c), dt);
    };
    while (i < r.size()) {
        if (!r.ok(i) || share(i) < c.share) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < r.size() && r.ok(j + 1) && share(j + 1) >= c.share) ++j;
        const std::size_t len = j - i + 1;
        if (len >= static_cast<std::size_t>(std::max(1, c.minSamples)) && len > bestLen) {
            Congested k{p, static_cast<double>(r.startMs[i]) / 1000.0, static_cast<double>(r.endMs[j]) / 1000.0, 0, 0};
            for (std::size_t x = i; x <= j; ++x) {
                k.peak = std::max(k.peak, share(x));
                k.mean += share(x) / static_cast<double>(len);
            }
            best = k;
            bestLen = len;
        }
        i = j + 1;
    }
    return best;
}

} // namespace

void detectCongestionTrees(const AnalysisContext& ctx, std::vector<Finding>& out) {
    const Fabric& f = ctx.fabric();
    std::map<std::uint32_t, Congested> congested;  // PortId value -> run
    const auto waits = ctx.seriesOf("xmit_wait");
    const auto runs = mapOnConnections<std::optional<Congested>>(ctx.store(), waits.size(), kParallelSeries,
                                                                 [&](const Store& via, std::size_t i) -> std::optional<Congested> {
        const auto p = ctx.fabricPort(waits[i].first);
        if (!p || !ctx.linkOf(*p)) return std::nullopt;  // a port on no link transmits nowhere
        return congestedRun(ctx, via, *p, waits[i].second);
    });
    for (const auto& run : runs)
        if (run) congested.emplace(run->port.value(), *run);
    if (congested.empty()) return;

    // Edges P -> Q: Q congested on the node P sends to, Q not the port P's link arrives on.
    std::map<std::uint32_t, std::vector<std::uint32_t>> downstream, upstream;
    std::map<std::uint32_t, std::vector<std::uint32_t>> congestedOnNode;
    for (const auto& [p, run] : congested) congestedOnNode[f.ports[p].node.value()].push_back(p);
    for (const auto& [p, run] : congested) {
        const PortId arrive = ctx.peer(*ctx.linkOf(PortId(p)), PortId(p));
        const auto node = f.port(arrive).node.value();
        for (auto q : congestedOnNode[node]) {
            if (q == arrive.value()) continue;
            downstream[p].push_back(q);
            upstream[q].push_back(p);
        }
    }

    const CongestionTreeConfig& c = ctx.config().congestionTree;
    for (const auto& [root, rootRun] : congested) {
        if (!downstream[root].empty()) continue;
        // Breadth-first upstream: nearest contributors first.
        std::vector<std::uint32_t> order{root};
        std::set<std::uint32_t> seen{root};
        std::vector<std::string> edges;
        std::map<std::uint32_t, int> depth{{root, 0}};
        std::deque<std::uint32_t> queue{root};
        while (!queue.empty()) {
            const auto q = queue.front();
            queue.pop_front();
            for (auto p : upstream[q]) {
                edges.push_back(AnalysisContext::label(ctx.ref(PortId(p))) + " -> " + AnalysisContext::label(ctx.ref(PortId(q))));
                if (!seen.insert(p).second) continue;
                depth[p] = depth[q] + 1;
                order.push_back(p);
                queue.push_back(p);
            }
        }
        const PortId rootPort(root);
        const PortId receiver = ctx.peer(*ctx.linkOf(rootPort), rootPort);
        Finding fd;
        fd.kind = FindingKind::CongestionTree;
        fd.severity = rootRun.peak >= c.criticalShare ? FindingSeverity::Critical : FindingSeverity::Warning;
        fd.start = rootRun.start;
        fd.end = rootRun.end;
        int maxDepth = 0;
        for (auto p : order) {
            fd.start = std::min(fd.start, congested.at(p).start);
            fd.end = std::max(fd.end, congested.at(p).end);
            maxDepth = std::max(maxDepth, depth[p]);
        }
        fd.origin = ctx.ref(rootPort);
        fd.ports = {ctx.ref(rootPort), ctx.ref(receiver)};
        for (std::size_t i = 1; i < order.size(); ++i) fd.ports.push_back(ctx.ref(PortId(order[i])));
        const double shownCap = static_cast<double>(f.port(rootPort).capacityBps ? f.port(rootPort).capacityBps
                                                                                  : f.link(*ctx.linkOf(rootPort)).capacityBps);
        const double cap = ctx.capacities().at(rootPort, rootRun.start, shownCap);  // the speed its wait began at
        std::string spread;
        for (const auto& e : edges) spread += (spread.empty() ? "" : "; ") + e;
        fd.summary = "congestion tree rooted at " + AnalysisContext::label(fd.ports[0]) + " -> " +
                     AnalysisContext::label(fd.ports[1]) + " (waiting " + numfmt::num(std::round(rootRun.mean * 100)) +
                     "% of the time), " + std::to_string(order.size() - 1) + " congested port" +
                     (order.size() == 2 ? "" : "s") + " upstream";
        fd.metrics = {{"root_wait_share", numfmt::round(rootRun.mean)},
                      {"root_peak_wait_share", numfmt::round(rootRun.peak)},
                      {"tree_ports", static_cast<double>(order.size())},
                      {"depth", static_cast<double>(maxDepth)},
                      {"tick_ns", c.tickNs}};
        if (cap > 0) fd.metrics.emplace_back("root_lost_gbps_est", numfmt::round(rootRun.mean * cap / 1e9));
        fd.metrics.emplace_back("spread", spread);
        out.push_back(std::move(fd));
    }
}

} // namespace fabscope
