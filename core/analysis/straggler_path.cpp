// straggler_path: for each job of the store (jobs / job_ranks / job_edges), the communicating
// pairs (the ring neighbours NCCL logged, per channel; without rings all pairs up to ring_above
// ranks, else rank i -> i+1), each routed hop by hop through the imported forwarding tables
// (dump_fts, ibroute, ibdiagnet .fdbs: destination LID -> out-port at each switch) when the
// fabric has them, else over every equal-cost shortest route, each weighted 1/N
// (probe_routes.h). A hop's headroom is 1 - the p95 utilisation of that link direction over the
// window, x the capacity ratio of a degraded link, x flagged_penalty for a link named by an
// error_link / link_flap / congestion_tree / pfc_storm finding. A route's score is its worst hop;
// a pair's score the weighted mean over its routes. The job's worst pair is reported when its
// score is <= outlier_ratio x the median of the job's pairs; path = its worst route (source host
// port first), ports = the bottleneck hop (transmitting end first). docs/ANALYSIS.md.
#include "core/analysis/detectors.h"
#include "core/analysis/equal_cost_paths.h"
#include "core/analysis/probe_routes.h"
#include "core/analysis/format.h"
#include "core/analysis/port_load.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace fabscope {
namespace {

struct Rank {
    int rank = 0;
    std::string host, device;
    std::optional<PortId> port;  // the host's connected fabric port
};

struct Job {
    std::int64_t id = 0;
    std::string name;
    std::vector<Rank> ranks;
    std::vector<std::pair<int, int>> ringPairs;  // (src rank, dst rank) as NCCL's rings connect them
};

std::vector<Job> jobsOf(const Store& store) {
    std::vector<Job> jobs;
    for (const StoredJob& sj : loadJobs(store)) {
        Job j{sj.id, sj.name, {}, {}};
        for (const JobRank& r : sj.ranks) j.ranks.push_back({r.rank, r.host, r.device, std::nullopt});
        for (const JobEdge& e : sj.details.edges)
            if (e.kind == JobEdge::Kind::Ring) j.ringPairs.emplace_back(e.src, e.dst);
        std::sort(j.ringPairs.begin(), j.ringPairs.end());
        j.ringPairs.erase(std::unique(j.ringPairs.begin(), j.ringPairs.end()), j.ringPairs.end());
        jobs.push_back(std::move(j));
    }
    return jobs;
}

// A rank's host: the CA whose description is "host device", is the host, or starts with "host ".
std::optional<PortId> hostPort(const AnalysisContext& ctx, const Rank& r) {
    const Fabric& f = ctx.fabric();
    std::optional<std::size_t> exact, prefix;
    const auto aggregation = findAggregationNodes(f);  // never a rank's host
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        const Node& n = f.nodes[i];
        if (n.type == NodeType::Switch || aggregation[i]) continue;
        const std::string& d = n.description;
        if ((!r.device.empty() && d == r.host + " " + r.device) || d == r.host || n.systemName == r.host) {
            exact = i;
            break;
        }
        if (!prefix && d.starts_with(r.host + " ") && (r.device.empty() || d.find(r.device) != std::string::npos)) prefix = i;
    }
    const auto node = exact ? exact : prefix;
    if (!node) return std::nullopt;
    for (std::size_t p = 0; p < f.ports.size(); ++p)
        if (f.ports[p].node.value() == *node && ctx.linkOf(PortId(p))) return PortId(p);
    return std::nullopt;
}

// The 95th percentile of the valid intervals' utilisation: the load a pair meets most of the time.
std::optional<double> p95Util(const DirectionLoad& load) {
    std::vector<double> u;
    for (std::size_t i = 0; i < load.rates.size(); ++i)
        if (load.rates.ok(i)) u.push_back(load.util[i]);
    if (u.empty()) return std::nullopt;
    std::sort(u.begin(), u.end());
    return u[static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(u.size()))) - 1];
}

struct Scorer {
    const AnalysisContext& ctx;
    std::map<std::uint32_t, double> linkFactor;                   // LinkId value -> headroom factor
    std::map<std::uint32_t, std::string> linkReason;
    std::unordered_map<std::uint32_t, double> headroomOfTx;        // tx PortId value -> headroom

    double headroom(const Hop& h) {
        auto it = headroomOfTx.find(h.tx.value());
        if (it == headroomOfTx.end()) {
            double free = 1;  // no byte counters: nothing says the hop is busy
            if (auto load = directionLoad(ctx, h.tx, h.rx))
                if (auto p95 = p95Util(*load)) free = std::clamp(1 - *p95, 0.0, 1.0);
            if (auto l = ctx.linkOf(h.tx))
                if (auto f = linkFactor.find(l->value()); f != linkFactor.end()) free *= f->second;
            it = headroomOfTx.emplace(h.tx.value(), free).first;
        }
        return it->second;
    }
};

