#pragma once
// The report as JSON: exactly the findings contract of docs/FINDINGS.md (fabscope_findings, window,
// findings), plus the report's tables as numbers under the extra key "report".
#include "core/report/report_data.h"

#include <string>

namespace fabscope {

std::string renderJson(const ReportData& data, int indent = 2);

} // namespace fabscope
