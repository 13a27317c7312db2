#pragma once
// The analysis entry point: runs every detector over a store and returns sorted, numbered
// findings (docs/FINDINGS.md-3). No Qt; used by `fabscope analyze`, reports and the GUI.
#include "core/analysis/analysis_config.h"
#include "core/analysis/findings.h"
#include "core/store/store.h"

#include <atomic>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

namespace fabscope {

struct AnalysisWindow {
    std::optional<double> from, to;  // UNIX seconds; missing ends default to the store's sample span
};

// Thrown by analyze() when its cancel flag was set: a newer analysis superseded it.
class AnalysisCancelled : public std::runtime_error {
public:
    AnalysisCancelled() : std::runtime_error("analysis cancelled") {}
};

class AnalysisContext;

// The window analyze() uses: the given ends, else the store's sample span widened by the probes'
// (the snapshot's time without samples).
std::pair<double, double> resolveWindow(const Store& store, const AnalysisWindow& window);
// The context over resolveWindow()'s window, each under its own read transaction. A read-only
// store reads the window through a second connection while this one builds the context.
std::unique_ptr<AnalysisContext> analysisContext(const Store& store, const AnalysisWindow& window,
                                                 const AnalysisConfig& config);

// Throws StoreError on store failures. `cancel` is checked before the context is built and
// between detectors; when set, analyze() stops there and throws AnalysisCancelled.
FindingsReport analyze(const Store& store, const AnalysisWindow& window, const AnalysisConfig& config,
                       const std::atomic<bool>* cancel = nullptr);
// The same over a context already built (a report shares its context with the findings).
FindingsReport analyze(const Store& store, const AnalysisContext& ctx, const std::atomic<bool>* cancel = nullptr);

} // namespace fabscope
