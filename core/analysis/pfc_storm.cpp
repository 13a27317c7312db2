// pfc_storm: a port that sends PFC pauses for >= share of an interval over >= min_samples
// consecutive intervals is storming (pause shares: core/analysis/pfc_pauses.h). Storms are then
// explained, following pauses upstream:
//   - a storming port whose own side receives pauses too (a switch: any of its ports, since a
//     paused egress fills the buffers its ingresses share; a host NIC: its own port) at
//     >= origin_rx_ratio x the share it sends is a victim, explained by what paused it;
//   - a storming port that is not explained is an origin (typically a host NIC that stopped
//     draining its receive queue). Its finding lists the origin, then the storming ports the
//     pauses spread to (breadth first: each paused switch's own storming ports), with the pause
//     share per hop;
//   - storming switch ports that no origin explains and that pause each other in a directed cycle
//     (>= 2 ports on >= 2 switches, each paused by the previous one, all storming in the same
//     >= deadlock_min_samples consecutive intervals) are a PFC deadlock risk, with no origin.
// Anything else (a victim of moderate pausing, a one-port "cycle") is no finding. docs/ANALYSIS.md.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"
#include "core/analysis/pfc_pauses.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

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

std::optional<Storm> stormOf(const PauseShares& s, const PfcStormConfig& c) {
    std::optional<Storm> best;
    std::size_t bestLen = 0;
    const std::vector<PauseInterval>& v = s.intervals;
    std::size_t i = 0;
    while (i < v.size()) {
        if (v[i].share < c.share) {
            ++i;
            continue;
        }
        std::size_t j = i;
        // Consecutive: the next interval starts where this one ended.
        while (j + 1 < v.size() && v[j + 1].startMs == v[j].endMs && v[j + 1].share >= c.share) ++j;
        const std::size_t len = j - i + 1;
        if (len >= static_cast<std::size_t>(std::max(1, c.minSamples)) && len > bestLen) {
            Storm st{static_cast<double>(v[i].startMs) / 1000.0, static_cast<double>(v[j].endMs) / 1000.0, 0, 0, {}, s.fromFrames};
            for (std::size_t k = i; k <= j; ++k) {
                st.peak = std::max(st.peak, v[k].share);
                st.mean += v[k].share / static_cast<double>(len);
            }
            for (int p : s.prios) st.priorities += (st.priorities.empty() ? "" : ",") + std::to_string(p);
            best = st;
            bestLen = len;
        }
        i = j + 1;
    }
    return best;
}

std::string pct(double share) { return numfmt::num(std::round(share * 100)) + "%"; }

class StormAnalysis {
public:
    StormAnalysis(const AnalysisContext& ctx, std::vector<Finding>& out)
        : ctx_(ctx), f_(ctx.fabric()), c_(ctx.config().pfcStorm), pauses_(measurePauses(ctx)), out_(out) {
        for (const auto& [p, pp] : pauses_.ports)
            if (auto st = stormOf(pp.sent, c_)) storming_.emplace(p, *st);
        for (const auto& [p, st] : storming_) stormingOnNode_[f_.ports[p].node.value()].push_back(p);
    }

    void run() {
        for (const auto& [p, st] : storming_)
            if (!covered_.count(p) && !explained(p)) reportOrigin(p);
        reportDeadlocks();
    }

private:
    bool isSwitch(std::uint32_t port) const { return f_.nodes[f_.ports[port].node.value()].type == NodeType::Switch; }

    std::optional<std::uint32_t> peerOf(std::uint32_t p) const {
        const auto l = ctx_.linkOf(PortId(p));
        if (!l) return std::nullopt;
        return ctx_.peer(*l, PortId(p)).value();
    }

    // The pause share the storming port's side received over its storm: the port's own for a
    // host NIC, the most any port of the switch received for a switch.
    double receivedDuring(std::uint32_t p) const {
        const Storm& st = storming_.at(p);
        auto of = [&](std::uint32_t q) {
            const auto it = pauses_.ports.find(q);
            return it == pauses_.ports.end() ? 0.0 : meanShare(it->second.received, st.start, st.end);
        };
        if (!isSwitch(p)) return of(p);
        double most = 0;
        const auto node = f_.ports[p].node;
        for (const auto& [q, pp] : pauses_.ports)
            if (f_.ports[q].node == node) most = std::max(most, of(q));
        return most;
    }

