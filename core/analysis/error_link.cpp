// error_link: error counters rising faster than their thresholds (analysis_config.h) on a port.
// The port that counts receive-side errors is the one whose incoming signal is bad, so it is
// listed first and its link peer (the transmitter) second.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"

#include <algorithm>

namespace fabscope {
namespace {

std::string spaced(std::string s) {
    std::replace(s.begin(), s.end(), '_', ' ');
    return s;
}

} // namespace

void detectErrorLinks(const AnalysisContext& ctx, std::vector<Finding>& out) {
    const ErrorLinkConfig& cfg = ctx.config().errorLink;
    for (const auto& [counter, threshold] : cfg.counters) {
        for (const auto& [sp, seriesId] : ctx.seriesOf(counter)) {
            const RateSeries r = ctx.rates(seriesId, counter);
            const double increase = r.totalIncrease(), secs = r.coveredSeconds();
            if (secs <= 0) continue;
            const double rate = increase / secs;  // mean over the intervals we could measure
            if (increase < threshold.minCount || rate <= threshold.perSecond || increase <= 0) continue;

            std::size_t first = r.size(), last = 0;
            for (std::size_t i = 0; i < r.size(); ++i)
                if (r.ok(i) && r.delta[i] > 0) {
                    first = std::min(first, i);
                    last = i;
                }
            const bool critical = threshold.perSecond > 0 ? rate >= threshold.perSecond * cfg.criticalFactor
                                                          : increase >= threshold.minCount * cfg.criticalFactor;
            Finding f;
            f.kind = FindingKind::ErrorLink;
            f.severity = critical ? FindingSeverity::Critical : FindingSeverity::Warning;
            f.start = static_cast<double>(r.startMs[first]) / 1000.0;
            f.end = static_cast<double>(r.endMs[last]) / 1000.0;
            f.ports.push_back(ctx.ref(sp));
            if (auto p = ctx.fabricPort(sp))
                if (auto l = ctx.linkOf(*p)) f.ports.push_back(ctx.ref(ctx.peer(*l, *p)));
            f.summary = AnalysisContext::label(f.ports[0]) +
                        (f.ports.size() > 1 ? " <- " + AnalysisContext::label(f.ports[1]) : std::string()) + ": " +
                        numfmt::num(increase) + " " + spaced(counter) + " in " + numfmt::num(secs) + " s (" +
                        numfmt::eventRate(rate) + ", threshold " + numfmt::eventRate(threshold.perSecond) + ")";
            f.metrics = {{"counter", counter},
                         {"increase", increase},
                         {"rate_per_s", numfmt::round(rate)},
                         {"threshold_per_s", numfmt::round(threshold.perSecond)},
                         {"seconds", secs}};
            out.push_back(std::move(f));
        }
    }
}

} // namespace fabscope
