#pragma once
// A report document as Qt rich text (the HTML subset QTextDocument lays out and paginates),
// with each chart rendered from its SVG into an image resource of the document.
#include "core/report/document.h"

#include <QTextDocument>

namespace fabscope {

// Fills `out` (fonts, HTML, chart images) for a page `pageWidthPx` wide at 96 dpi.
void buildRichText(const ReportDocument& doc, QTextDocument& out, double pageWidthPx);

} // namespace fabscope
