// straggler_path: for each job of the store (jobs / job_ranks), the communicating pairs (all
// pairs up to ring_above ranks, else ring neighbours rank i -> i+1), their equal-cost shortest
// routes (equal_cost_paths.h; forwarding tables are not used yet), and each hop's headroom:
// 1 - mean utilisation of that link direction over the window, x the capacity ratio of a
// degraded link, x flagged_penalty for a link named by an error_link / link_flap /
// congestion_tree / pfc_storm finding. A route's score is its worst hop; a pair's score the mean
// over its routes (ECMP may hash it onto any of them). The job's worst pair is reported when its
// score is <= outlier_ratio x the median of the job's pairs; path = its worst route, ports = the
// bottleneck hop (transmitting end first).
#include "core/analysis/detectors.h"
#include "core/analysis/equal_cost_paths.h"
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
};

std::vector<Job> jobsOf(const Store& store) {
    std::vector<Job> jobs;
    for (const StoredJob& sj : loadJobs(store)) {
        Job j{sj.id, sj.name, {}};
        for (const JobRank& r : sj.ranks) j.ranks.push_back({r.rank, r.host, r.device, std::nullopt});
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
                if (auto m = load->meanUtil()) free = std::clamp(1 - *m, 0.0, 1.0);
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
};

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

void scoreJob(const AnalysisContext& ctx, const EqualCostRouter& router, Job& job, Scorer& s, std::vector<Finding>& out) {
    const StragglerPathConfig& c = ctx.config().stragglerPath;
    for (Rank& r : job.ranks) r.port = hostPort(ctx, r);
    std::vector<PairScore> scores;
    for (auto [i, j] : pairsOf(job.ranks.size(), c.ringAbove)) {
        const Rank &a = job.ranks[i], &b = job.ranks[j];
        if (!a.port || !b.port || *a.port == *b.port) continue;
        const auto routes = router.routes(ctx.fabric().port(*a.port).node, ctx.fabric().port(*b.port).node,
                                          static_cast<std::size_t>(c.maxRoutes));
        if (routes.empty()) continue;
        PairScore ps{i, j, 0, {}, 2, 0, routes.size()};
        for (const Route& route : routes) {
            double worst = 2;
            std::size_t at = 0;
            for (std::size_t h = 0; h < route.size(); ++h) {
                const double hr = s.headroom(route[h]);
                if (hr < worst) {
                    worst = hr;
                    at = h;
                }
            }
            ps.score += worst / static_cast<double>(routes.size());
            if (worst < ps.worstScore) {
                ps.worstScore = worst;
                ps.worst = route;
                ps.bottleneck = at;
            }
        }
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
    f.severity = w.worstScore <= 0.05 ? FindingSeverity::Critical : FindingSeverity::Warning;
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
    f.summary = "job " + job.name + ": rank " + std::to_string(a.rank) + " (" + a.host + ") -> rank " + std::to_string(b.rank) +
                " (" + b.host + ") has " + numfmt::num(std::round(w.score * 100)) + "% headroom against a job median of " +
                numfmt::num(std::round(median * 100)) + "%; bottleneck " + AnalysisContext::label(f.ports[0]) + " -> " +
                AnalysisContext::label(f.ports[1]) + " (" + reason + ")";
    f.metrics = {{"job", job.name},
                 {"src_rank", static_cast<double>(a.rank)},
                 {"dst_rank", static_cast<double>(b.rank)},
                 {"src_host", a.host},
                 {"dst_host", b.host},
                 {"pair_headroom", numfmt::round(w.score)},
                 {"bottleneck_headroom", numfmt::round(w.worstScore)},
                 {"job_median_headroom", numfmt::round(median)},
                 {"bottleneck_reason", reason},
                 {"routes", static_cast<double>(w.routes)},
                 {"pairs", static_cast<double>(scores.size())}};
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
    const EqualCostRouter router(ctx.fabric());
    for (Job& job : jobs) scoreJob(ctx, router, job, s, out);
}

} // namespace fabscope
