#pragma once
// What each finding kind means, with the thresholds in force: one text for the report's Methods
// section and the GUI's Help > Finding kinds and findings tooltips, so they cannot disagree.
#include "core/analysis/analysis_config.h"
#include "core/analysis/finding_kind.h"

#include <string>
#include <utility>
#include <vector>

namespace fabscope {

// Every kind of kFindingKinds, in table order: (kind, definition with `config`'s thresholds).
[[nodiscard]] std::vector<std::pair<FindingKind, std::string>> kindDefinitions(const AnalysisConfig& config);

} // namespace fabscope