void flagLinks(const AnalysisContext& ctx, const std::vector<Finding>& findings, Scorer& s) {
    std::map<std::pair<std::string, std::string>, PortId> byRef;
    for (std::size_t i = 0; i < ctx.fabric().ports.size(); ++i) {
        const PortRef r = ctx.ref(PortId(i));
        byRef.emplace(std::pair{r.node, r.port}, PortId(i));
    }
    for (const Finding& f : findings) {
        double factor = ctx.config().stragglerPath.flaggedPenalty;
        if (f.kind == "degraded_link") {
            double actual = 0, expected = 0;
            for (const auto& [k, v] : f.metrics) {
                if (k == "actual_gbps") actual = std::get<double>(v);
                if (k == "expected_gbps") expected = std::get<double>(v);
            }
            if (expected <= 0) continue;
            factor = actual / expected;
        } else if (f.kind != "error_link" && f.kind != "link_flap" && f.kind != "congestion_tree" && f.kind != "pfc_storm") {
            continue;  // hot links already show as utilisation
        }
        for (const PortRef& r : f.ports) {
            auto p = byRef.find({r.node, r.port});
            if (p == byRef.end()) continue;
            auto l = ctx.linkOf(p->second);
            if (!l) continue;
            auto [it, fresh] = s.linkFactor.try_emplace(l->value(), factor);
            if (fresh || factor < it->second) {
                it->second = factor;
                s.linkReason[l->value()] = f.kind;
            }
        }
    }
}

struct PairScore {
    std::size_t src = 0, dst = 0;  // indices into the job's ranks
    double score = 1;
    Route worst;
    double worstScore = 1;
    std::size_t bottleneck = 0, routes = 0;
    RouteSource source = RouteSource::EqualCost;
    double bottleneckGbps = 0;  // headroom x capacity of the worst route's bottleneck hop
};

// Ring neighbours as NCCL logged them, as indices into the job's ranks; empty without rings.
std::vector<std::pair<std::size_t, std::size_t>> ringPairsOf(const Job& job) {
    std::map<int, std::size_t> index;
    for (std::size_t i = 0; i < job.ranks.size(); ++i) index[job.ranks[i].rank] = i;
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (const auto& [a, b] : job.ringPairs)
        if (index.count(a) && index.count(b)) out.emplace_back(index[a], index[b]);
    return out;
}

std::vector<std::pair<std::size_t, std::size_t>> pairsOf(std::size_t n, int ringAbove) {
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    if (n < 2) return pairs;
    if (n <= static_cast<std::size_t>(ringAbove)) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
    } else {
        for (std::size_t i = 0; i < n; ++i) pairs.emplace_back(i, (i + 1) % n);
    }
    return pairs;
}

