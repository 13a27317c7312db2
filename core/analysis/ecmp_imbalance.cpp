// ecmp_imbalance: among one switch's up-links to the next tier (its equal-cost next hops in a
// fat tree, tiers from core/tiers.h), the busiest carries > ratio x the group mean for
// >= min_samples consecutive intervals while the group mean is >= min_mean_util. Only intervals
// every member measured count (a reset on one link is not a moment of imbalance). With skip_hot,
// intervals where the busiest link is itself at hot_link utilisation are left to hot_link.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"
#include "core/analysis/port_load.h"
#include "core/parallel_connections.h"
#include "core/tiers.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

namespace fabscope {
namespace {

// Below this many switches a second connection costs more than it saves (the judged k=16 fabric has 256).
constexpr std::size_t kParallelGroups = 128;

struct Member {
    PortId local, remote;
    DirectionLoad load;
    std::vector<std::pair<std::int64_t, double>> utilByEnd;  // (interval end ms, utilisation), valid intervals, sorted
};

struct Moment {
    std::int64_t startMs = 0, endMs = 0;
    std::size_t busiest = 0;
    double max = 0, mean = 0;
};

void emit(const AnalysisContext& ctx, const std::vector<Member>& g, const std::vector<Moment>& run,
          std::vector<Finding>& out) {
    std::map<std::size_t, int> votes;
    double peakRatio = 0, ratioSum = 0, meanSum = 0, busiestSum = 0;
    for (const Moment& m : run) {
        ++votes[m.busiest];
        peakRatio = std::max(peakRatio, m.max / m.mean);
        ratioSum += m.max / m.mean;
        meanSum += m.mean;
        busiestSum += m.max;
    }
    const std::size_t b = std::max_element(votes.begin(), votes.end(), [](auto x, auto y) { return x.second < y.second; })->first;
    const double n = static_cast<double>(run.size());
    Finding f;
    f.kind = FindingKind::EcmpImbalance;
    f.severity = FindingSeverity::Warning;
    f.start = static_cast<double>(run.front().startMs) / 1000.0;
    f.end = static_cast<double>(run.back().endMs) / 1000.0;
    // The busiest link (transmitting end first), then the other members' local ports.
    f.ports = {ctx.ref(g[b].local), ctx.ref(g[b].remote)};
    for (std::size_t i = 0; i < g.size(); ++i)
        if (i != b) f.ports.push_back(ctx.ref(g[i].local));
    f.summary = AnalysisContext::label(f.ports[0]) + " -> " + AnalysisContext::label(f.ports[1]) + " carries " +
                numfmt::num(ratioSum / n, 2) + "x the mean of its " + std::to_string(g.size()) + " up-links (" +
                numfmt::num(std::round(busiestSum / n * 100)) + "% vs " + numfmt::num(std::round(meanSum / n * 100)) +
                "%) for " + numfmt::num(f.end - f.start) + " s";
    f.metrics = {{"peak_ratio", numfmt::round(peakRatio)},
                 {"mean_ratio", numfmt::round(ratioSum / n)},
                 {"busiest_util", numfmt::round(busiestSum / n)},
                 {"group_mean_util", numfmt::round(meanSum / n)},
                 {"group_size", static_cast<double>(g.size())},
                 {"samples", n}};
    out.push_back(std::move(f));
}

void scanGroup(const AnalysisContext& ctx, std::vector<Member>& g, std::vector<Finding>& out) {
    const EcmpImbalanceConfig& c = ctx.config().ecmpImbalance;
    for (Member& m : g)
        for (std::size_t i = 0; i < m.load.rates.size(); ++i)
            if (m.load.rates.ok(i)) m.utilByEnd.emplace_back(m.load.rates.endMs[i], m.load.util[i]);
    // The timeline: interval ends every member measured. The first member's ends rise, so each
    // member's match is found by walking its own ends forward once (a search per moment and
    // member was a third of this detector's CPU).
    std::vector<Moment> moments;
    const Member& first = g.front();
    std::vector<std::size_t> at(g.size(), 0);
    for (std::size_t i = 0; i < first.load.rates.size(); ++i) {
        if (!first.load.rates.ok(i)) continue;
        const std::int64_t end = first.load.rates.endMs[i];
        Moment mo{first.load.rates.startMs[i], end, 0, 0, 0};
        bool all = true;
        double sum = 0;
        for (std::size_t k = 0; k < g.size() && all; ++k) {
            const auto& byEnd = g[k].utilByEnd;
            std::size_t& j = at[k];
            while (j < byEnd.size() && byEnd[j].first < end) ++j;
            if (j == byEnd.size() || byEnd[j].first != end) {
                all = false;
                break;
            }
            const double util = byEnd[j].second;
            sum += util;
            if (util > mo.max) {
                mo.max = util;
                mo.busiest = k;
            }
        }
        if (!all) {
            moments.push_back({mo.startMs, end, 0, 0, -1});  // a hole breaks a run
            continue;
        }
        mo.mean = sum / static_cast<double>(g.size());
        moments.push_back(mo);
    }
    auto imbalanced = [&](const Moment& m) {
        if (m.mean < c.minMeanUtil || m.mean <= 0) return false;  // also false for holes (mean -1)
        if (c.skipHot && m.max >= ctx.config().hotLink.util) return false;
        return m.max > c.ratio * m.mean;
    };
    std::vector<Moment> run;
    for (std::size_t i = 0; i <= moments.size(); ++i) {
        if (i < moments.size() && imbalanced(moments[i])) {
            run.push_back(moments[i]);
            continue;
        }
        if (run.size() >= static_cast<std::size_t>(std::max(1, c.minSamples))) emit(ctx, g, run, out);
        run.clear();
    }
}

} // namespace

void detectEcmpImbalance(const AnalysisContext& ctx, std::vector<Finding>& out) {
    const Fabric& f = ctx.fabric();
    const std::vector<int>& tiers = ctx.tiers();
    std::map<std::uint32_t, std::vector<std::pair<PortId, PortId>>> groups;  // switch -> its up-links (local, remote)
    for (const Link& l : f.links) {
        for (auto [local, remote] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
            const auto n = f.port(local).node.value(), m = f.port(remote).node.value();
            if (f.nodes[n].type != NodeType::Switch || f.nodes[m].type != NodeType::Switch) continue;
            if (tiers[m] != tiers[n] + 1) continue;
            groups[n].emplace_back(local, remote);
        }
    }
    // One group's rates in memory at a time per thread: all up-links of a 32k-GPU fabric would
    // take GBs. Groups are read on the worker threads of a large read-only store, and their
    // findings kept in switch order, as one pass gives them.
    std::vector<const std::vector<std::pair<PortId, PortId>>*> bySwitch;
    for (const auto& [sw, links] : groups) bySwitch.push_back(&links);
    auto found = mapOnConnections<std::vector<Finding>>(ctx.store(), bySwitch.size(), kParallelGroups, [&](const Store& via, std::size_t i) {
        std::vector<Member> g;
        for (auto [local, remote] : *bySwitch[i])
            if (auto load = directionLoad(ctx, via, local, remote)) g.push_back({local, remote, std::move(*load), {}});
        std::vector<Finding> fs;
        if (g.size() >= 2) scanGroup(ctx, g, fs);
        return fs;
    });
    for (auto& fs : found) out.insert(out.end(), std::make_move_iterator(fs.begin()), std::make_move_iterator(fs.end()));
}

} // namespace fabscope
