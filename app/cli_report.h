#pragma once
// `fabscope report --db STORE --out FILE.(html|pdf|csv|json) [--from UNIX_S] [--to UNIX_S]
// [--config FILE]` (docs/CLI.md). The format comes from the extension. PDF works when a PDF
// renderer is linked in (views/report, fabscope_report_pdf, as in the fabscope-gui executable).
#include <string>
#include <vector>

namespace fabscope::cli {

// args[0] is "report". Returns 0 ok, 1 bad config or unwritable output, 2 usage, 3 store error.
int cmdReport(const std::vector<std::string>& args);

} // namespace fabscope::cli