    bool explained(std::uint32_t p) const { return receivedDuring(p) >= c_.originRxRatio * storming_.at(p).mean; }

    bool overlaps(const Storm& a, const Storm& b) const { return a.start < b.end && b.start < a.end; }

    void reportOrigin(std::uint32_t origin) {
        const Storm& os = storming_.at(origin);
        std::vector<std::uint32_t> order{origin};
        std::set<std::uint32_t> seenNodes{f_.ports[origin].node.value()};
        std::vector<std::string> edges, hops{numfmt::num(numfmt::round(os.mean))};
        std::deque<std::uint32_t> queue{origin};
        while (!queue.empty()) {
            const auto p = queue.front();
            queue.pop_front();
            const auto paused = peerOf(p);
            if (!paused) continue;
            const auto node = f_.ports[*paused].node.value();
            if (!seenNodes.insert(node).second) continue;
            for (auto q : stormingOnNode_[node]) {
                if (q == *paused || covered_.count(q) || !overlaps(storming_.at(p), storming_.at(q))) continue;
                edges.push_back(AnalysisContext::label(ctx_.ref(PortId(*paused))) + " paused by " +
                                AnalysisContext::label(ctx_.ref(PortId(p))) + " (" + pct(storming_.at(p).mean) + ") -> " +
                                AnalysisContext::label(ctx_.ref(PortId(q))) + " pauses (" + pct(storming_.at(q).mean) + ")");
                hops.push_back(numfmt::num(numfmt::round(storming_.at(q).mean)));
                order.push_back(q);
                queue.push_back(q);
            }
        }
        Finding fd;
        fd.kind = FindingKind::PfcStorm;
        fd.severity = order.size() > 1 || os.peak >= c_.criticalShare ? FindingSeverity::Critical : FindingSeverity::Warning;
        fd.start = os.start;
        fd.end = os.end;
        for (auto p : order) {
            fd.start = std::min(fd.start, storming_.at(p).start);
            fd.end = std::max(fd.end, storming_.at(p).end);
            fd.ports.push_back(ctx_.ref(PortId(p)));
        }
        fd.origin = ctx_.ref(PortId(origin));
        covered_.insert(order.begin(), order.end());
        std::string spread, hopText;
        for (const auto& e : edges) spread += (spread.empty() ? "" : "; ") + e;
        for (const auto& h : hops) hopText += (hopText.empty() ? "" : ",") + h;
        fd.summary = "PFC storm from " + AnalysisContext::label(*fd.origin) + " (pausing " + pct(os.mean) +
                     " of the time on priority " + os.priorities + ", receiving " + pct(receivedDuring(origin)) + "), spread to " +
                     std::to_string(order.size() - 1) + " upstream port" + (order.size() == 2 ? "" : "s");
        fd.metrics = {{"origin_pause_share", numfmt::round(os.mean)},
                      {"origin_peak_pause_share", numfmt::round(os.peak)},
                      {"origin_received_share", numfmt::round(receivedDuring(origin))},
                      {"priorities", os.priorities},
                      {"measured_as", std::string(os.fromFrames ? "frames" : "duration")},
                      {"spread_ports", static_cast<double>(order.size() - 1)},
                      {"hop_pause_shares", hopText},
                      {"spread", spread}};
        addDisagreements(fd, order);
        out_.push_back(std::move(fd));
    }

    void addDisagreements(Finding& fd, const std::vector<std::uint32_t>& ports) const {
        std::string text;
        for (const auto& d : pauses_.disagreements) {
            const bool about = std::find(ports.begin(), ports.end(), d.sender.value()) != ports.end();
            if (!about) continue;
            text += (text.empty() ? "" : "; ") + AnalysisContext::label(ctx_.ref(d.sender)) + " sent " + pct(d.sentShare) + " but " +
                    AnalysisContext::label(ctx_.ref(d.receiver)) + " received " + pct(d.receivedShare);
        }
        if (!text.empty()) fd.metrics.emplace_back("counters_disagree", text);
    }