void scoreJob(const AnalysisContext& ctx, const ProbeRouter& router, Job& job, Scorer& s, std::vector<Finding>& out) {
    const StragglerPathConfig& c = ctx.config().stragglerPath;
    for (Rank& r : job.ranks) r.port = hostPort(ctx, r);
    std::vector<PairScore> scores;
    auto pairs = ringPairsOf(job);
    if (pairs.empty()) pairs = pairsOf(job.ranks.size(), c.ringAbove);
    for (auto [i, j] : pairs) {
        const Rank &a = job.ranks[i], &b = job.ranks[j];
        if (!a.port || !b.port || *a.port == *b.port) continue;
        const ProbeRoutes routes = router.routes(*a.port, *b.port, {});
        if (routes.routes.empty()) continue;
        PairScore ps{i, j, 0, {}, 2, 0, routes.routes.size(), routes.source};
        for (const WeightedRoute& route : routes.routes) {
            double worst = 2;
            std::size_t at = 0;
            for (std::size_t h = 0; h < route.hops.size(); ++h) {
                const double hr = s.headroom(route.hops[h]);
                if (hr < worst) {
                    worst = hr;
                    at = h;
                }
            }
            ps.score += worst * route.weight;
            if (worst < ps.worstScore) {
                ps.worstScore = worst;
                ps.worst = route.hops;
                ps.bottleneck = at;
            }
        }
        if (!ps.worst.empty())
            if (const auto l = ctx.linkOf(ps.worst[ps.bottleneck].tx))
                ps.bottleneckGbps = ps.worstScore * static_cast<double>(ctx.fabric().link(*l).capacityBps) / 1e9;
        scores.push_back(std::move(ps));
    }
    if (scores.size() < static_cast<std::size_t>(std::max(2, c.minPairs))) return;
    std::vector<double> sorted;
    for (const auto& ps : scores) sorted.push_back(ps.score);
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    const auto worstIt = std::min_element(scores.begin(), scores.end(), [](const auto& x, const auto& y) { return x.score < y.score; });
    if (median <= 0 || worstIt->score > c.outlierRatio * median) return;

    const PairScore& w = *worstIt;
    const Hop& neck = w.worst[w.bottleneck];
    Finding f;
    f.kind = "straggler_path";
    f.severity = w.worstScore <= c.criticalHeadroom ? FindingSeverity::Critical : FindingSeverity::Warning;
    f.start = ctx.windowStart();
    f.end = ctx.windowEnd();
    f.ports = {ctx.ref(neck.tx), ctx.ref(neck.rx)};
    for (const Hop& h : w.worst) {
        f.path.push_back(ctx.ref(h.tx));
        f.path.push_back(ctx.ref(h.rx));
    }
    std::string reason = "utilisation";
    if (auto l = ctx.linkOf(neck.tx))
        if (auto r = s.linkReason.find(l->value()); r != s.linkReason.end()) reason = r->second;
    const Rank &a = job.ranks[w.src], &b = job.ranks[w.dst];
    // How many of the job's pairs cross the bottleneck hop on their worst route.
    std::size_t sharing = 0;
    for (const auto& ps : scores)
        if (std::any_of(ps.worst.begin(), ps.worst.end(), [&](const Hop& h) { return h.tx == neck.tx; })) ++sharing;
    const auto neckLink = ctx.linkOf(neck.tx);
    const double neckBps = neckLink ? static_cast<double>(ctx.fabric().link(*neckLink).capacityBps) : 0.0;
    // A ring is as fast as its slowest hop: the job's bound with this hop, and with the next worst
    // pair that does not cross it.
    std::optional<double> without;
    for (const auto& ps : scores)
        if (std::none_of(ps.worst.begin(), ps.worst.end(), [&](const Hop& h) { return h.tx == neck.tx; }) && ps.bottleneckGbps > 0)
            without = std::min(without.value_or(ps.bottleneckGbps), ps.bottleneckGbps);
    const bool tables = w.source == RouteSource::ForwardingTables;
    const std::string routedBy = tables ? std::string("the forwarding tables' route")
                                        : "one of " + std::to_string(w.routes) + " equal-cost routes, each weighted 1/" +
                                              std::to_string(w.routes) + " (no forwarding tables)";
    f.summary = "job " + job.name + ": rank " + std::to_string(a.rank) + " (" + a.host + ") -> rank " + std::to_string(b.rank) +
                " (" + b.host + ") has " + numfmt::num(std::round(w.score * 100)) + "% headroom against a job median of " +
                numfmt::num(std::round(median * 100)) + "%; bottleneck " + AnalysisContext::label(f.ports[0]) + " -> " +
                AnalysisContext::label(f.ports[1]) + " (" + reason + ") on " + routedBy + "; the job's bound " +
                numfmt::num(numfmt::round(w.bottleneckGbps)) + " Gb/s" +
                (without ? ", " + numfmt::num(numfmt::round(*without)) + " Gb/s without this hop" : std::string());
    f.metrics = {{"job", job.name},
                 {"src_rank", static_cast<double>(a.rank)},
                 {"dst_rank", static_cast<double>(b.rank)},
                 {"src_host", a.host},
                 {"dst_host", b.host},
                 {"pair_headroom", numfmt::round(w.score)},
                 {"bottleneck_headroom", numfmt::round(w.worstScore)},
                 {"job_median_headroom", numfmt::round(median)},
                 {"bottleneck_reason", reason},
                 {"bottleneck_headroom_gbps", numfmt::round(w.worstScore * neckBps / 1e9)},
                 {"bottleneck_hop", static_cast<double>(w.bottleneck)},
                 {"pairs_sharing_bottleneck", static_cast<double>(sharing)},
                 {"job_bound_gbps", numfmt::round(w.bottleneckGbps)},
                 {"routed_by", std::string(toString(w.source))},
                 {"routes", static_cast<double>(w.routes)},
                 {"pairs", static_cast<double>(scores.size())}};
    if (without) {
        f.metrics.emplace_back("job_bound_without_gbps", numfmt::round(*without));
        if (w.bottleneckGbps > 0) f.metrics.emplace_back("predicted_slowdown", numfmt::round(*without / w.bottleneckGbps));
    }
    out.push_back(std::move(f));
}

} // namespace

void detectStragglerPaths(const Store& store, const AnalysisContext& ctx, const std::vector<Finding>& soFar,
                          std::vector<Finding>& out) {
    if (ctx.fabric().nodes.empty()) return;
    std::vector<Job> jobs = jobsOf(store);
    if (jobs.empty()) return;
    Scorer s{ctx, {}, {}, {}};
    flagLinks(ctx, soFar, s);
    std::vector<SwitchRoutes> tables;
    if (auto snap = store.latestSnapshot()) tables = store.routes(snap->id);
    const ProbeRouter router(ctx.fabric(), tables, static_cast<std::size_t>(std::max(1, ctx.config().stragglerPath.maxRoutes)));
    for (Job& job : jobs) scoreJob(ctx, router, job, s, out);
}

} // namespace fabscope
