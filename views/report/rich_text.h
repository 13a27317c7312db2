#pragma once
// A report document as a flow of small Qt rich-text pieces (a heading, a paragraph, one table
// row, a pair of charts), so the PDF writer can page them itself: Qt's own pagination splits
// multi-line table rows across pages and cuts images. Charts and diagrams are rendered from their
// SVG into images carried with their piece.
#include "core/report/document.h"

#include <QImage>
#include <QString>

#include <utility>
#include <vector>

namespace fabscope {

struct RichPiece {
    QString html;  // the Qt rich-text subset, every input string escaped
    std::vector<std::pair<QString, QImage>> images;  // resource URL -> image, for <img src>
    int header = -1;             // a table row: index of its table's header piece (repeated on a new page)
    bool keepWithNext = false;   // headings, captions, table headers stay with what follows
};

// The pieces of `doc`, in reading order, for a page `pageWidthPx` wide at 96 dpi.
std::vector<RichPiece> buildRichPieces(const ReportDocument& doc, double pageWidthPx);

} // namespace fabscope
