// The what-if model (docs/ANALYSIS.md "What-if"): with a forwarding table for every switch, the
// load of what failed follows the tables' re-routing (whatif_lft.cpp); without, ECMP re-spreading
// onto the equal-cost alternatives one tier up, and the down traffic it carried onto the
// remaining top-tier switches. A degraded link keeps its load on less capacity.
#include "core/whatif/whatif.h"

#include "core/analysis/analyze.h"
#include "core/analysis/collective_bandwidth.h"
#include "core/analysis/context.h"
#include "core/analysis/equal_cost_paths.h"
#include "core/analysis/port_load.h"
#include "core/analysis/probe_pairs.h"
#include "core/analysis/rank_hosts.h"
#include "core/linkrate.h"
#include "core/parallel_connections.h"
#include "core/tiers.h"
#include "core/whatif/whatif_lft.h"
#include "core/whatif/whatif_model.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_set>

namespace fabscope {

using whatif_detail::Dir;
using whatif_detail::LftRouting;
using whatif_detail::LftTables;

// The fabric's shape, the measured load by direction (read as first asked) and what the store
// holds beside it (tables, jobs), shared by every change evaluated on the model.
struct WhatIfModel::Impl {
public:
    explicit Impl(const AnalysisContext& ctx)
        : ctx_(ctx), f_(ctx.fabric()), tier_(computeTiers(f_)), lft(LftTables::load(ctx)), jobs(loadJobs(ctx.store())) {
        linksOf_.resize(f_.nodes.size());
        for (std::size_t i = 0; i < f_.links.size(); ++i) {
            linksOf_[f_.port(f_.links[i].a).node.value()].push_back(static_cast<std::uint32_t>(i));
            linksOf_[f_.port(f_.links[i].b).node.value()].push_back(static_cast<std::uint32_t>(i));
        }
        for (std::size_t i = 0; i < f_.nodes.size(); ++i)
            if (f_.nodes[i].type == NodeType::Switch) top_ = std::max(top_, tier_[i]);
        use_.resize(f_.links.size() * 2);
    }

    std::optional<NodeId> node(const std::string& name) const {
        for (std::size_t i = 0; i < f_.nodes.size(); ++i) {
            const Node& n = f_.nodes[i];
            if (n.description == name || n.guid == name || (!n.systemName.empty() && n.systemName == name) ||
                (n.lid > 0 && std::to_string(n.lid) == name))
                return NodeId(static_cast<std::uint32_t>(i));
        }
        return std::nullopt;
    }
    const std::vector<std::uint32_t>& linksOf(NodeId n) const { return linksOf_[n.value()]; }
    NodeId nodeAt(std::uint32_t link, bool aEnd) const { return f_.port(aEnd ? f_.links[link].a : f_.links[link].b).node; }
    NodeId other(std::uint32_t link, NodeId n) const { return nodeAt(link, nodeAt(link, true) != n); }
    int tier(NodeId n) const { return tier_[n.value()]; }
    int top() const { return top_; }
    // The direction of `link` that leaves `from`.
    Dir from(std::uint32_t link, NodeId n) const { return {link, nodeAt(link, true) == n}; }

    const DirectionUse& use(Dir d) {
        std::optional<DirectionUse>& known = use_[std::size_t{d.first} * 2 + (d.second ? 1 : 0)];
        if (!known) known = measure(ctx_.store(), d);  // never after prepareForThreads: every one is known
        return *known;
    }

    // Every direction's use read now, on the worker threads through their own connections, and
    // the jobs' host index built: after it, changes may run on several threads at once.
    void prepareForThreads() {
        if (prepared_) return;
        hostNames();
        const auto all = mapOnConnections<DirectionUse>(ctx_.store(), use_.size(), kParallelSeries, [this](const Store& via, std::size_t k) {
            return measure(via, Dir{static_cast<std::uint32_t>(k / 2), (k & 1) != 0});
        });
        for (std::size_t k = 0; k < use_.size(); ++k)
            if (!use_[k]) use_[k] = all[k];
        prepared_ = true;
    }

    // The ECMP model's routes; the router keeps recent searches, so one thread at a time.
    std::vector<Route> routes(NodeId a, NodeId b) {
        const std::lock_guard lock(routerMutex_);
        if (!router_) router_ = std::make_unique<EqualCostRouter>(f_);
        return router_->routes(a, b, 16);
    }

