#include "core/analysis/pfc_pauses.h"
#include "core/analysis/time_shares.h"

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

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
                if (frames && !s.byEnd.empty() && !s.fromFrames) continue;  // durations already known
                double bps = static_cast<double>(ctx.fabric().port(*p).capacityBps);
                if (bps <= 0)
                    if (auto l = ctx.linkOf(*p)) bps = static_cast<double>(ctx.fabric().link(*l).capacityBps);
                const double perUnit = pauseSecondsPerUnit(frames != 0, bps, c);
                const RateSeries r = ctx.rates(series, counter);
                bool any = false;
                for (std::size_t i = 0; i < r.size(); ++i) {
                    if (!r.ok(i)) continue;
                    const double dt = static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
                    const double share = shareOfInterval(r.delta[i] * perUnit, dt);
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

}  // namespace

double meanShare(const PauseShares& s, double start, double end) {
    double sum = 0, n = 0;
    const auto from = static_cast<std::int64_t>(std::llround(start * 1000.0));
    const auto to = static_cast<std::int64_t>(std::llround(end * 1000.0));
    for (auto it = s.byEnd.upper_bound(from); it != s.byEnd.end() && it->first <= to; ++it) {
        sum += it->second.second;
        ++n;
    }
    return n > 0 ? sum / n : 0.0;
}

FabricPauses measurePauses(const AnalysisContext& ctx) {
    const PfcStormConfig& c = ctx.config().pfcStorm;
    const auto tx = ownShares(ctx, "tx"), rx = ownShares(ctx, "rx");
    FabricPauses out;
    auto peerOf = [&](std::uint32_t p) -> std::optional<std::uint32_t> {
        const auto l = ctx.linkOf(PortId(p));
        if (!l) return std::nullopt;
        return ctx.peer(*l, PortId(p)).value();
    };
    for (const auto& [p, s] : tx) out.ports[p].sent = s;
    for (const auto& [p, s] : rx) out.ports[p].received = s;
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
    // Both ends measured: they should agree; say where they do not.
    for (const auto& [p, s] : tx) {
        const auto q = peerOf(p);
        if (!q || !rx.count(*q)) continue;
        const PauseShares& other = rx.at(*q);
        PauseDisagreement worst{PortId(p), PortId(*q), 0, 0};
        double gap = c.disagreement;
        for (const auto& [end, v] : s.byEnd)
            if (const auto it = other.byEnd.find(end); it != other.byEnd.end() && std::abs(v.second - it->second.second) > gap) {
                gap = std::abs(v.second - it->second.second);
                worst.sentShare = v.second;
                worst.receivedShare = it->second.second;
            }
        if (gap > c.disagreement) out.disagreements.push_back(worst);
    }
    return out;
}

}  // namespace fabscope
