#pragma once
// A report as a paginated PDF (A4) through Qt's PDF writer, with the same sections, tables and
// charts as the HTML. Works headless: without a running Qt application it creates an offscreen
// QGuiApplication for the duration of the call.
#include "core/report/document.h"

#include <string>

namespace fabscope {

// Throws std::runtime_error when the file cannot be written, or when the process already runs a
// QCoreApplication that cannot paint (not a QGuiApplication).
void writeReportPdf(const ReportDocument& doc, const std::string& path);

} // namespace fabscope
