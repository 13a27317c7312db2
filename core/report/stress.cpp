// Single points of stress: every top-tier switch failed in turn with the what-if model.
#include "core/report/stress.h"

#include "core/analysis/analyze.h"
#include "core/analysis/port_load.h"
#include "core/analysis/probe_pairs.h"
#include "core/tiers.h"

#include <algorithm>

namespace fabscope {
namespace {

// p95 of a direction's valid utilisation samples, in Gb/s; 0 without counters.
double p95Gbps(const AnalysisContext& ctx, PortId tx, PortId rx) {
    const auto load = directionLoad(ctx, tx, rx);
    if (!load) return 0;
    std::vector<double> ok;
    for (std::size_t i = 0; i < load->util.size(); ++i)
        if (load->rates.ok(i)) ok.push_back(load->util[i]);
    if (ok.empty()) return 0;
    std::sort(ok.begin(), ok.end());
    return percentile(ok, 0.95) * load->capacityBps / 1e9;
}

bool sameLink(const WhatIfLink& a, const WhatIfLink& b) {
    return a.ports.size() == 2 && b.ports.size() == 2 &&
           ((a.ports[0] == b.ports[0] && a.ports[1] == b.ports[1]) || (a.ports[0] == b.ports[1] && a.ports[1] == b.ports[0]));
}

void summarise(SwitchStress& s) {
    std::vector<const WhatIfLink*> failed;
    for (const WhatIfLink& l : s.report.links) {
        if (l.failed) {
            if (std::none_of(failed.begin(), failed.end(), [&](const WhatIfLink* f) { return sameLink(*f, l); })) failed.push_back(&l);
            continue;
        }
        s.turningHot += l.turnsHot;
        if (!s.worst || l.after.p95Util() > s.worst->after.p95Util()) s.worst = l;
    }
    s.linksFailed = failed.size();
    for (const JobImpact& j : s.report.jobs) {
        s.gpuHoursAtRisk += j.gpuHoursAtRisk;
        const bool worse = !s.worstJob || (j.disconnected && !s.worstJob->disconnected) ||
                           (j.disconnected == s.worstJob->disconnected && j.slowdown > s.worstJob->slowdown);
        if (worse) s.worstJob = j;
    }
}

} // namespace

StressReport singlePointsOfStress(const AnalysisContext& ctx, bool measured, std::size_t limit, const std::atomic<bool>* cancel) {
    StressReport r;
    r.limit = limit;
    const Fabric& f = ctx.fabric();
    if (!measured || f.links.empty() || limit == 0) return r;
    const std::vector<int> tiers = computeTiers(f);
    std::vector<NodeId> top;
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        if (f.nodes[i].type != NodeType::Switch || tiers[i] < r.tier) continue;
        if (tiers[i] > r.tier) {
            r.tier = tiers[i];
            top.clear();
        }
        top.emplace_back(static_cast<std::uint32_t>(i));
    }
    // A fabric of leaves only (tier 1) has no switch whose load can move elsewhere.
    if (r.tier < 2) return r;
    r.evaluated = true;
    r.topTierSwitches = top.size();

    std::vector<SwitchStress> rows(top.size());
    for (std::size_t k = 0; k < top.size(); ++k) {
        rows[k].node = f.node(top[k]).description;
        rows[k].guid = f.node(top[k]).guid;
    }
    std::vector<std::size_t> order(top.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    const auto byName = [&](std::size_t a, std::size_t b) { return rows[a].node < rows[b].node; };
    if (top.size() > limit) {
        r.byLoad = true;
        std::vector<double> load(f.nodes.size(), 0);
        for (const Link& l : f.links) {
            const NodeId na = f.port(l.a).node, nb = f.port(l.b).node;
            const bool topA = tiers[na.value()] == r.tier && f.node(na).type == NodeType::Switch;
            const bool topB = tiers[nb.value()] == r.tier && f.node(nb).type == NodeType::Switch;
            if (!topA && !topB) continue;
            const double both = p95Gbps(ctx, l.a, l.b) + p95Gbps(ctx, l.b, l.a);
            if (topA) load[na.value()] += both;
            if (topB) load[nb.value()] += both;
        }
        for (std::size_t k = 0; k < top.size(); ++k) rows[k].loadGbps = load[top[k].value()];
        std::stable_sort(order.begin(), order.end(), byName);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rows[a].loadGbps > rows[b].loadGbps; });
        order.resize(limit);
    }
    std::sort(order.begin(), order.end(), byName);

    for (std::size_t k : order) {
        if (cancel && cancel->load()) throw AnalysisCancelled();
        SwitchStress s = std::move(rows[k]);
        // By GUID when it has one: descriptions need not be unique.
        const WhatIfChange change{WhatIfChange::Fail, s.guid.empty() ? s.node : s.guid, "", ""};
        try {
            s.report = whatIf(ctx, {change});
        } catch (const WhatIfError&) {
            continue;  // a name that resolves elsewhere or no links: nothing to say about it
        }
        s.loadGbps = 0;
        for (const WhatIfLink& l : s.report.links)
            if (l.failed) s.loadGbps += l.before.p95Gbps;
        summarise(s);
        r.rows.push_back(std::move(s));
    }
    const auto worstAfter = [](const SwitchStress& s) { return s.worst ? s.worst->after.p95Util() : 0.0; };
    std::stable_sort(r.rows.begin(), r.rows.end(), [&](const SwitchStress& a, const SwitchStress& b) {
        if (worstAfter(a) != worstAfter(b)) return worstAfter(a) > worstAfter(b);
        return a.report.disconnected.size() > b.report.disconnected.size();
    });
    return r;
}

} // namespace fabscope
