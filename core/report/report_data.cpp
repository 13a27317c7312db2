#include "core/report/report_data.h"

#include "core/analysis/context.h"

#include <chrono>

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
    r.findings = analyze(store, options.window, options.config);

    // The same window and fabric the findings were made from.
    const AnalysisContext ctx(store, r.findings.windowStart, r.findings.windowEnd, options.config);
    r.fabric = summariseFabric(ctx.fabric());
    r.utilisation = measureUtilisation(ctx, r.fabric.tierOfNode, options.topLinks, options.chartedLinks);
    r.gpuRisk = estimateGpuRisk(store, ctx.fabric(), r.fabric.tierOfNode, r.findings);
    r.annotations = annotations(store, r.findings.windowStart, r.findings.windowEnd);
    r.benchmarks = collectBenchmarks(store, ctx.fabric());
    r.probes = loadProbePairs(store, ctx.fabric(), r.findings.windowStart, r.findings.windowEnd,
                              static_cast<std::size_t>(options.config.lossyLink.maxRoutes));
    return r;
}

} // namespace fabscope
