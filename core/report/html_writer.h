#pragma once
// A report as one self-contained HTML file: inline CSS and SVG, no scripts, no fetches; prints
// on A4/Letter with page breaks that keep tables' rows and charts whole.
#include "core/report/document.h"

#include <string>

namespace fabscope {

std::string renderHtml(const ReportDocument& doc);

} // namespace fabscope
