#pragma once
// The what-if prediction of `fabscope whatif ... --out FILE.(html|pdf)` (docs/REPORTS.md "What-if
// prediction"): the changes, the window, the links they touch with p95/peak before and after, the
// p95 load before and after, the hosts cut off and each job's predicted slowdown. Marked as a
// prediction with its model throughout. Laid out by the ordinary writers (report_writer.h).
#include "core/report/document.h"
#include "core/report/report_writer.h"
#include "core/whatif/whatif.h"

#include <string>

namespace fabscope {

struct WhatIfDocumentInfo {
    std::string store;          // the store's path, as the user named it
    double hotUtil = 0.8;       // hot_link.util: "hot" in the links table
    double criticalUtil = 0.95; // hot_link.critical_util: critical rows
    double generatedAt = 0;     // UNIX seconds; 0: now
};

[[nodiscard]] ReportDocument buildWhatIfDocument(const WhatIfReport& report, const WhatIfDocumentInfo& info);

// Writes it as HTML or PDF through writeDocument (temporary file, renamed in place). Throws
// std::runtime_error, also for any other format.
void writeWhatIfReport(const WhatIfReport& report, const WhatIfDocumentInfo& info, ReportFormat format, const std::string& path);

} // namespace fabscope
