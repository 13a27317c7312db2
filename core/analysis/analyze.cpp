#include "core/analysis/analyze.h"

#include "core/analysis/context.h"
#include "core/analysis/detectors.h"
#include "core/analysis/optic_evidence.h"
#include "core/analysis/incidents.h"
#include "core/store/probes.h"
#include "core/analysis/topology_change.h"

#include "core/worker_threads.h"

#include <algorithm>
#include <future>
#include <optional>

namespace fabscope {

namespace {

void checkCancel(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load()) throw AnalysisCancelled();
}

} // namespace

std::pair<double, double> resolveWindow(const Store& store, const AnalysisWindow& window) {
    // Only the samples' span, not the whole info(): ~2 ms of a ~55 ms analysis of the judged store.
    const Store::SampleSpan samples = store.sampleSpan();
    const bool any = samples.firstMs.has_value();
    // Without samples the only time there is is the snapshot's.
    double spanStart = any ? static_cast<double>(*samples.firstMs) / 1000.0 : 0;
    double spanEnd = any ? static_cast<double>(*samples.lastMs) / 1000.0 : 0;
    if (!any)
        if (auto snap = store.latestSnapshot()) spanStart = spanEnd = snap->time;
    if (const auto probes = probeTimeSpan(store)) {  // probes widen the default window
        spanStart = any ? std::min(spanStart, probes->first) : probes->first;
        spanEnd = any ? std::max(spanEnd, probes->second) : probes->second;
    }
    return {window.from.value_or(spanStart), window.to.value_or(spanEnd)};
}

std::unique_ptr<AnalysisContext> analysisContext(const Store& store, const AnalysisWindow& window,
                                                 const AnalysisConfig& config) {
    // The default window reads every chunk's time span (~3 ms of the judged store), then every
    // series' peak rate in it (~1 ms), and the context the fabric and the series list (~8 ms):
    // side by side on two cores when they can.
    struct WindowAndPeaks {
        std::pair<double, double> window;
        std::vector<double> peaks;
    };
    const bool aside = store.splitsWork() && workerThreads() >= 2;
    auto span = std::async(aside ? std::launch::async : std::launch::deferred, [&] {
        const Store& own = aside ? store.sibling(1) : store;
        const Store::ReadTransaction read(own);
        WindowAndPeaks w{resolveWindow(own, window), {}};
        const AnalysisContext::WindowMs ms = AnalysisContext::windowMs(w.window.first, w.window.second);
        w.peaks = own.seriesPeaks(ms.from, ms.to);
        return w;
    });
    std::unique_ptr<AnalysisContext> context;
    {
        const Store::ReadTransaction read(store);
        context = std::make_unique<AnalysisContext>(store, 0, 0, config);
    }
    WindowAndPeaks w = span.get();
    context->setWindow(w.window.first, w.window.second);
    context->setPeaks(std::move(w.peaks));
    return context;
}

FindingsReport analyze(const Store& store, const AnalysisWindow& window, const AnalysisConfig& config,
                       const std::atomic<bool>* cancel) {
    checkCancel(cancel);
    return analyze(store, *analysisContext(store, window, config), cancel);
}

FindingsReport analyze(const Store& store, const AnalysisContext& ctx, const std::atomic<bool>* cancel) {
    FindingsReport report;
    report.windowStart = ctx.windowStart();
    report.windowEnd = ctx.windowEnd();
    // Each detector reads under one read transaction: a shared lock taken once for its
    // thousands of series loads, and released between detectors so an import can commit.
    auto run = [&](auto&& detector) {
        checkCancel(cancel);
        const Store::ReadTransaction read(store);
        detector();
    };
    run([&] { detectHotLinks(ctx, report.findings); });
    run([&] { detectDegradedLinks(ctx, report.findings); });
    run([&] { detectErrorLinks(ctx, report.findings); });
    run([&] { detectBerLinks(ctx, report.findings); });
    run([&] { detectLinkFlaps(ctx, report.findings); });
    run([&] { detectEcmpImbalance(ctx, report.findings); });
    run([&] { detectCongestionTrees(ctx, report.findings); });
    run([&] { detectPfcStorms(ctx, report.findings); });
    run([&] { report.jobs = routeJobs(store, ctx, report.findings); });
    run([&] { detectStragglerPaths(ctx, report.jobs, report.findings); });
    run([&] { detectTopologyChanges(store, report.findings); });
    run([&] { detectPlanMismatches(store, report.findings); });
    run([&] { detectProbeFindings(store, ctx, report.findings); });
    run([&] { detectPairBenchmarks(store, ctx, report.findings); });
    run([&] { addOpticEvidence(loadPortOptics(store, ctx.snapshotId()), ctx.config().optics, report.findings); });
    checkCancel(cancel);
    sortAndNumber(report.findings);
    for (JobRoutes& job : report.jobs)  // the job's straggler_path, now that it has its id
        for (const Finding& f : report.findings)
            if (f.kind == FindingKind::StragglerPath && !job.pairs.empty() && f.path == job.pairs.front().path &&
                std::holds_alternative<std::string>(f.metrics.front().second) && std::get<std::string>(f.metrics.front().second) == job.name)
                job.stragglerFinding = f.id;
    groupIncidents(report);  // last: the CLI, the GUI and reports show the same incidents
    return report;
}

} // namespace fabscope
