// Routes and scores every job's communicating pairs (job_routes.h): the ring neighbours NCCL
// logged, per channel; without rings all pairs up to ring_above ranks, else rank i -> i+1. Each
// pair is routed hop by hop through the imported forwarding tables (dump_fts, ibroute, ibdiagnet
// .fdbs: destination LID -> out-port at each switch) when the fabric has them, else over every
// equal-cost shortest route, each weighted 1/N (probe_routes.h). A hop's headroom is 1 - the p95
// utilisation of that link direction over the window, x the capacity ratio of a degraded link,
// x flagged_penalty for a link named by an error_link / link_flap / congestion_tree / pfc_storm
// finding. A route's score is its worst hop; a pair's the weighted mean over its routes.
#include "core/analysis/detectors.h"
#include "core/analysis/equal_cost_paths.h"
#include "core/analysis/format.h"
#include "core/analysis/host_places.h"
#include "core/analysis/port_load.h"
#include "core/analysis/probe_routes.h"
#include "core/analysis/rank_hosts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace fabscope {
namespace {

struct Rank {
    int rank = 0;
    std::string host, device;
    std::optional<PortId> port;  // the host's connected fabric port
};

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
    std::map<std::uint32_t, double> linkFactor;  // LinkId value -> headroom factor
    std::map<std::uint32_t, std::string> linkReason;
    std::unordered_map<std::uint32_t, double> headroomOfTx;  // tx PortId value -> headroom

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
    std::string reason(const Hop& h) const {
        if (auto l = ctx.linkOf(h.tx))
            if (auto r = linkReason.find(l->value()); r != linkReason.end()) return r->second;
        return "utilisation";
    }
};

double metricOf(const Finding& f, std::string_view key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key && std::holds_alternative<double>(v)) return std::get<double>(v);
    return 0;
}

void flagLinks(const AnalysisContext& ctx, const std::vector<Finding>& findings, Scorer& s) {
    std::map<std::pair<std::string, std::string>, PortId> byRef;
    for (std::size_t i = 0; i < ctx.fabric().ports.size(); ++i) {
        const PortRef r = ctx.ref(PortId(i));
        byRef.emplace(std::pair{r.node, r.port}, PortId(i));
    }
    for (const Finding& f : findings) {
        double factor = ctx.config().stragglerPath.flaggedPenalty;
        if (f.kind == FindingKind::DegradedLink) {
            const double expected = metricOf(f, "expected_gbps");
            if (expected <= 0) continue;
            factor = metricOf(f, "actual_gbps") / expected;
        } else if (f.kind != FindingKind::ErrorLink && f.kind != FindingKind::LinkFlap && f.kind != FindingKind::CongestionTree && f.kind != FindingKind::PfcStorm) {
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
                s.linkReason[l->value()] = std::string(kindName(f.kind));
            }
        }
    }
}

// The pairs to score, as indices into `ranks`: every pair when asked (all-to-all); else NCCL's
// ring neighbours and tree parent <-> child links when logged; else all pairs of a small job or a
// ring in rank order.
std::vector<std::pair<std::size_t, std::size_t>> pairsOf(const StoredJob& job, const StragglerPathConfig& c) {
    std::map<int, std::size_t> index;
    for (std::size_t i = 0; i < job.ranks.size(); ++i) index[job.ranks[i].rank] = i;
    std::set<std::pair<std::size_t, std::size_t>> logged;
    for (const JobEdge& e : job.details.edges) {
        if (e.kind == JobEdge::Kind::Connection || !index.count(e.src) || !index.count(e.dst)) continue;
        logged.emplace(index[e.src], index[e.dst]);
        if (e.kind == JobEdge::Kind::Tree) logged.emplace(index[e.dst], index[e.src]);  // reduce up, broadcast down
    }
    if (!logged.empty() && !c.allPairs) return {logged.begin(), logged.end()};
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    const std::size_t n = job.ranks.size();
    if (n < 2) return pairs;
    if (c.allPairs) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (i != j) pairs.emplace_back(i, j);
    } else if (n <= static_cast<std::size_t>(c.ringAbove)) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
    } else {
        for (std::size_t i = 0; i < n; ++i) pairs.emplace_back(i, (i + 1) % n);
    }
    return pairs;
}

// Channel 0's ring in the order NCCL walks it, from the lowest rank.
std::vector<int> ringOrder(const StoredJob& job) {
    std::map<int, int> next;
    for (const JobEdge& e : job.details.edges)
        if (e.kind == JobEdge::Kind::Ring && e.channel == 0) next.emplace(e.src, e.dst);
    std::vector<int> order;
    if (next.empty()) return order;
    int r = next.begin()->first;
    while (order.size() <= next.size() && std::find(order.begin(), order.end(), r) == order.end()) {
        order.push_back(r);
        auto it = next.find(r);
        if (it == next.end()) break;
        r = it->second;
    }
    return order;
}

JobRoutes describe(const StoredJob& sj) {
    JobRoutes j;
    j.id = sj.id;
    j.name = sj.name;
    j.file = sj.file;
    j.ncclVersion = sj.details.ncclVersion;
    j.ranks = sj.ranks.size();
    std::unordered_set<std::string> seen;  // a search of the list per rank was quadratic in a large job
    for (const JobRank& r : sj.ranks) {
        std::string h = adapterName(r.host, r.device);
        if (seen.insert(h).second) j.hosts.push_back(std::move(h));
        JobRankPlace& place = j.rankPlaces.emplace_back();
        place.rank = r.rank;
        place.host = r.host;
        place.device = r.device;
        place.line = r.line;
    }
    std::set<int> rings, trees;
    for (const JobEdge& e : sj.details.edges) {
        if (e.kind == JobEdge::Kind::Ring) rings.insert(e.channel);
        if (e.kind == JobEdge::Kind::Tree) trees.insert(e.channel);
    }
    j.ringChannels = rings.size();
    j.treeChannels = trees.size();
    j.ring = ringOrder(sj);
    return j;
}

