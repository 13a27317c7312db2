// slow_pair and slow_host from pairwise benchmarks (pair_benchmarks.h): one slow_pair per host
// pair with a slow or failed run, all its runs' evidence together (several benchmarks agreeing
// make it critical), and one slow_host per host named by the binomial test. With a topology,
// the pairs no slow host explains vote on the links of their routes (link_voting.h), as probe
// pairs do: a blamed link is a lossy_link with reason "bandwidth".
#include "core/analysis/detectors.h"
#include "core/analysis/equal_cost_paths.h"
#include "core/analysis/format.h"
#include "core/analysis/host_places.h"
#include "core/analysis/link_voting.h"
#include "core/analysis/pair_benchmarks.h"
#include "core/analysis/probe_routes.h"
#include "core/analysis/rank_hosts.h"
#include "core/analysis/voting_routes.h"
#include "core/natural_order.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace fabscope {
namespace {

std::string pValueText(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, p < 0.001 ? "%.1e" : "%.3f", p);
    return buf;
}

std::string percent(double share) { return numfmt::num(share * 100) + "%"; }

Finding slowPair(const AnalysisContext& ctx, const HostPlaces& places, const PairBenchmarks& pb, const std::vector<std::size_t>& runs,
                 const std::set<std::string>& slowHosts) {
    const PairRun& first = pb.runs[runs.front()];
    Finding f;
    f.kind = FindingKind::SlowPair;
    f.start = f.end = first.time;
    std::size_t slow = 0, failed = 0;
    std::set<std::string> badTools;
    std::string badRuns, failures;
    const PairRun* worst = nullptr;
    for (std::size_t i : runs) {
        const PairRun& r = pb.runs[i];
        f.start = std::min(f.start, r.time);
        f.end = std::max(f.end, r.time);
        if (!r.bad()) continue;
        badTools.insert(r.tool);
        badRuns += (badRuns.empty() ? "" : ",") + r.label();
        if (r.failed()) {
            ++failed;
            failures += (failures.empty() ? "" : "; ") + r.label() + ": " + r.failure;
        } else {
            ++slow;
            if (!worst || *r.ratio < *worst->ratio) worst = &r;
        }
    }
    const Fabric& fabric = ctx.fabric();
    const auto a = places.hosts().port(first.hostA), b = places.hosts().port(first.hostB);
    if (a && b) {
        f.ports = {ctx.ref(*a), ctx.ref(*b)};
        const auto routes = places.router().routes(fabric.port(*a).node, fabric.port(*b).node, 1);
        if (!routes.empty())
            for (const Hop& h : routes.front()) {
                f.path.push_back(ctx.ref(h.tx));
                f.path.push_back(ctx.ref(h.rx));
            }
    }
    std::string host;  // the pair's end named a slow host, if any
    for (const std::string* h : {&first.hostA, &first.hostB})
        if (slowHosts.count(*h)) host = *h;

    std::string s = first.hostA + " <-> " + first.hostB + ": ";
    if (slow) s += std::to_string(slow) + " of " + std::to_string(runs.size()) + " runs slow";
    if (failed) s += std::string(slow ? ", " : "") + std::to_string(failed) + " failed (" + failures + ")";
    if (worst) {
        const PairClass& pc = pb.classes[worst->classIndex];
        s += "; worst " + worst->label() + " " + numfmt::num(*worst->figureGBs) + " GB/s busbw, " + percent(*worst->ratio) +
             " of its class median " + numfmt::num(*pc.medianGBs) + " GB/s over " + std::to_string(pc.goodRuns) + " runs";
    }
    if (badTools.size() > 1) s += "; " + std::to_string(badTools.size()) + " benchmarks agree";
    if (!host.empty()) s += "; " + host + " is a slow host";
    f.summary = s;
    f.severity = failed > 0 || badTools.size() > 1 ? FindingSeverity::Critical : FindingSeverity::Warning;

    f.metrics = {{"src", first.hostA},
                 {"dst", first.hostB},
                 {"runs", static_cast<double>(runs.size())},
                 {"slow_runs", static_cast<double>(slow)},
                 {"failed_runs", static_cast<double>(failed)},
                 {"failed", failed > 0 ? 1.0 : 0.0},
                 {"bad_runs", badRuns},
                 {"benchmarks_agreeing", static_cast<double>(badTools.size())}};
    if (worst) {
        const PairClass& pc = pb.classes[worst->classIndex];
        f.metrics.emplace_back("worst_run", worst->label());
        f.metrics.emplace_back("busbw_gbs", numfmt::round(*worst->figureGBs));
        f.metrics.emplace_back("class_median_gbs", numfmt::round(*pc.medianGBs));
        f.metrics.emplace_back("ratio", numfmt::round(*worst->ratio));
        f.metrics.emplace_back("class_runs", static_cast<double>(pc.goodRuns));
    }
    if (!failures.empty()) f.metrics.emplace_back("failures", failures);
    const PairDistance d = pb.classes[first.classIndex].distance;
    if (d != PairDistance::Unknown) f.metrics.emplace_back("distance", std::string(toString(d)));
    if (!host.empty()) f.metrics.emplace_back("slow_host", host);
    f.metrics.emplace_back("source", std::string("benchmarks"));
    return f;
}

