// Hands the PDF renderer to core's report writer when this object is linked in. This is why
// fabscope_report_pdf is an OBJECT library: a static archive would drop this unreferenced file.
#include "core/report/report_writer.h"
#include "views/report/pdf_writer.h"

namespace {

[[maybe_unused]] const bool kRegistered = [] {
    fabscope::setPdfRenderer(&fabscope::writeReportPdf);
    return true;
}();

} // namespace
