// Single points of stress: every top-tier switch failed in turn with the what-if model, then one
// uplink of each leaf's uplink group.
#include "core/report/stress.h"

#include "core/analysis/analyze.h"
#include "core/analysis/port_load.h"
#include "core/analysis/probe_pairs.h"
#include "core/tiers.h"
#include "core/whatif/whatif_model.h"
#include "core/worker_threads.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

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

// Runs the change on the context and fills the row; false when it names nothing to fail.
bool evaluate(const WhatIfModel& model, SwitchStress& s, const WhatIfChange& change) {
    try {
        s.report = whatIf(model, {change});
    } catch (const WhatIfError&) {
        return false;  // a name that resolves elsewhere or no links: nothing to say about it
    }
    s.loadGbps = 0;
    for (const WhatIfLink& l : s.report.links)
        if (l.failed) {
            s.loadGbps += l.before.p95Gbps;
            if (!s.port.empty() && l.ports.size() == 2 && l.ports[0].port == s.port &&
                (s.guid.empty() ? l.ports[0].node == s.node : l.ports[0].guid == s.guid))
                s.failedUplink = l;  // its up direction
        }
    summarise(s);
    return true;
}

// Each row's change (a top-tier switch, or a leaf's uplink when the row names a port) on the
// worker threads, sharing the model; the rows whose change names nothing are dropped. The rows
// come back in their order, each the same as one thread alone gives: a change's figures depend
// on the change and the model's fixed data, never on what ran before it. At k=48 a change takes
// ~0.2-0.3 s and the section up to 96 of them. With tables only: an ECMP change reads a few
// hundred directions' load, fewer than reading every direction first for the threads would.
// `progress` is told on this thread, after each of its own changes and once at the end.
std::vector<SwitchStress> evaluateAll(const WhatIfModel& model, std::vector<SwitchStress> rows, const std::atomic<bool>* cancel,
                                      const std::string& kind, const StressProgress& progress) {
    const std::size_t threads = model.routing() == "lft" ? std::min(workerThreads(), rows.size()) : 1;
    if (progress) progress(kind, 0, rows.size());
    if (threads > 1) model.prepareForThreads();
    std::vector<char> named(rows.size(), 0);
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failed;
    std::mutex failedMutex;
    const auto work = [&](bool tells) {
        try {
            for (std::size_t k = next++; k < rows.size() && !stop; k = next++) {
                if (cancel && cancel->load()) throw AnalysisCancelled();
                SwitchStress& s = rows[k];
                // By GUID when it has one: descriptions need not be unique.
                const WhatIfChange change{WhatIfChange::Fail, s.guid.empty() ? s.node : s.guid, s.port, ""};
                named[k] = evaluate(model, s, change);
                const std::size_t n = ++done;
                if (tells && progress && n < rows.size()) progress(kind, n, rows.size());
            }
        } catch (...) {
            const std::lock_guard lock(failedMutex);
            if (!failed) failed = std::current_exception();
            stop = true;
        }
    };
    {
        std::vector<std::jthread> others;
        for (std::size_t t = 1; t < threads; ++t) others.emplace_back(work, false);
        work(progress != nullptr);
    }
    if (failed) std::rethrow_exception(failed);
    if (progress) progress(kind, rows.size(), rows.size());
    std::vector<SwitchStress> out;
    for (std::size_t k = 0; k < rows.size(); ++k)
        if (named[k]) out.push_back(std::move(rows[k]));
    return out;
}

void worstFirst(std::vector<SwitchStress>& rows) {
    const auto worstAfter = [](const SwitchStress& s) { return s.worst ? s.worst->after.p95Util() : 0.0; };
    std::stable_sort(rows.begin(), rows.end(), [&](const SwitchStress& a, const SwitchStress& b) {
        if (worstAfter(a) != worstAfter(b)) return worstAfter(a) > worstAfter(b);
        return a.report.disconnected.size() > b.report.disconnected.size();
    });
}

// Each leaf (tier 1) with links one tier up loses its most loaded uplink (p95 of both directions;
// the first in link order on a tie). At most `limit` leaves, the most loaded groups when more.
void uplinkGroups(const WhatIfModel& model, const std::vector<int>& tiers, std::size_t limit, StressReport& r,
                  const std::atomic<bool>* cancel, const StressProgress& progress) {
    const AnalysisContext& ctx = model.context();
    const Fabric& f = ctx.fabric();
    struct Group {
        SwitchStress row;
        double load = 0, best = -1;
    };
    std::vector<std::optional<Group>> byNode(f.nodes.size());
    for (const Link& l : f.links) {
        for (const bool aIsLeaf : {true, false}) {
            const PortId mine = aIsLeaf ? l.a : l.b, theirs = aIsLeaf ? l.b : l.a;
            const NodeId leaf = f.port(mine).node, upper = f.port(theirs).node;
            if (f.node(leaf).type != NodeType::Switch || tiers[leaf.value()] != 1 || f.node(upper).type != NodeType::Switch ||
                tiers[upper.value()] <= 1)
                continue;
            auto& g = byNode[leaf.value()];
            if (!g) {
                g.emplace();
                g->row.node = f.node(leaf).description;
                g->row.guid = f.node(leaf).guid;
            }
            const double load = p95Gbps(ctx, mine, theirs) + p95Gbps(ctx, theirs, mine);
            g->load += load;
            ++g->row.uplinks;
            if (load > g->best) {
                g->best = load;
                g->row.port = f.port(mine).name;
            }
        }
    }
    std::vector<Group> groups;
    for (auto& g : byNode)
        if (g) groups.push_back(std::move(*g));
    r.uplinkGroups = groups.size();
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.row.node < b.row.node; });
    if (groups.size() > limit) {
        r.uplinksByLoad = true;
        std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.load > b.load; });
        groups.resize(limit);
    }
    std::vector<SwitchStress> rows;
    for (Group& g : groups) rows.push_back(std::move(g.row));
    r.uplinkRows = evaluateAll(model, std::move(rows), cancel, "leaf uplink", progress);
    worstFirst(r.uplinkRows);
}

} // namespace

StressReport singlePointsOfStress(const AnalysisContext& ctx, bool measured, std::size_t limit, std::size_t uplinkLimit,
                                  const std::atomic<bool>* cancel, const StressProgress& progress) {
    StressReport r;
    r.limit = limit;
    const Fabric& f = ctx.fabric();
    if (!measured || f.links.empty() || (limit == 0 && uplinkLimit == 0)) return r;
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
    if (limit > 0 && top.size() > limit) {
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
    if (limit == 0) order.clear();

    // One model for every change: the tables, jobs and measured load are read once.
    const WhatIfModel model(ctx);
    std::vector<SwitchStress> chosen;
    for (std::size_t k : order) chosen.push_back(std::move(rows[k]));
    r.rows = evaluateAll(model, std::move(chosen), cancel, "top-tier switch", progress);
    worstFirst(r.rows);
    if (uplinkLimit > 0) uplinkGroups(model, tiers, uplinkLimit, r, cancel, progress);
    return r;
}

} // namespace fabscope