    // Intervals (ends) in which every port of `cycle` storms, longest consecutive run.
    std::size_t sharedRun(const std::vector<std::uint32_t>& cycle) const {
        std::map<std::int64_t, std::pair<std::int64_t, std::size_t>> byEnd;  // end -> (start, ports storming)
        for (auto p : cycle)
            for (const PauseInterval& v : pauses_.ports.at(p).sent.intervals)
                if (v.share >= c_.share) {
                    auto& e = byEnd[v.endMs];
                    e.first = v.startMs;
                    ++e.second;
                }
        std::size_t best = 0, run = 0;
        std::int64_t lastEnd = INT64_MIN;
        for (const auto& [end, v] : byEnd) {
            if (v.second != cycle.size()) {
                run = 0;
                continue;
            }
            run = v.first == lastEnd ? run + 1 : 1;
            lastEnd = end;
            best = std::max(best, run);
        }
        return best;
    }

    void reportDeadlocks() {
        // P -> Q: P pauses Q's switch (through P's peer), and Q, another port of it, pauses on.
        std::vector<std::uint32_t> ports;
        for (const auto& [p, st] : storming_)
            if (!covered_.count(p) && isSwitch(p)) ports.push_back(p);
        std::map<std::uint32_t, std::size_t> index;
        for (std::size_t i = 0; i < ports.size(); ++i) index[ports[i]] = i;
        using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
        Graph g(ports.size());
        for (auto p : ports) {
            const auto paused = peerOf(p);
            if (!paused || !isSwitch(*paused)) continue;
            for (auto q : stormingOnNode_[f_.ports[*paused].node.value()])
                if (q != *paused && index.count(q)) boost::add_edge(index[p], index[q], g);
        }
        std::vector<std::size_t> component(ports.size());
        const std::size_t n = ports.empty() ? 0 : boost::strong_components(g, component.data());
        for (std::size_t k = 0; k < n; ++k) {
            std::vector<std::uint32_t> cycle;
            std::set<std::uint32_t> nodes;
            for (std::size_t i = 0; i < ports.size(); ++i)
                if (component[i] == k) {
                    cycle.push_back(ports[i]);
                    nodes.insert(f_.ports[ports[i]].node.value());
                }
            if (cycle.size() < 2 || nodes.size() < 2) continue;
            const std::size_t held = sharedRun(cycle);
            if (held < static_cast<std::size_t>(std::max(1, c_.deadlockMinSamples))) continue;
            Finding fd;
            fd.kind = FindingKind::PfcStorm;
            fd.severity = FindingSeverity::Critical;
            fd.start = storming_.at(cycle[0]).start;
            fd.end = storming_.at(cycle[0]).end;
            double peak = 0;
            std::string names;
            for (auto p : cycle) {
                fd.start = std::max(fd.start, storming_.at(p).start);  // the time they all storm
                fd.end = std::min(fd.end, storming_.at(p).end);
                peak = std::max(peak, storming_.at(p).peak);
                fd.ports.push_back(ctx_.ref(PortId(p)));
                names += (names.empty() ? "" : ", ") + AnalysisContext::label(ctx_.ref(PortId(p)));
            }
            fd.summary = "PFC deadlock risk: " + std::to_string(cycle.size()) + " ports on " + std::to_string(nodes.size()) +
                         " switches pause each other in a cycle with no origin (" + names + ") for " + std::to_string(held) +
                         " intervals";
            fd.metrics = {{"peak_pause_share", numfmt::round(peak)},
                          {"cycle_ports", static_cast<double>(cycle.size())},
                          {"cycle_switches", static_cast<double>(nodes.size())},
                          {"cycle_intervals", static_cast<double>(held)}};
            addDisagreements(fd, cycle);
            out_.push_back(std::move(fd));
        }
    }

    const AnalysisContext& ctx_;
    const Fabric& f_;
    const PfcStormConfig& c_;
    FabricPauses pauses_;
    std::vector<Finding>& out_;
    std::map<std::uint32_t, Storm> storming_;  // PortId value -> its longest storm
    std::map<std::uint32_t, std::vector<std::uint32_t>> stormingOnNode_;
    std::set<std::uint32_t> covered_;
};

} // namespace

void detectPfcStorms(const AnalysisContext& ctx, std::vector<Finding>& out) {
    StormAnalysis(ctx, out).run();
}

} // namespace fabscope