Finding slowHost(const AnalysisContext& ctx, const RankHosts& hosts, const PairBenchmarks& pb, const HostVerdict& v) {
    Finding f;
    f.kind = FindingKind::SlowHost;
    f.severity = FindingSeverity::Critical;
    bool any = false;
    for (const PairRun& r : pb.runs)
        if (r.hostA == v.host || r.hostB == v.host) {
            f.start = any ? std::min(f.start, r.time) : r.time;
            f.end = any ? std::max(f.end, r.time) : r.time;
            any = true;
        }
    if (const auto p = hosts.port(v.host)) f.ports = {ctx.ref(*p)};
    const double share = v.runs ? static_cast<double>(v.badRuns()) / static_cast<double>(v.runs) : 0;
    f.summary = v.host + " is in " + std::to_string(v.badRuns()) + " slow or failed runs of its " + std::to_string(v.runs) +
                " (" + percent(share) + ", against " + percent(v.expectedShare) + " for the other hosts; binomial p = " +
                pValueText(v.pValue) + "), with " + std::to_string(v.badPeers) + " of its " + std::to_string(v.peers) +
                " peers: the host, its NIC or its own cable, not the pairs' links";
    f.metrics = {{"host", v.host},
                 {"runs", static_cast<double>(v.runs)},
                 {"bad_runs", static_cast<double>(v.badRuns())},
                 {"slow_runs", static_cast<double>(v.slowRuns)},
                 {"failed_runs", static_cast<double>(v.failedRuns)},
                 {"share", numfmt::round(share)},
                 {"expected_share", numfmt::round(v.expectedShare)},
                 {"p_value", numfmt::round(std::max(v.pValue, 1e-300))},
                 {"peers", static_cast<double>(v.peers)},
                 {"bad_peers", static_cast<double>(v.badPeers)},
                 {"source", std::string("benchmarks")}};
    return f;
}

using PairKey = std::pair<std::string, std::string>;

