#include "core/analysis/pfc_pauses.h"
#include "core/analysis/time_shares.h"

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

// Adds one counter's intervals to a port's, keeping them ascending by end with one interval per
// end: its first start and its worst share (a duplicated sample, or the same end at another
// priority). Sorted vectors, not maps: a RoCE fabric has thousands of ports x hundreds of
// intervals, and the shares are copied to link peers. Rates come in time order, so the sort
// and the merge are only a check in the usual case.
void addKeepingWorst(std::vector<PauseInterval>& into, std::vector<PauseInterval>&& add) {
    const auto byEnd = [](const PauseInterval& x, const PauseInterval& y) { return x.endMs < y.endMs; };
    if (!std::is_sorted(add.begin(), add.end(), byEnd)) std::stable_sort(add.begin(), add.end(), byEnd);
    const auto mid = into.insert(into.end(), add.begin(), add.end());
    std::inplace_merge(into.begin(), mid, into.end(), byEnd);  // stable: the port's own come first
    std::size_t kept = 0;
    for (std::size_t i = 0; i < into.size(); ++i) {
        if (kept > 0 && into[kept - 1].endMs == into[i].endMs) into[kept - 1].share = std::max(into[kept - 1].share, into[i].share);
        else into[kept++] = into[i];
    }
    into.resize(kept);
}

// The port's own pause counters of one direction ("tx" or "rx"), durations preferred.
std::map<std::uint32_t, PauseShares> ownShares(const AnalysisContext& ctx, const std::string& dir) {
    const PfcStormConfig& c = ctx.config().pfcStorm;
    std::map<std::uint32_t, PauseShares> out;
    for (int frames = 0; frames < 2; ++frames) {
        for (int prio = 0; prio < 8; ++prio) {
            const std::string counter = pfcPauseCounter(dir == "tx", frames != 0, prio);
            for (const auto& [sp, series] : ctx.seriesOf(counter)) {
                const auto p = ctx.fabricPort(sp);
                if (!p) continue;
                PauseShares& s = out[p->value()];
                if (frames && !s.intervals.empty() && !s.fromFrames) continue;  // durations already known
                double bps = static_cast<double>(ctx.fabric().port(*p).capacityBps);
                if (bps <= 0)
                    if (auto l = ctx.linkOf(*p)) bps = static_cast<double>(ctx.fabric().link(*l).capacityBps);
                const double perUnit = pauseSecondsPerUnit(frames != 0, bps, c);
                RateSeries r = ctx.rates(series, counter);
                if (frames) ctx.capacities().rescale(r, *p, bps);  // a frame holds the link longer at a lower speed then
                std::vector<PauseInterval> shares;
                shares.reserve(r.size());
                bool any = false;
                for (std::size_t i = 0; i < r.size(); ++i) {
                    if (!r.ok(i)) continue;
                    const double dt = static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
                    const double share = shareOfInterval(r.delta[i] * perUnit, dt);
                    shares.push_back({r.endMs[i], r.startMs[i], share});
                    any = any || share > 0;
                }
                addKeepingWorst(s.intervals, std::move(shares));
                if (any) s.prios.insert(prio);
                s.fromFrames = s.fromFrames || frames;
            }
        }
    }
    return out;
}

}  // namespace

double meanShare(const PauseShares& s, double start, double end) {
    double sum = 0, n = 0;
    const auto from = static_cast<std::int64_t>(std::llround(start * 1000.0));
    const auto to = static_cast<std::int64_t>(std::llround(end * 1000.0));
    auto it = std::upper_bound(s.intervals.begin(), s.intervals.end(), from,
                               [](std::int64_t t, const PauseInterval& x) { return t < x.endMs; });
    for (; it != s.intervals.end() && it->endMs <= to; ++it) {
        sum += it->share;
        ++n;
    }
    return n > 0 ? sum / n : 0.0;
}

FabricPauses measurePauses(const AnalysisContext& ctx) {
    const PfcStormConfig& c = ctx.config().pfcStorm;
    auto tx = ownShares(ctx, "tx"), rx = ownShares(ctx, "rx");
    FabricPauses out;
    auto peerOf = [&](std::uint32_t p) -> std::optional<std::uint32_t> {
        const auto l = ctx.linkOf(PortId(p));
        if (!l) return std::nullopt;
        return ctx.peer(*l, PortId(p)).value();
    };
    // Both ends measured: they should agree; say where they do not.
    for (const auto& [p, s] : tx) {
        const auto q = peerOf(p);
        if (!q) continue;
        const auto other = rx.find(*q);
        if (other == rx.end()) continue;
        PauseDisagreement worst{PortId(p), PortId(*q), 0, 0};
        double gap = c.disagreement;
        // Both ascending by end: walk them together for the intervals both measured.
        auto b = other->second.intervals.begin();
        const auto bEnd = other->second.intervals.end();
        for (const PauseInterval& v : s.intervals) {
            while (b != bEnd && b->endMs < v.endMs) ++b;
            if (b != bEnd && b->endMs == v.endMs && std::abs(v.share - b->share) > gap) {
                gap = std::abs(v.share - b->share);
                worst.sentShare = v.share;
                worst.receivedShare = b->share;
            }
        }
        if (gap > c.disagreement) out.disagreements.push_back(worst);
    }
    // A port without its own counter of a direction reads its peer's counter of the other one.
    for (const auto& [p, s] : rx)
        if (const auto q = peerOf(p); q && !tx.count(*q)) {
            out.ports[*q].sent = s;
            out.ports[*q].sent.fromPeer = true;
        }
    for (const auto& [p, s] : tx)
        if (const auto q = peerOf(p); q && !rx.count(*q)) {
            out.ports[*q].received = s;
            out.ports[*q].received.fromPeer = true;
        }
    // Last, as nothing reads them after: the ports' own shares are moved, not copied.
    for (auto& [p, s] : tx) out.ports[p].sent = std::move(s);
    for (auto& [p, s] : rx) out.ports[p].received = std::move(s);
    return out;
}

}  // namespace fabscope
