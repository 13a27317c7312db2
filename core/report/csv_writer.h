#pragma once
// The report's tables as one CSV file in sections (docs/REPORTS.md): a marker row
// `# table,NAME` opens each table, the next row is its header, an empty line closes it. Fields
// follow RFC 4180; every row of a table has as many fields as its header.
#include "core/report/document.h"

#include <string>

namespace fabscope {

std::string renderCsv(const ReportDocument& doc);

} // namespace fabscope
