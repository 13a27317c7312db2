#pragma once
// Writing a report file in the format its name asks for. PDF needs Qt, which core does not use:
// the Qt side (views/report, fabscope_report_pdf) registers its renderer here at start-up.
#include "core/report/document.h"
#include "core/report/report_data.h"

#include <functional>
#include <optional>
#include <string>

namespace fabscope {

enum class ReportFormat { Html, Pdf, Csv, Json };

// From the file name's extension (case-insensitive): .html/.htm, .pdf, .csv, .json.
std::optional<ReportFormat> reportFormatFor(const std::string& path);

// Renders `doc` into a PDF at `path`; throws std::runtime_error on failure.
using PdfRenderer = void (*)(const ReportDocument& doc, const std::string& path);
void setPdfRenderer(PdfRenderer renderer);
[[nodiscard]] PdfRenderer pdfRenderer();  // nullptr when no PDF support is linked in

// Writes to a temporary file next to `path` and renames it, so a failure never leaves half a
// report behind. Throws std::runtime_error (I/O, or PDF without a renderer).
void writeReport(const ReportData& data, ReportFormat format, const std::string& path);

// A document built elsewhere (the comparison, the what-if prediction) as HTML or PDF, written the
// same way. Throws std::runtime_error, also for a format other than HTML or PDF.
void writeDocument(const ReportDocument& doc, ReportFormat format, const std::string& path);

// The temporary-then-rename every report file goes through: `write` writes the file it is given
// (next to `path`); on success it is renamed to `path`, on failure removed and the error names
// `path`. Throws std::runtime_error.
void writeAtomically(const std::string& path, const std::function<void(const std::string& tmp)>& write);

} // namespace fabscope
