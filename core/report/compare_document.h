#pragma once
// The comparison report of `fabscope compare ... --out FILE.(html|pdf)` (docs/REPORTS.md
// "Comparison report"): "What changed" first, ranked as compareRuns() ranked it; the fabric drawn
// with the changed links marked; each kind's changes with their values; the two sides compared.
// Laid out by the ordinary writers (html_writer, the PDF renderer of report_writer.h).
#include "core/compare/compare.h"
#include "core/compare/compare_colours.h"
#include "core/model.h"
#include "core/report/document.h"
#include "core/report/report_writer.h"

#include <string>

namespace fabscope {

// The topology of each side (the snapshot in force at the window's end), either may be null.
// The drawing is the bad side's fabric; a link the good side has and the bad side lacks is drawn
// as removed (dashed), a node only the good side has is drawn too.
struct CompareFabrics {
    const Fabric* good = nullptr;
    const Fabric* bad = nullptr;
};

[[nodiscard]] ReportDocument buildCompareDocument(const CompareReport& report, const CompareFabrics& fabrics);

// The "Fabric" section's drawing: nodes in rows by tier (hosts at the bottom), every link thin
// grey, each changed link in the colour of its highest-ranked change (the element's id is
// "cmp-N", N its rank in "What changed", its <title> says what changed) with a legend.
[[nodiscard]] Diagram compareFabricDiagram(const CompareReport& report, const CompareFabrics& fabrics);

// Link colours of the drawing, by what changed (also the legend's).
namespace comparecolour {
// Load and removed links as the GUI's compare mode draws them (core/compare/compare_colours.h).
inline constexpr const char* kRemoved = comparergb::kRemovedHex.data();  // topology: the link is gone on the bad side (dashed)
inline constexpr const char* kAdded = "#1e7b34";     // topology: only the bad side has it
inline constexpr const char* kTopology = "#e07b00";  // topology: width, speed or state changed
inline constexpr const char* kRoute = "#7b3fa8";
inline constexpr const char* kLoadUp = comparergb::kMoreLoadHex.data();    // more traffic on the bad side: red
inline constexpr const char* kLoadDown = comparergb::kLessLoadHex.data();  // less traffic on the bad side: blue
inline constexpr const char* kOneSided = "#8a96a0";  // load with counters on one side only (dashed)
inline constexpr const char* kErrors = "#d6338a";
inline constexpr const char* kPauses = "#8c564b";
inline constexpr const char* kCongestion = "#9a9a00";
inline constexpr const char* kOther = "#17a2b8";     // job, benchmark, probe
inline constexpr const char* kUnchanged = "#c4cbd1";
} // namespace comparecolour

// Writes the comparison as HTML or PDF (PDF needs the renderer of report_writer.h) to a
// temporary file next to `path`, renamed in place. Throws std::runtime_error; other formats too.
void writeCompareReport(const CompareReport& report, const CompareFabrics& fabrics, ReportFormat format, const std::string& path);

} // namespace fabscope