    // The measured p95 and peak of direction `d` (read through `via`) and its capacity.
    DirectionUse measure(const Store& via, Dir d) const {
        const Link& l = f_.links[d.first];
        const PortId tx = d.second ? l.a : l.b, rx = d.second ? l.b : l.a;
        DirectionUse u;
        u.capacityGbps = static_cast<double>(l.capacityBps ? l.capacityBps : f_.port(tx).capacityBps) / 1e9;
        if (const auto load = directionLoad(ctx_, via, tx, rx)) {
            std::vector<double> ok;
            for (std::size_t i = 0; i < load->util.size(); ++i)
                if (load->rates.ok(i)) ok.push_back(load->util[i]);
            if (!ok.empty()) {
                std::sort(ok.begin(), ok.end());
                u.capacityGbps = load->capacityBps / 1e9;
                u.p95Gbps = percentile(ok, 0.95) * u.capacityGbps;
                u.peakGbps = ok.back() * u.capacityGbps;
            }
        }
        return u;
    }

    PortRef ref(Dir d, bool tx) const {
        const Link& l = f_.links[d.first];
        return ctx_.ref((d.second == tx) ? l.a : l.b);
    }

    const AnalysisContext& ctx() const { return ctx_; }
    // The jobs' hosts by name, indexed when a change first needs them (or prepareForThreads).
    const RankHosts& hostNames() {
        if (!hostNames_) hostNames_ = std::make_unique<RankHosts>(f_, findAggregationNodes(f_));
        return *hostNames_;
    }

private:
    const AnalysisContext& ctx_;
    const Fabric& f_;
    std::vector<int> tier_;
    int top_ = 1;
    std::vector<std::vector<std::uint32_t>> linksOf_;
    // By link * 2 + (transmits from `a`), filled as first asked: a change's re-routing asks it
    // for ~10^5 directions, where a std::map took an eighth of the k=48 stress section.
    std::vector<std::optional<DirectionUse>> use_;
    bool prepared_ = false;
    std::mutex routerMutex_;
    std::unique_ptr<EqualCostRouter> router_;
    std::unique_ptr<RankHosts> hostNames_;

public:
    const std::unique_ptr<LftTables> lft;  // null: not every switch has a table (the ECMP model)
    const std::vector<StoredJob> jobs;
};

WhatIfModel::WhatIfModel(const AnalysisContext& ctx) : impl_(std::make_unique<Impl>(ctx)) {}
WhatIfModel::~WhatIfModel() = default;
const AnalysisContext& WhatIfModel::context() const { return impl_->ctx(); }
std::string WhatIfModel::routing() const { return impl_->lft ? "lft" : "ecmp"; }
void WhatIfModel::prepareForThreads() const { impl_->prepareForThreads(); }

namespace {

struct Delta {
    double p95 = 0, peak = 0;
};

} // namespace

WhatIfReport whatIf(const Store& store, std::optional<double> from, std::optional<double> to, const std::vector<WhatIfChange>& changes,
                    const AnalysisConfig& config) {
    const auto [w0, w1] = resolveWindow(store, AnalysisWindow{from, to});
    const Store::ReadTransaction read(store);
    const AnalysisContext ctx(store, w0, w1, config);
    return whatIf(ctx, changes);
}

WhatIfReport whatIf(const AnalysisContext& ctx, const std::vector<WhatIfChange>& changes) {
    const WhatIfModel model(ctx);
    return whatIf(model, changes);
}

WhatIfReport whatIf(const WhatIfModel& model, const std::vector<WhatIfChange>& changes) {
    WhatIfModel::Impl& m = model.impl();
    const AnalysisContext& ctx = m.ctx();
    const AnalysisConfig& config = ctx.config();
    const double w0 = ctx.windowStart(), w1 = ctx.windowEnd();
    WhatIfReport r;
    r.changes = changes;
    r.windowStart = w0;
    r.windowEnd = w1;
    const Fabric& f = ctx.fabric();
    if (f.links.empty()) throw WhatIfError("the store holds no topology: import one first");

    // Resolve the changes to failed links and new capacities.
    std::set<std::uint32_t> failed;
    std::set<std::uint32_t> failedNodes;
    std::map<std::uint32_t, double> capacity;  // link -> Gb/s after a degrade
    for (const WhatIfChange& c : changes) {
        const auto n = m.node(c.node);
        if (!n) throw WhatIfError(c.label() + ": no node '" + c.node + "' in the fabric (a description, GUID or LID)");
        std::vector<std::uint32_t> links;
        for (std::uint32_t l : m.linksOf(*n)) {
            const Link& link = f.link(LinkId(l));
            const PortId mine = f.port(link.a).node == *n ? link.a : link.b;
            if (c.port.empty() || f.port(mine).name == c.port) links.push_back(l);
        }
        if (links.empty()) throw WhatIfError(c.label() + ": " + c.node + (c.port.empty() ? " has no links" : " has no linked port " + c.port));
        if (c.kind == WhatIfChange::Fail) {
            failed.insert(links.begin(), links.end());
            if (c.port.empty()) failedNodes.insert(n->value());
        } else {
            const auto ws = parseWidthSpeedToken(c.widthSpeed);
            const auto bps = ws ? capacityBps(ws->width, ws->speed) : 0;
            if (bps == 0) throw WhatIfError(c.label() + ": '" + c.widthSpeed + "' gives no capacity (e.g. 1xHDR, 2xNDR)");
            for (std::uint32_t l : links) capacity[l] = static_cast<double>(bps) / 1e9;
        }
    }

    std::map<Dir, Delta> delta;
    std::set<Dir> touched;
    const auto shift = [&](Dir d, double p95, double peak) {
        delta[d].p95 += p95;
        delta[d].peak += peak;
        touched.insert(d);
    };
    std::set<std::string> cutOff;
    const auto lft = m.lft ? std::make_unique<LftRouting>(*m.lft, failed, failedNodes) : nullptr;
    if (lft) {
        r.routing = "lft";
        for (std::uint32_t l : failed)
            for (const bool fromA : {true, false}) {
                const DirectionUse u = m.use({l, fromA});
                shift({l, fromA}, -u.p95Gbps, -u.peakGbps);
            }
        lft->moveLoad([&m](Dir d) { return m.use(d); }, shift);
        for (const auto& h : lft->disconnected()) cutOff.insert(h);
    }
    for (std::uint32_t l : lft ? std::set<std::uint32_t>{} : failed) {  // the ECMP model
        NodeId lower = m.nodeAt(l, true), upper = m.nodeAt(l, false);
        if (m.tier(lower) > m.tier(upper)) std::swap(lower, upper);
        const Dir up = m.from(l, lower), down = m.from(l, upper);
        const DirectionUse u = m.use(up), d = m.use(down);
        shift(up, -u.p95Gbps, -u.peakGbps);
        shift(down, -d.p95Gbps, -d.peakGbps);
        // The equal-cost alternatives: the lower node's other links one tier up.
        std::vector<std::uint32_t> siblings;
        for (std::uint32_t s : m.linksOf(lower))
            if (!failed.count(s) && m.tier(m.other(s, lower)) == m.tier(upper)) siblings.push_back(s);
        if (siblings.empty()) {
            const Node& ln = f.node(lower);
            if (ln.type != NodeType::Switch) cutOff.insert(ln.description);
            else
                for (std::uint32_t h : m.linksOf(lower))
                    if (f.node(m.other(h, lower)).type != NodeType::Switch) cutOff.insert(f.node(m.other(h, lower)).description);
            continue;
        }
        const double n = static_cast<double>(siblings.size());
        for (std::uint32_t s : siblings) {
            shift(m.from(s, lower), u.p95Gbps / n, u.peakGbps / n);
            shift(m.from(s, m.other(s, lower)), d.p95Gbps / n, d.peakGbps / n);
        }
        // Beyond a top-tier switch that stays up: the up traffic went down its other links and the
        // down traffic came up them; both now cross the siblings' upper switches instead.
        if (m.tier(upper) != m.top() || failedNodes.count(upper.value())) continue;
        std::vector<std::pair<std::uint32_t, NodeId>> beyond;  // upper's other live links and their far end
        double downSum = 0, upSum = 0;
        for (std::uint32_t b : m.linksOf(upper)) {
            const NodeId x = m.other(b, upper);
            if (b == l || failed.count(b) || x == lower) continue;
            beyond.emplace_back(b, x);
            downSum += m.use(m.from(b, upper)).p95Gbps;
            upSum += m.use(m.from(b, x)).p95Gbps;
        }
        for (const auto& [b, x] : beyond) {
            // The siblings' upper switches' links to x, all of them, or x keeps its share.
            std::vector<std::uint32_t> alt;
            for (std::uint32_t s : siblings)
                for (std::uint32_t y : m.linksOf(m.other(s, lower)))
                    if (!failed.count(y) && m.other(y, m.other(s, lower)) == x) {
                        alt.push_back(y);
                        break;
                    }
            if (alt.size() != siblings.size()) continue;
            const double wDown = downSum > 0 ? m.use(m.from(b, upper)).p95Gbps / downSum : 0;
            const double wUp = upSum > 0 ? m.use(m.from(b, x)).p95Gbps / upSum : 0;
            shift(m.from(b, upper), -u.p95Gbps * wDown, -u.peakGbps * wDown);
            shift(m.from(b, x), -d.p95Gbps * wUp, -d.peakGbps * wUp);
            for (std::uint32_t y : alt) {
                shift(m.from(y, m.other(y, x)), u.p95Gbps * wDown / n, u.peakGbps * wDown / n);
                shift(m.from(y, x), d.p95Gbps * wUp / n, d.peakGbps * wUp / n);
            }
        }
    }
    for (const auto& [l, gbps] : capacity) {
        touched.insert({l, true});
        touched.insert({l, false});
    }
    r.disconnected.assign(cutOff.begin(), cutOff.end());

    const auto after = [&](Dir d) {
        DirectionUse a = m.use(d);
        if (failed.count(d.first)) return DirectionUse{0, 0, 0};
        if (const auto it = delta.find(d); it != delta.end()) {
            a.p95Gbps = std::max(0.0, a.p95Gbps + it->second.p95);
            a.peakGbps = std::max(0.0, a.peakGbps + it->second.peak);
        }
        if (const auto it = capacity.find(d.first); it != capacity.end()) a.capacityGbps = it->second;
        return a;
    };
    const double hot = config.hotLink.util;
    for (const Dir& d : touched) {
        WhatIfLink wl;
        wl.ports = {m.ref(d, true), m.ref(d, false)};
        wl.before = m.use(d);
        wl.after = after(d);
        wl.failed = failed.count(d.first) > 0;
        wl.turnsHot = !wl.failed && wl.after.p95Util() >= hot && wl.before.p95Util() < hot;
        r.totalBeforeGbps += wl.before.p95Gbps;
        r.totalAfterGbps += wl.after.p95Gbps;
        r.links.push_back(std::move(wl));
    }
    std::sort(r.links.begin(), r.links.end(), [](const WhatIfLink& a, const WhatIfLink& b) {
        if (a.turnsHot != b.turnsHot) return a.turnsHot;
        return a.after.p95Util() > b.after.p95Util();
    });

    // Jobs: the worst link on their ring neighbours' equal-cost routes, before and after.
    const double hours = std::max(0.0, w1 - w0) / 3600;
    for (const StoredJob& job : m.jobs) {
        JobImpact ji;
        ji.name = job.name;
        ji.ranks = job.ranks.size();
        std::vector<std::string> hosts;
        std::unordered_set<std::string> seen;  // a search of the list per rank was quadratic in a large job
        for (const JobRank& jr : job.ranks)
            if (seen.insert(jr.host).second) hosts.push_back(jr.host);
        if (hosts.size() < 2) continue;
        std::vector<std::optional<NodeId>> nodes;  // each host found once, through the fabric's names indexed once
        for (const std::string& h : hosts) nodes.push_back(m.hostNames().node(h, ""));
        const std::size_t pairs = hosts.size() == 2 ? 1 : hosts.size();
        for (std::size_t i = 0; i < pairs; ++i) {
            const auto a = nodes[i], b = nodes[(i + 1) % hosts.size()];
            if (!a || !b) continue;
            bool anyAlive = false;
            // One route's directions now and after; `alive`: it survives the change.
            const auto weigh = [&](const std::vector<Dir>& now, const std::vector<Dir>& then, bool alive) {
                for (const Dir& d : now) ji.worstBefore = std::max(ji.worstBefore, m.use(d).p95Util());
                if (!alive) return;
                anyAlive = true;
                for (const Dir& d : then)
                    if (const double ua = after(d).p95Util(); ua > ji.worstAfter) {
                        ji.worstAfter = ua;
                        ji.bottleneck = {m.ref(d, true), m.ref(d, false)};
                    }
            };
            if (lft) {
                const auto pr = lft->route(*a, *b);
                weigh(pr.before, pr.after, pr.alive);
            }
            for (const Route& route : lft ? std::vector<Route>{} : m.routes(*a, *b)) {
                std::vector<Dir> dirs;
                bool alive = true;
                for (const Hop& h : route)
                    if (const auto link = ctx.linkOf(h.tx)) {
                        dirs.push_back({link->value(), f.link(*link).a == h.tx});
                        alive = alive && !failed.count(link->value());
                    }
                weigh(dirs, dirs, alive);
            }
            ji.disconnected = ji.disconnected || !anyAlive;
        }
        ji.slowdown = std::max(1.0, ji.worstAfter) / std::max(1.0, ji.worstBefore);
        ji.gpuHoursAtRisk = (ji.slowdown - 1) * static_cast<double>(ji.ranks) * hours;
        r.jobs.push_back(std::move(ji));
    }
    return r;
}

} // namespace fabscope
