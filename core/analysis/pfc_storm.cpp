// pfc_storm: a port sends PFC pauses for >= share of an interval over >= min_samples consecutive
// intervals. Paused time comes from pfc_tx_pause_us_prioN (durations) when imported, else from
// pfc_tx_pause_prioN frames x frame_quanta x 512 bit times at the port's speed (100 Gb/s when
// unknown); per interval the worst priority counts. A storming port P pauses the node at the
// other end of its link; that node's own storming ports continue the spread upstream. A node
// receives pauses when a storming port points at it, or when its ports' pfc_rx_pause counters
// reach the same share. origin = a storming port whose node receives no pauses (typically a NIC
// that stopped draining its receive queue); ports = the origin, then the storming ports the
// spread reached (nearest first); metrics.spread lists the edges "paused by -> pausing".
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>

namespace fabscope {
namespace {

struct Storm {
    double start = 0, end = 0, peak = 0, mean = 0;
    std::string priorities;
    bool fromFrames = false;
};

// Paused share per interval end (ms), worst priority, for one direction ("tx" or "rx").
struct Shares {
    std::map<std::int64_t, std::pair<std::int64_t, double>> byEnd;  // end -> (start, share)
    std::set<int> prios;
    bool fromFrames = false;
};

std::map<std::uint32_t, Shares> pauseShares(const AnalysisContext& ctx, const std::string& dir) {
    const PfcStormConfig& c = ctx.config().pfcStorm;
    std::map<std::uint32_t, Shares> out;
    for (int prio = 0; prio < 8; ++prio) {
        for (int frames = 0; frames < 2; ++frames) {
            const std::string counter = "pfc_" + dir + (frames ? "_pause_prio" : "_pause_us_prio") + std::to_string(prio);
            for (const auto& [sp, series] : ctx.seriesOf(counter)) {
                const auto p = ctx.fabricPort(sp);
                if (!p) continue;
                Shares& s = out[p->value()];
                if (frames && !s.byEnd.empty() && !s.fromFrames) continue;  // durations already known
                double bps = static_cast<double>(ctx.fabric().port(*p).capacityBps);
                if (bps <= 0)
                    if (auto l = ctx.linkOf(*p)) bps = static_cast<double>(ctx.fabric().link(*l).capacityBps);
                if (bps <= 0) bps = 100e9;
                const double perUnit = frames ? c.frameQuanta * 512.0 / bps : 1e-6;  // seconds per frame / per µs
                const RateSeries r = ctx.rates(series, counter);
                bool any = false;
                for (std::size_t i = 0; i < r.size(); ++i) {
                    if (!r.ok(i)) continue;
                    const double dt = static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
                    const double share = dt > 0 ? std::min(1.0, r.delta[i] * perUnit / dt) : 0.0;
                    auto [it, fresh] = s.byEnd.try_emplace(r.endMs[i], r.startMs[i], share);
                    if (!fresh) it->second.second = std::max(it->second.second, share);
                    any = any || share > 0;
                }
                if (any) s.prios.insert(prio);
                s.fromFrames = s.fromFrames || frames;
            }
        }
    }
    return out;
}

std::optional<Storm> stormOf(const Shares& s, const PfcStormConfig& c) {
    std::optional<Storm> best;
    std::size_t bestLen = 0;
    std::vector<std::pair<std::int64_t, std::pair<std::int64_t, double>>> v(s.byEnd.begin(), s.byEnd.end());
    std::size_t i = 0;
    while (i < v.size()) {
        if (v[i].second.second < c.share) {
            ++i;
            continue;
        }
        std::size_t j = i;
        // Consecutive: the next interval starts where this one ended.
        while (j + 1 < v.size() && v[j + 1].second.first == v[j].first && v[j + 1].second.second >= c.share) ++j;
        const std::size_t len = j - i + 1;
        if (len >= static_cast<std::size_t>(std::max(1, c.minSamples)) && len > bestLen) {
            Storm st{static_cast<double>(v[i].second.first) / 1000.0, static_cast<double>(v[j].first) / 1000.0, 0, 0, {}, s.fromFrames};
            for (std::size_t k = i; k <= j; ++k) {
                st.peak = std::max(st.peak, v[k].second.second);
                st.mean += v[k].second.second / static_cast<double>(len);
            }
            for (int p : s.prios) st.priorities += (st.priorities.empty() ? "" : ",") + std::to_string(p);
            best = st;
            bestLen = len;
        }
        i = j + 1;
    }
    return best;
}

// Storming ports no origin's spread reached pause each other in a cycle (a PFC deadlock risk):
// one finding per group, without an origin, since none sends pauses without receiving them.
void reportCycles(const AnalysisContext& ctx, const std::map<std::uint32_t, Storm>& storming,
                  const std::set<std::uint32_t>& covered, std::vector<Finding>& out) {
    const Fabric& f = ctx.fabric();
    std::set<std::uint32_t> left;
    for (const auto& [p, st] : storming)
        if (!covered.count(p)) left.insert(p);
    auto pausedNode = [&](std::uint32_t p) -> std::int64_t {
        auto l = ctx.linkOf(PortId(p));
        return l ? static_cast<std::int64_t>(f.port(ctx.peer(*l, PortId(p))).node.value()) : -1;
    };
    while (!left.empty()) {
        std::vector<std::uint32_t> group{*left.begin()};
        left.erase(left.begin());
        for (std::size_t i = 0; i < group.size(); ++i)
            for (auto it = left.begin(); it != left.end();) {
                const auto a = group[i], b = *it;
                const bool joined = pausedNode(a) == static_cast<std::int64_t>(f.ports[b].node.value()) ||
                                    pausedNode(b) == static_cast<std::int64_t>(f.ports[a].node.value());
                if (joined) {
                    group.push_back(b);
                    it = left.erase(it);
                } else {
                    ++it;
                }
            }
        Finding fd;
        fd.kind = "pfc_storm";
        fd.severity = FindingSeverity::Critical;
        fd.start = storming.at(group[0]).start;
        fd.end = storming.at(group[0]).end;
        double peak = 0;
        for (auto p : group) {
            fd.start = std::min(fd.start, storming.at(p).start);
            fd.end = std::max(fd.end, storming.at(p).end);
            peak = std::max(peak, storming.at(p).peak);
            fd.ports.push_back(ctx.ref(PortId(p)));
        }
        std::string names;
        for (const auto& r : fd.ports) names += (names.empty() ? "" : ", ") + AnalysisContext::label(r);
        fd.summary = "PFC pause cycle without an origin (deadlock risk): " + names + " pause each other";
        fd.metrics = {{"peak_pause_share", numfmt::round(peak)}, {"cycle_ports", static_cast<double>(group.size())}};
        out.push_back(std::move(fd));
    }
}

} // namespace

void detectPfcStorms(const AnalysisContext& ctx, std::vector<Finding>& out) {
    const Fabric& f = ctx.fabric();
    const PfcStormConfig& c = ctx.config().pfcStorm;
    std::map<std::uint32_t, Storm> storming;  // PortId value -> storm
    for (const auto& [p, s] : pauseShares(ctx, "tx"))
        if (auto st = stormOf(s, c)) storming.emplace(p, *st);
    if (storming.empty()) return;

    std::set<std::uint32_t> pausedNodes;  // nodes that receive pauses
    std::map<std::uint32_t, std::vector<std::uint32_t>> stormingOnNode;
    for (const auto& [p, st] : storming) {
        stormingOnNode[f.ports[p].node.value()].push_back(p);
        if (auto l = ctx.linkOf(PortId(p))) pausedNodes.insert(f.port(ctx.peer(*l, PortId(p))).node.value());
    }
    for (const auto& [p, s] : pauseShares(ctx, "rx"))
        if (stormOf(s, c)) pausedNodes.insert(f.ports[p].node.value());

    std::set<std::uint32_t> covered;
    for (const auto& [origin, originStorm] : storming) {
        const auto originNode = f.ports[origin].node.value();
        if (pausedNodes.count(originNode)) continue;
        std::vector<std::uint32_t> order{origin};
        std::set<std::uint32_t> seenNodes{originNode};
        std::vector<std::string> edges;
        std::deque<std::uint32_t> queue{origin};
        while (!queue.empty()) {
            const auto p = queue.front();
            queue.pop_front();
            const auto l = ctx.linkOf(PortId(p));
            if (!l) continue;
            const PortId pausedPort = ctx.peer(*l, PortId(p));
            const auto pausedNode = f.port(pausedPort).node.value();
            if (!seenNodes.insert(pausedNode).second) continue;
            for (auto q : stormingOnNode[pausedNode]) {
                if (q == pausedPort.value()) continue;
                edges.push_back(AnalysisContext::label(ctx.ref(pausedPort)) + " paused by " +
                                AnalysisContext::label(ctx.ref(PortId(p))) + " -> " + AnalysisContext::label(ctx.ref(PortId(q))) +
                                " pauses");
                order.push_back(q);
                queue.push_back(q);
            }
        }
        Finding fd;
        fd.kind = "pfc_storm";
        fd.severity = order.size() > 1 || originStorm.peak >= 0.9 ? FindingSeverity::Critical : FindingSeverity::Warning;
        fd.start = originStorm.start;
        fd.end = originStorm.end;
        for (auto p : order) {
            fd.start = std::min(fd.start, storming.at(p).start);
            fd.end = std::max(fd.end, storming.at(p).end);
        }
        fd.origin = ctx.ref(PortId(origin));
        for (auto p : order) fd.ports.push_back(ctx.ref(PortId(p)));
        covered.insert(order.begin(), order.end());
        std::string spread;
        for (const auto& e : edges) spread += (spread.empty() ? "" : "; ") + e;
        fd.summary = "PFC storm from " + AnalysisContext::label(*fd.origin) + " (pausing " +
                     numfmt::num(std::round(originStorm.mean * 100)) + "% of the time on priority " +
                     originStorm.priorities + "), spread to " + std::to_string(order.size() - 1) + " upstream port" +
                     (order.size() == 2 ? "" : "s");
        fd.metrics = {{"origin_pause_share", numfmt::round(originStorm.mean)},
                      {"origin_peak_pause_share", numfmt::round(originStorm.peak)},
                      {"priorities", originStorm.priorities},
                      {"measured_as", std::string(originStorm.fromFrames ? "frames" : "duration")},
                      {"spread_ports", static_cast<double>(order.size() - 1)},
                      {"spread", spread}};
        out.push_back(std::move(fd));
    }
    reportCycles(ctx, storming, covered, out);
}

} // namespace fabscope