JobRoutes routeJob(const AnalysisContext& ctx, const ProbeRouter& router, const RankHosts& hosts, const StoredJob& sj, Scorer& s) {
    JobRoutes job = describe(sj);
    std::vector<Rank> ranks;
    for (std::size_t i = 0; i < sj.ranks.size(); ++i) {
        const JobRank& r = sj.ranks[i];
        ranks.push_back({r.rank, r.host, r.device, std::nullopt});
        const std::optional<PortId> port = ranks.back().port = hosts.port(r.host, r.device);
        if (!port) {
            ++job.ranksUnplaced;
            continue;
        }
        JobRankPlace& place = job.rankPlaces[i];
        place.port = ctx.ref(*port);
        if (const auto l = ctx.linkOf(*port)) place.switchPort = ctx.ref(ctx.peer(*l, *port));
    }
    for (auto [i, k] : pairsOf(sj, ctx.config().stragglerPath)) {
        const Rank &a = ranks[i], &b = ranks[k];
        if (!a.port || !b.port || *a.port == *b.port) continue;
        const ProbeRoutes routes = router.routes(*a.port, *b.port, {});
        if (routes.routes.empty()) continue;
        JobPairRoute pr{a.rank, b.rank, a.host, b.host, 0, 2, 0, {}, 0, routes.routes.size(), std::string(toString(routes.source)), {}};
        const Route* worstRoute = nullptr;
        for (const WeightedRoute& route : routes.routes) {
            double worst = 2;
            std::size_t at = 0;
            for (std::size_t h = 0; h < route.hops.size(); ++h)
                if (const double hr = s.headroom(route.hops[h]); hr < worst) {
                    worst = hr;
                    at = h;
                }
            pr.headroom += worst * route.weight;
            if (worst < pr.bottleneckHeadroom) {
                pr.bottleneckHeadroom = worst;
                pr.bottleneckHop = at;
                worstRoute = &route.hops;
            }
        }
        if (!worstRoute) continue;  // routes without hops
        const Hop& neck = (*worstRoute)[pr.bottleneckHop];
        if (const auto l = ctx.linkOf(neck.tx)) {
            // Of the speed in force when the job ran (its file's time; else the window's end, where
            // `compare` takes a window's snapshot): not a later snapshot's slower or faster one.
            const double when = sj.details.time.value_or(ctx.windowEnd());
            const double cap = ctx.capacities().at(neck.tx, when, static_cast<double>(ctx.fabric().link(*l).capacityBps));
            pr.bottleneckGbps = pr.bottleneckHeadroom * cap / 1e9;
        }
        pr.reason = s.reason(neck);
        for (const Hop& h : *worstRoute) {
            pr.path.push_back(ctx.ref(h.tx));
            pr.path.push_back(ctx.ref(h.rx));
        }
        job.pairs.push_back(std::move(pr));
    }
    std::stable_sort(job.pairs.begin(), job.pairs.end(), [](const auto& x, const auto& y) { return x.headroom < y.headroom; });
    auto median = [](const std::vector<double>& sorted) {
        const std::size_t n = sorted.size();
        return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    };
    std::map<int, std::vector<double>> byRank;  // each rank's pairs' headrooms, in ascending order as the pairs are
    for (const JobPairRoute& p : job.pairs) {
        byRank[p.srcRank].push_back(p.headroom);
        byRank[p.dstRank].push_back(p.headroom);
    }
    for (JobRankPlace& place : job.rankPlaces)
        if (const auto it = byRank.find(place.rank); it != byRank.end()) place.medianPairHeadroom = median(it->second);
    if (!job.pairs.empty()) {
        std::vector<double> all;
        for (const JobPairRoute& p : job.pairs) all.push_back(p.headroom);
        job.medianHeadroom = median(all);
    }
    return job;
}

} // namespace

std::vector<JobRoutes> routeJobs(const Store& store, const AnalysisContext& ctx, const std::vector<Finding>& soFar) {
    std::vector<JobRoutes> out;
    const std::vector<StoredJob> jobs = loadJobs(store);
    if (jobs.empty()) return out;
    if (ctx.fabric().nodes.empty()) {  // no topology: the jobs are known, their routes are not
        for (const StoredJob& sj : jobs) {
            out.push_back(describe(sj));
            out.back().ranksUnplaced = out.back().ranks;
        }
        return out;
    }
    Scorer s{ctx, {}, {}, {}};
    flagLinks(ctx, soFar, s);
    std::vector<SwitchRoutes> tables;
    if (auto snap = store.latestSnapshot()) tables = store.routes(snap->id);
    const HostPlaces& places = ctx.hostPlaces();
    const ProbeRouter router(places, tables, static_cast<std::size_t>(std::max(1, ctx.config().stragglerPath.maxRoutes)));
    for (const StoredJob& sj : jobs) out.push_back(routeJob(ctx, router, places.hosts(), sj, s));
    return out;
}

} // namespace fabscope
