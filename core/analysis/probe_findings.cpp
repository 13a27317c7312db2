// lossy_link and slow_pair: probe pairs (pingmesh, perftest) summarised over the window
// (probe_pairs.h), judged against their distance class (probe_outliers.h); bad pairs vote on
// the links of their routes (link_voting.h) and each blamed link, or tie of links the probes
// cannot tell apart, is a lossy_link. Outlier pairs that no blamed link explains, and pairs made
// slow by a slow host, are slow_pair findings with their route as `path`.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"
#include "core/analysis/host_places.h"
#include "core/analysis/link_voting.h"
#include "core/analysis/probe_outliers.h"
#include "core/analysis/probe_pairs.h"
#include "core/analysis/voting_routes.h"
#include "core/natural_order.h"
#include "core/store/probe_presence.h"
#include "core/tiers.h"

#include <algorithm>
#include <limits>
#include <set>

namespace fabscope {
namespace {

// Round trips cannot say which way a link dropped: the end nearer the hosts is listed first.
std::vector<PortRef> linkEnds(const AnalysisContext& ctx, const std::vector<int>& tier, std::uint32_t link) {
    const Link& l = ctx.fabric().link(LinkId(link));
    PortId a = l.a, b = l.b;
    if (tier[ctx.fabric().port(b).node.value()] < tier[ctx.fabric().port(a).node.value()]) std::swap(a, b);
    return {ctx.ref(a), ctx.ref(b)};
}

std::string linkLabel(const std::vector<PortRef>& ends) {
    return AnalysisContext::label(ends[0]) + " <-> " + AnalysisContext::label(ends[1]);
}

std::string percent(double share) { return numfmt::num(share * 100) + "%"; }

std::string sourcesOf(const std::vector<ProbePair>& pairs, const std::vector<std::size_t>& which) {
    std::set<std::string_view> s;
    for (auto i : which) {
        s.insert(toString(pairs[i].forward.source));
        s.insert(toString(pairs[i].reply.source));
    }
    std::string out;
    for (auto v : s) out += (out.empty() ? "" : ",") + std::string(v);
    return out;
}

Finding lossyLink(const AnalysisContext& ctx, const std::vector<int>& tier, const std::vector<ProbePair>& pairs,
                  const BlamedLinks& b) {
    const LossyLinkConfig& c = ctx.config().lossyLink;
    Finding f;
    f.kind = FindingKind::LossyLink;
    std::int64_t sent = 0, lost = 0;
    std::vector<double> p99;
    f.start = std::numeric_limits<double>::max();
    f.end = std::numeric_limits<double>::lowest();
    for (auto i : b.explained) {
        sent += pairs[i].sent;
        lost += pairs[i].lost;
        if (pairs[i].p99) p99.push_back(*pairs[i].p99);
        f.start = std::min(f.start, pairs[i].first);
        f.end = std::max(f.end, pairs[i].last);
    }
    std::sort(p99.begin(), p99.end());
    const double loss = sent > 0 ? static_cast<double>(lost) / static_cast<double>(sent) : 0;
    // Tied links in the order an engineer reads them: leaf02 p1 before leaf02 p2.
    std::vector<std::vector<PortRef>> members;
    for (auto l : b.links) members.push_back(linkEnds(ctx, tier, l));
    std::sort(members.begin(), members.end(), [](const auto& x, const auto& y) {
        return x[0].node != y[0].node ? naturalLess(x[0].node, y[0].node) : naturalLess(x[0].port, y[0].port);
    });
    std::string names;
    for (const auto& ends : members) {
        f.ports.insert(f.ports.end(), ends.begin(), ends.end());
        names += (names.empty() ? "" : ", ") + linkLabel(ends);
    }
    const std::string sources = sourcesOf(pairs, b.explained);
    const std::string evidence = std::to_string(b.explained.size()) + " probe pairs crossing " +
                                 (b.links.size() > 1 ? "them" : "it") + " lost " + percent(loss) + " of " +
                                 std::to_string(sent) + " probes" +
                                 (p99.empty() ? "" : " (median p99 RTT " + numfmt::num(percentile(p99, 0.5)) + " us)") + "; " +
                                 std::to_string(b.goodPairs) + " loss-free pairs certainly cross " +
                                 (b.links.size() > 1 ? "them" : "it");
    if (b.links.size() > 1)
        f.summary = "one of " + std::to_string(b.links.size()) + " links the probes cannot tell apart (" +
                    (sources.find("equal_cost") != std::string::npos ? "no path recorded, no forwarding tables: equal-cost routes"
                                                                    : "they carry the same probes") +
                    "): " + names + "; " + evidence;
    else
        f.summary = names + ": " + evidence;
    f.severity = loss >= c.criticalLoss ? FindingSeverity::Critical : FindingSeverity::Warning;
    f.metrics = {{"bad_votes", numfmt::round(b.badVotes)},
                 {"good_votes", numfmt::round(b.goodVotes)},
                 {"bad_pairs", static_cast<double>(b.explained.size())},
                 {"good_pairs", static_cast<double>(b.goodPairs)},
                 {"loss_rate", numfmt::round(loss)},
                 {"sent", static_cast<double>(sent)},
                 {"lost", static_cast<double>(lost)}};
    if (!p99.empty()) f.metrics.emplace_back("p99_us", numfmt::round(percentile(p99, 0.5)));
    f.metrics.emplace_back("candidates", static_cast<double>(b.links.size()));
    f.metrics.emplace_back("routes_from", sources);
    return f;
}

Finding slowPair(const AnalysisContext& ctx, const ProbePair& p, const PairVerdict& v, const std::vector<std::string>& reasons) {
    Finding f;
    f.kind = FindingKind::SlowPair;
    f.start = p.first;
    f.end = p.last;
    f.ports = {ctx.ref(p.srcPort), ctx.ref(p.dstPort)};
    if (!p.forward.routes.empty()) {
        // The route most probes took (the first of equal weight).
        const auto& best = *std::max_element(p.forward.routes.begin(), p.forward.routes.end(),
                                             [](const auto& a, const auto& b) { return a.weight < b.weight; });
        for (const Hop& h : best.hops) {
            f.path.push_back(ctx.ref(h.tx));
            f.path.push_back(ctx.ref(h.rx));
        }
    }
    std::string why;
    for (const auto& r : reasons) why += (why.empty() ? "" : ",") + r;
    const bool rtt = p.tool == "pingmesh";
    std::string s = p.src + " -> " + p.dst + " (" + std::string(describe(p.distance)) + ", " + p.tool +
                    (p.msgBytes ? " " + std::to_string(p.msgBytes) + " B" : "") + "):";
    if (p.p99)
        s += std::string(" p99 ") + (rtt ? "RTT " : "latency ") + numfmt::num(*p.p99) + " us" +
             (v.classP99 ? " vs a median of " + numfmt::num(*v.classP99) + " us" : "");
    if (auto j = p.jitter()) s += ", jitter " + numfmt::num(*j) + " us" + (v.classJitter ? " (median " + numfmt::num(*v.classJitter) + " us)" : "");
    if (p.sent > 0) s += ", loss " + percent(p.lossRate());
    if (p.bwGbps) s += " bandwidth " + numfmt::num(*p.bwGbps) + " Gb/s" + (v.classBwGbps ? " vs a median of " + numfmt::num(*v.classBwGbps) + " Gb/s" : "");
    s += " over " + std::to_string(v.classPairs) + " pairs at that distance";
    if (!v.slowHost.empty())
        s += "; " + v.slowHost + " is slow towards " + std::to_string(v.slowHostSlowPeers) + " of its " +
             std::to_string(v.slowHostPeers) + " pairs (the host, or its own link)";
    f.summary = s;
    const bool lossReason = std::find(reasons.begin(), reasons.end(), "loss") != reasons.end();
    f.severity = lossReason && p.lossRate() >= ctx.config().lossyLink.criticalLoss ? FindingSeverity::Critical : FindingSeverity::Warning;
    f.metrics = {{"src", p.src}, {"dst", p.dst}, {"tool", p.tool}, {"distance", std::string(toString(p.distance))}, {"reason", why}};
    auto add = [&](const char* k, const std::optional<double>& x) {
        if (x) f.metrics.emplace_back(k, numfmt::round(*x));
    };
    add("p50_us", p.p50);
    add("p99_us", p.p99);
    add("p999_us", p.p999);
    add("jitter_us", p.jitter());
    add("stdev_us", p.stdev);
    if (p.sent > 0) {
        f.metrics.emplace_back("loss_rate", numfmt::round(p.lossRate()));
        f.metrics.emplace_back("sent", static_cast<double>(p.sent));
        f.metrics.emplace_back("lost", static_cast<double>(p.lost));
    }
    add("bw_gbps", p.bwGbps);
    add("class_p99_us", v.classP99);
    add("class_jitter_us", v.classJitter);
    add("class_bw_gbps", v.classBwGbps);
    f.metrics.emplace_back("class_pairs", static_cast<double>(v.classPairs));
    if (p.msgBytes) f.metrics.emplace_back("msg_bytes", static_cast<double>(p.msgBytes));
    if (!v.slowHost.empty()) f.metrics.emplace_back("slow_host", v.slowHost);
    f.metrics.emplace_back("routes_from", std::string(toString(p.forward.source)));
    f.metrics.emplace_back("routes", static_cast<double>(p.forward.routes.size()));
    return f;
}

} // namespace

VotingPair::Routes votingRoutes(const ProbeRoutes& r, const AnalysisContext& ctx) {
    VotingPair::Routes out;
    for (const auto& w : r.routes) {
        std::vector<std::uint32_t> links;
        for (const Hop& h : w.hops)
            if (auto l = ctx.linkOf(h.tx)) links.push_back(l->value());
        out.emplace_back(w.weight, std::move(links));
    }
    return out;
}

void detectProbeFindings(const Store& store, const AnalysisContext& ctx, std::vector<Finding>& out) {
    if (ctx.fabric().nodes.empty()) return;
    const AnalysisConfig& cfg = ctx.config();
    // No host index is asked for when no probe falls in the window.
    if (!anyProbeIn(store, ctx.windowStart(), ctx.windowEnd())) return;
    const ProbePairs loaded = loadProbePairs(store, ctx.hostPlaces(), ctx.windowStart(), ctx.windowEnd(),
                                             static_cast<std::size_t>(cfg.lossyLink.maxRoutes));
    const std::vector<ProbePair>& pairs = loaded.pairs;
    if (pairs.empty()) return;
    const std::vector<PairVerdict> verdicts = judgePairs(pairs, cfg);

    // Latency a slow host explains does not vote against links.
    std::vector<VotingPair> votes(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const PairVerdict& v = verdicts[i];
        votes[i].bad = v.lossy || (v.latency() && v.slowHost.empty());
        votes[i].forward = votingRoutes(pairs[i].forward, ctx);
        votes[i].reply = votingRoutes(pairs[i].reply, ctx);
    }
    const auto blamed = blameLinks(votes, cfg.lossyLink.minBadVotes, cfg.lossyLink.maxGoodShare);
    const std::vector<int>& tier = ctx.tiers();
    std::vector<bool> explained(pairs.size(), false);
    for (const BlamedLinks& b : blamed) {
        out.push_back(lossyLink(ctx, tier, pairs, b));
        for (auto i : b.explained) explained[i] = true;
    }

    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const PairVerdict& v = verdicts[i];
        std::vector<std::string> reasons;
        const bool byLink = explained[i];
        if (v.slow && (!byLink || !v.slowHost.empty())) reasons.emplace_back("p99");
        if (v.jittery && (!byLink || !v.slowHost.empty())) reasons.emplace_back("jitter");
        if (v.lossy && !byLink) reasons.emplace_back("loss");
        if (v.lowBandwidth && !byLink) reasons.emplace_back("bandwidth");
        if (!reasons.empty()) out.push_back(slowPair(ctx, pairs[i], v, reasons));
    }
}

} // namespace fabscope
