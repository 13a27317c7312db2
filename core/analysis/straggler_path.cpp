// straggler_path: the job's worst pair (job_routes.cpp routes and scores them) is reported when
// the job has at least min_pairs scored pairs and the worst pair's headroom is <= outlier_ratio x
// the median of the job's pairs. path = its worst route (source host port first), ports = the
// bottleneck hop (transmitting end first). A ring is as fast as its slowest hop: the job's bound
// is that hop's free capacity, and "without" it the tightest pair that does not cross it.
// docs/ANALYSIS.md.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

bool crosses(const JobPairRoute& p, const PortRef& tx) {
    for (std::size_t h = 0; h + 1 < p.path.size(); h += 2)
        if (p.path[h].node == tx.node && p.path[h].port == tx.port) return true;
    return false;
}

} // namespace

void detectStragglerPaths(const AnalysisContext& ctx, const std::vector<JobRoutes>& jobs, std::vector<Finding>& out) {
    const StragglerPathConfig& c = ctx.config().stragglerPath;
    for (const JobRoutes& job : jobs) {
        if (job.pairs.size() < static_cast<std::size_t>(std::max(2, c.minPairs))) continue;
        const JobPairRoute& w = job.pairs.front();  // worst headroom first
        const double median = job.medianHeadroom;
        if (median <= 0 || w.headroom > c.outlierRatio * median || w.path.size() < 2 * (w.bottleneckHop + 1)) continue;
        const PortRef& neckTx = w.path[2 * w.bottleneckHop];
        Finding f;
        f.kind = FindingKind::StragglerPath;
        f.severity = w.bottleneckHeadroom <= c.criticalHeadroom ? FindingSeverity::Critical : FindingSeverity::Warning;
        f.start = ctx.windowStart();
        f.end = ctx.windowEnd();
        f.ports = {neckTx, w.path[2 * w.bottleneckHop + 1]};
        f.path = w.path;
        // How many of the job's pairs cross the bottleneck hop on their worst route.
        const auto sharing = static_cast<double>(std::count_if(job.pairs.begin(), job.pairs.end(), [&](const auto& p) { return crosses(p, neckTx); }));
        std::optional<double> without;
        for (const auto& p : job.pairs)
            if (!crosses(p, neckTx) && p.bottleneckGbps > 0) without = std::min(without.value_or(p.bottleneckGbps), p.bottleneckGbps);
        const double neckGbps = w.bottleneckHeadroom > 0 ? w.bottleneckGbps / w.bottleneckHeadroom : 0;
        const bool tables = w.routedBy == "forwarding_tables";
        const std::string routedBy = tables ? std::string("the forwarding tables' route")
                                            : "one of " + std::to_string(w.routes) + " equal-cost routes, each weighted 1/" +
                                                  std::to_string(w.routes) + " (no forwarding tables)";
        f.summary = "job " + job.name + ": rank " + std::to_string(w.srcRank) + " (" + w.srcHost + ") -> rank " +
                    std::to_string(w.dstRank) + " (" + w.dstHost + ") has " + numfmt::num(std::round(w.headroom * 100)) +
                    "% headroom against a job median of " + numfmt::num(std::round(median * 100)) + "%; bottleneck " +
                    AnalysisContext::label(f.ports[0]) + " -> " + AnalysisContext::label(f.ports[1]) + " (" + w.reason + ") on " +
                    routedBy + "; the job's bound " + numfmt::num(numfmt::round(w.bottleneckGbps)) + " Gb/s" +
                    (without ? ", " + numfmt::num(numfmt::round(*without)) + " Gb/s without this hop" : std::string());
        f.metrics = {{"job", job.name},
                     {"src_rank", static_cast<double>(w.srcRank)},
                     {"dst_rank", static_cast<double>(w.dstRank)},
                     {"src_host", w.srcHost},
                     {"dst_host", w.dstHost},
                     {"pair_headroom", numfmt::round(w.headroom)},
                     {"bottleneck_headroom", numfmt::round(w.bottleneckHeadroom)},
                     {"job_median_headroom", numfmt::round(median)},
                     {"bottleneck_reason", w.reason},
                     {"bottleneck_headroom_gbps", numfmt::round(w.bottleneckHeadroom * neckGbps)},
                     {"bottleneck_hop", static_cast<double>(w.bottleneckHop)},
                     {"pairs_sharing_bottleneck", sharing},
                     {"job_bound_gbps", numfmt::round(w.bottleneckGbps)},
                     {"routed_by", w.routedBy},
                     {"routes", static_cast<double>(w.routes)},
                     {"pairs", static_cast<double>(job.pairs.size())}};
        if (without) {
            f.metrics.emplace_back("job_bound_without_gbps", numfmt::round(*without));
            if (w.bottleneckGbps > 0) f.metrics.emplace_back("predicted_slowdown", numfmt::round(*without / w.bottleneckGbps));
        }
        out.push_back(std::move(f));
    }
}

} // namespace fabscope