// The blamed links as lossy_link findings; `blamedOf` gets, per explained pair, the link's label.
void blameBenchmarkLinks(const Store& store, const AnalysisContext& ctx, const HostPlaces& places, const PairBenchmarks& pb,
                const std::map<PairKey, std::vector<std::size_t>>& byPair, const std::set<std::string>& slowHosts,
                std::vector<Finding>& out, std::map<PairKey, std::string>& blamedOf) {
    const Fabric& fabric = ctx.fabric();
    if (fabric.nodes.empty()) return;
    const AnalysisConfig& cfg = ctx.config();
    std::vector<SwitchRoutes> tables;
    if (auto snap = store.latestSnapshot()) tables = store.routes(snap->id);
    const ProbeRouter router(places, tables, static_cast<std::size_t>(cfg.lossyLink.maxRoutes));
    std::vector<VotingPair> votes;
    std::vector<const PairKey*> keys;
    std::vector<bool> failed;
    RouteSource source = RouteSource::EqualCost;
    for (const auto& [key, runs] : byPair) {
        if (slowHosts.count(key.first) || slowHosts.count(key.second)) continue;  // the host explains them
        const auto a = router.hostPort(key.first), b = router.hostPort(key.second);
        if (!a || !b || *a == *b) continue;
        VotingPair v;
        v.bad = std::any_of(runs.begin(), runs.end(), [&](std::size_t i) { return pb.runs[i].bad(); });
        const ProbeRoutes there = router.routes(*a, *b, {}), back = router.routes(*b, *a, {});
        if (there.routes.empty()) continue;
        source = there.source;
        v.forward = votingRoutes(there, ctx);
        v.reply = votingRoutes(back, ctx);
        votes.push_back(std::move(v));
        keys.push_back(&key);
        failed.push_back(std::any_of(runs.begin(), runs.end(), [&](std::size_t i) { return pb.runs[i].failed(); }));
    }
    const std::vector<int>& tier = ctx.tiers();
    for (const BlamedLinks& b : fabscope::blameLinks(votes, cfg.lossyLink.minBadVotes, cfg.lossyLink.maxGoodShare)) {
        Finding f;
        f.kind = FindingKind::LossyLink;
        std::vector<std::pair<PortRef, PortRef>> ends;
        for (auto l : b.links) {  // the end nearer the hosts first
            PortId x = fabric.link(LinkId(l)).a, y = fabric.link(LinkId(l)).b;
            if (tier[fabric.port(y).node.value()] < tier[fabric.port(x).node.value()]) std::swap(x, y);
            ends.emplace_back(ctx.ref(x), ctx.ref(y));
        }
        std::sort(ends.begin(), ends.end(), [](const auto& p, const auto& q) {
            return p.first.node != q.first.node ? naturalLess(p.first.node, q.first.node) : naturalLess(p.first.port, q.first.port);
        });
        std::string names;
        for (const auto& [x, y] : ends) {
            f.ports.push_back(x);
            f.ports.push_back(y);
            names += (names.empty() ? "" : ", ") + AnalysisContext::label(x) + " <-> " + AnalysisContext::label(y);
        }
        const std::string link = b.links.size() > 1 ? "one of " + std::to_string(b.links.size()) + " links: " + names : names;
        bool anyFailed = false, anyTime = false;
        for (auto i : b.explained) {
            anyFailed = anyFailed || failed[i];
            blamedOf[*keys[i]] = link;
            for (std::size_t r : byPair.at(*keys[i])) {
                f.start = anyTime ? std::min(f.start, pb.runs[r].time) : pb.runs[r].time;
                f.end = anyTime ? std::max(f.end, pb.runs[r].time) : pb.runs[r].time;
                anyTime = true;
            }
        }
        const std::string evidence = std::to_string(b.explained.size()) + " host pairs slow or failed in benchmarks cross " +
                                     (b.links.size() > 1 ? "them" : "it") + "; " + std::to_string(b.goodPairs) +
                                     " host pairs with good runs certainly cross " + (b.links.size() > 1 ? "them" : "it");
        f.summary = b.links.size() > 1 ? "one of " + std::to_string(b.links.size()) +
                                             " links the benchmarks cannot tell apart (they carry the same pairs): " + names + "; " + evidence
                                       : names + ": " + evidence;
        f.severity = anyFailed ? FindingSeverity::Critical : FindingSeverity::Warning;
        f.metrics = {{"link", link},
                     {"bad_votes", numfmt::round(b.badVotes)},
                     {"good_votes", numfmt::round(b.goodVotes)},
                     {"bad_pairs", static_cast<double>(b.explained.size())},
                     {"good_pairs", static_cast<double>(b.goodPairs)},
                     {"candidates", static_cast<double>(b.links.size())},
                     {"routes_from", std::string(toString(source))},
                     {"reason", std::string("bandwidth")},
                     {"source", std::string("benchmarks")}};
        out.push_back(std::move(f));
    }
}

} // namespace

void detectPairBenchmarks(const Store& store, const AnalysisContext& ctx, std::vector<Finding>& out) {
    const auto runs = loadCollectiveRuns(store);
    if (runs.empty()) return;
    const HostPlaces& places = ctx.hostPlaces();  // one index for verdicts and findings
    const PairBenchmarks pb = judgePairBenchmarks(runs, places, ctx.config().pairBenchmark);
    std::set<std::string> slowHosts;
    for (const HostVerdict& v : pb.verdicts)
        if (v.slow) {
            slowHosts.insert(v.host);
            out.push_back(slowHost(ctx, places.hosts(), pb, v));
        }
    std::map<PairKey, std::vector<std::size_t>> byPair;
    for (std::size_t i = 0; i < pb.runs.size(); ++i) {
        const PairRun& r = pb.runs[i];
        byPair[std::minmax(r.hostA, r.hostB)].push_back(i);
    }
    std::map<PairKey, std::string> blamedOf;
    blameBenchmarkLinks(store, ctx, places, pb, byPair, slowHosts, out, blamedOf);
    for (const auto& [pair, members] : byPair)
        if (std::any_of(members.begin(), members.end(), [&](std::size_t i) { return pb.runs[i].bad(); })) {
            out.push_back(slowPair(ctx, places, pb, members, slowHosts));
            if (const auto it = blamedOf.find(pair); it != blamedOf.end()) {
                out.back().metrics.emplace_back("blamed_link", it->second);
                out.back().summary += "; explained by " + it->second;
            }
        }
}

} // namespace fabscope
