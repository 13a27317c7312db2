// error_link: error counters rising faster than their thresholds (analysis_config.h) on a port.
// The port that counts receive-side errors is the one whose incoming signal is bad, so it is
// listed first and its link peer (the transmitter) second. The finding spans the burst (first to
// last interval with errors), not the window, and its text gives the burst's mean and peak rates.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"
#include "core/parallel_connections.h"

#include <algorithm>
#include <optional>

namespace fabscope {
namespace {

std::string spaced(std::string s) {
    std::replace(s.begin(), s.end(), '_', ' ');
    return s;
}

// The erroring part of a series: its first to last interval with errors, the seconds its valid
// intervals cover, its runs of consecutive erroring intervals, and its worst single interval.
struct Burst {
    std::size_t first = 0, last = 0;
    double seconds = 0;
    int runs = 0;
    double peakRate = 0, peakSeconds = 0;
};

Burst burstOf(const RateSeries& r) {
    Burst b;
    b.first = r.size();
    bool inRun = false;
    for (std::size_t i = 0; i < r.size(); ++i) {
        const bool erroring = r.ok(i) && r.delta[i] > 0;
        if (erroring) {
            if (b.first == r.size()) b.first = i;
            b.last = i;
            if (!inRun) ++b.runs;
            if (r.perSecond[i] > b.peakRate) {
                b.peakRate = r.perSecond[i];
                b.peakSeconds = static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
            }
        }
        inRun = erroring;
    }
    for (std::size_t i = b.first; i <= b.last && i < r.size(); ++i)
        if (r.ok(i)) b.seconds += static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
    return b;
}

// The finding for one port's error counter, when it errs beyond its threshold.
std::optional<Finding> errorFinding(const AnalysisContext& ctx, const Store& via, const SeriesPort& sp, std::int64_t seriesId,
                                    const std::string& counter, const ErrorThreshold& threshold) {
    const ErrorLinkConfig& cfg = ctx.config().errorLink;
    if (ctx.peakRate(via, seriesId) <= 0) return std::nullopt;  // never rose in the window: no errors, nothing to load
    const RateSeries r = ctx.rates(via, seriesId, counter);
    const double increase = r.totalIncrease(), secs = r.coveredSeconds();
    if (secs <= 0) return std::nullopt;
    const double rate = increase / secs;  // mean over the intervals we could measure
    if (increase < threshold.minCount || rate <= threshold.perSecond || increase <= 0) return std::nullopt;

    const Burst b = burstOf(r);
    // Detection and severity compare the window's mean rate, as the thresholds always have
    // (docs/ANALYSIS.md); the text tells the burst's own span, mean and peak.
    const bool critical = threshold.perSecond > 0 ? rate >= threshold.perSecond * cfg.criticalFactor
                                                  : increase >= threshold.minCount * cfg.criticalFactor;
    Finding f;
    f.kind = FindingKind::ErrorLink;
    f.severity = critical ? FindingSeverity::Critical : FindingSeverity::Warning;
    f.start = static_cast<double>(r.startMs[b.first]) / 1000.0;
    f.end = static_cast<double>(r.endMs[b.last]) / 1000.0;
    f.ports.push_back(ctx.ref(sp));
    if (auto p = ctx.fabricPort(sp))
        if (auto l = ctx.linkOf(*p)) f.ports.push_back(ctx.ref(ctx.peer(*l, *p)));
    const double burstSecs = f.end - f.start, burstRate = b.seconds > 0 ? increase / b.seconds : 0;
    f.summary = AnalysisContext::label(f.ports[0]) +
                (f.ports.size() > 1 ? " <- " + AnalysisContext::label(f.ports[1]) : std::string()) + ": " +
                numfmt::num(increase) + " " + spaced(counter) + " in " + numfmt::num(burstSecs) + " s from " +
                numfmt::utc(f.start) + (b.runs > 1 ? " in " + std::to_string(b.runs) + " bursts" : std::string()) +
                " (" + numfmt::eventRate(burstRate) + " mean, peak " + numfmt::eventRate(b.peakRate) + " over " +
                numfmt::num(b.peakSeconds) + " s; " + numfmt::eventRate(rate) + " over the " + numfmt::num(secs) +
                " s window, threshold " + numfmt::eventRate(threshold.perSecond) + ")";
    f.metrics = {{"counter", counter},
                 {"increase", increase},
                 {"rate_per_s", numfmt::round(rate)},
                 {"threshold_per_s", numfmt::round(threshold.perSecond)},
                 {"seconds", secs},
                 {"burst_seconds", burstSecs},
                 {"burst_rate_per_s", numfmt::round(burstRate)},
                 {"peak_rate_per_s", numfmt::round(b.peakRate)},
                 {"peak_interval_s", b.peakSeconds},
                 {"bursts", static_cast<double>(b.runs)}};
    return f;
}

} // namespace

void detectErrorLinks(const AnalysisContext& ctx, std::vector<Finding>& out) {
    for (const auto& entry : ctx.config().errorLink.counters) {
        const std::string& counter = entry.first;
        const ErrorThreshold& threshold = entry.second;
        const auto series = ctx.seriesOf(counter);
        auto found = mapOnConnections<std::optional<Finding>>(
            ctx.store(), series.size(), kParallelSeries,
            [&](const Store& via, std::size_t i) { return errorFinding(ctx, via, series[i].first, series[i].second, counter, threshold); });
        for (auto& f : found)
            if (f) out.push_back(std::move(*f));
    }
}

} // namespace fabscope
