#pragma once
// One detector per finding kind (DESIGN §3); each appends what it finds, unsorted.
#include "core/analysis/context.h"

#include <vector>

namespace fabscope {

void detectHotLinks(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectDegradedLinks(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectErrorLinks(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectLinkFlaps(const AnalysisContext& ctx, std::vector<Finding>& out);

} // namespace fabscope
