#include "core/analysis/analyze.h"

#include "core/analysis/context.h"
#include "core/analysis/detectors.h"
#include "core/analysis/probe_pairs.h"
#include "core/analysis/topology_change.h"

#include <algorithm>

namespace fabscope {

FindingsReport analyze(const Store& store, const AnalysisWindow& window, const AnalysisConfig& config) {
    FindingsReport report;
    const StoreInfo info = store.info();
    // Without samples the only time there is is the snapshot's.
    double spanStart = info.timeStart.value_or(0), spanEnd = info.timeEnd.value_or(0);
    if (!info.timeStart)
        if (auto snap = store.latestSnapshot()) spanStart = spanEnd = snap->time;
    if (const auto probes = probeTimeSpan(store)) {  // probes widen the default window
        spanStart = info.timeStart ? std::min(spanStart, probes->first) : probes->first;
        spanEnd = info.timeStart ? std::max(spanEnd, probes->second) : probes->second;
    }
    report.windowStart = window.from.value_or(spanStart);
    report.windowEnd = window.to.value_or(spanEnd);

    const AnalysisContext ctx(store, report.windowStart, report.windowEnd, config);
    detectHotLinks(ctx, report.findings);
    detectDegradedLinks(ctx, report.findings);
    detectErrorLinks(ctx, report.findings);
    detectLinkFlaps(ctx, report.findings);
    detectEcmpImbalance(ctx, report.findings);
    detectCongestionTrees(ctx, report.findings);
    detectPfcStorms(ctx, report.findings);
    const std::vector<Finding> beforeStragglers = report.findings;
    detectStragglerPaths(store, ctx, beforeStragglers, report.findings);
    detectTopologyChanges(store, report.findings);
    detectProbeFindings(store, ctx, report.findings);
    sortAndNumber(report.findings);
    return report;
}

} // namespace fabscope
