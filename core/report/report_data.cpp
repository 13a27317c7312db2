#include "core/report/report_data.h"

#include "core/analysis/context.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace fabscope {

ReportData buildReportData(const Store& store, const ReportOptions& options) {
    ReportData r;
    r.storePath = store.path();
    r.config = options.config;
    r.generatedAt = options.generatedAt > 0
                        ? options.generatedAt
                        : std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    if (auto snap = store.latestSnapshot()) {
        r.snapshotLabel = snap->label;
        r.snapshotTime = snap->time;
    }
    // One context for the findings and the report's figures: the same window and fabric.
    const std::unique_ptr<AnalysisContext> context = analysisContext(store, options.window, options.config);
    const AnalysisContext& ctx = *context;
    const double from = ctx.windowStart(), to = ctx.windowEnd();
    const bool reuse = options.findings && options.findings->windowStart == from && options.findings->windowEnd == to;
    r.findings = reuse ? *options.findings : analyze(store, ctx, options.cancel);
    r.fabric = summariseFabric(ctx.fabric());
    r.utilisation = measureUtilisation(ctx, r.fabric.tierOfNode, options.topLinks, options.chartedLinks);
    r.gpuRisk = estimateGpuRisk(store, ctx.fabric(), r.fabric.tierOfNode, r.findings);
    r.annotations = annotations(store, r.findings.windowStart, r.findings.windowEnd);
    r.benchmarks = collectBenchmarks(store, ctx.fabric());
    // The same runs and thresholds as the slow_pair / slow_host detector, so the section and the
    // findings agree.
    r.pairBenchmarks = judgePairBenchmarks(r.benchmarks.runs, ctx.fabric(), options.config.pairBenchmark);
    r.probes = loadProbePairs(store, ctx.fabric(), r.findings.windowStart, r.findings.windowEnd,
                              static_cast<std::size_t>(options.config.lossyLink.maxRoutes));
    const bool measured = std::any_of(r.utilisation.groups.begin(), r.utilisation.groups.end(),
                                      [](const TierDirection& g) { return g.directions > 0; });
    r.stress = singlePointsOfStress(ctx, measured, options.stressSwitches, options.stressUplinkGroups, options.cancel);
    return r;
}

} // namespace fabscope
