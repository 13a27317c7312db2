#pragma once
// The analysis entry point: runs every detector over a store and returns sorted, numbered
// findings (docs/FINDINGS.md-3). No Qt; used by `fabscope analyze`, reports and the GUI.
#include "core/analysis/analysis_config.h"
#include "core/analysis/findings.h"
#include "core/store/store.h"

#include <optional>

namespace fabscope {

struct AnalysisWindow {
    std::optional<double> from, to;  // UNIX seconds; missing ends default to the store's sample span
};

// Throws StoreError on store failures.
FindingsReport analyze(const Store& store, const AnalysisWindow& window, const AnalysisConfig& config);

} // namespace fabscope
