// compareRuns(): resolve each side (window, snapshot in force, context, findings), run the parts
// (compare_parts.h) and rank what changed.
#include "core/analysis/analyze.h"
#include "core/compare/compare_parts.h"

#include <algorithm>

namespace fabscope {

std::string_view toString(ChangeKind k) {
    switch (k) {
    case ChangeKind::Topology: return "topology";
    case ChangeKind::Routes: return "route";
    case ChangeKind::Load: return "load";
    case ChangeKind::Errors: return "errors";
    case ChangeKind::Pauses: return "pauses";
    case ChangeKind::Congestion: return "congestion";
    case ChangeKind::Job: return "job";
    case ChangeKind::Benchmark: return "benchmark";
    case ChangeKind::Probe: return "probe";
    }
    return "";
}

namespace compare {

std::string portLabel(const PortRef& p) { return AnalysisContext::label(p); }

namespace {

void checkCancel(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load()) throw AnalysisCancelled();
}

// The snapshot in force at `end`: the latest taken at or before it, else the first one.
std::optional<SnapshotInfo> snapshotAt(const Store& store, double end) {
    const auto snaps = store.snapshots();
    if (snaps.empty()) return std::nullopt;
    std::optional<SnapshotInfo> in = snaps.front();
    for (const SnapshotInfo& s : snaps)
        if (s.time <= end) in = s;
    return in;
}

Side makeSide(const Store& store, const std::string& name, CompareWindow w, const AnalysisConfig& config,
              const std::atomic<bool>* cancel) {
    Side s;
    s.store = &store;
    s.info.store = name;
    const auto [from, to] = resolveWindow(store, AnalysisWindow{w.from, w.to});
    s.info.start = from;
    s.info.end = to;
    if (const auto snap = snapshotAt(store, to)) {
        s.snapshotId = snap->id;
        s.info.snapshot = snap->label;
        s.info.snapshotTime = snap->time;
    }
    {
        const Store::ReadTransaction read(store);
        s.ctx = std::make_unique<AnalysisContext>(store, from, to, config, s.snapshotId);
    }
    s.findings = analyze(store, *s.ctx, cancel);
    return s;
}

} // namespace
} // namespace compare

CompareReport compareRuns(const Store& goodStore, const std::string& goodName, CompareWindow goodWindow, const Store& badStore,
                          const std::string& badName, CompareWindow badWindow, const AnalysisConfig& config,
                          const std::atomic<bool>* cancel) {
    using namespace compare;
    checkCancel(cancel);
    Side good = makeSide(goodStore, goodName, goodWindow, config, cancel);
    checkCancel(cancel);
    Side bad = makeSide(badStore, badName, badWindow, config, cancel);
    good.sameStoreAsOther = bad.sameStoreAsOther = &goodStore == &badStore;

    CompareReport r;
    r.good = good.info;
    r.bad = bad.info;
    topologyChanges(good, bad, r.changes);
    moduleChanges(good, bad, config.optics, r.changes);
    toolEventChanges(good, bad, r.changes);
    checkCancel(cancel);
    {
        const Store::ReadTransaction readGood(goodStore);
        loadChanges(good, bad, config.compare, config.hotLink.util, r.changes);
    }
    checkCancel(cancel);
    findingChanges(good, bad, r.changes);
    jobChanges(good, bad, r.changes);
    benchmarkChanges(good, bad, config, r.changes);
    std::stable_sort(r.changes.begin(), r.changes.end(), [](const Change& a, const Change& b) { return a.score > b.score; });
    return r;
}

} // namespace fabscope
