#include "views/report/pdf_writer.h"

#include "views/report/pdf_pagination.h"
#include "views/report/rich_text.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include <memory>
#include <stdexcept>
#include <vector>

namespace fabscope {
namespace {

constexpr int kDpi = 300;
constexpr double kMarginMm = 14;

// The CLI runs without a Qt application and often without a display: painting text needs a
// QGuiApplication, and the offscreen platform needs no display. A platform the user chose wins.
std::unique_ptr<QGuiApplication> ensureGuiApplication() {
    if (QCoreApplication::instance()) {
        if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
            throw std::runtime_error("PDF output needs a QGuiApplication, but this process runs a QCoreApplication");
        return nullptr;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char arg0[] = "fabscope";
    static char* argv[] = {arg0, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}

void drawFooter(QPainter& p, const QRectF& page, const QString& left, int pageNo, int pages) {
    p.save();
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(7);
    p.setFont(f);
    p.setPen(QColor(0x5b, 0x66, 0x70));
    const double y = page.bottom() + kDpi * 0.12;  // just below the text area
    p.drawLine(QPointF(page.left(), y), QPointF(page.right(), y));
    const QRectF band(page.left(), y + kDpi * 0.03, page.width(), kDpi * 0.15);
    p.drawText(band, Qt::AlignLeft | Qt::AlignTop, left);
    p.drawText(band, Qt::AlignRight | Qt::AlignTop, QStringLiteral("page %1 of %2").arg(pageNo).arg(pages));
    p.restore();
}

} // namespace

void writeReportPdf(const ReportDocument& doc, const std::string& path) {
    const auto app = ensureGuiApplication();
    QPdfWriter writer(QString::fromStdString(path));
    writer.setResolution(kDpi);
    writer.setTitle(QString::fromStdString(doc.title));
    writer.setCreator(QStringLiteral("FabScope"));
    const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm + 4),
                             QPageLayout::Millimeter);
    if (!writer.setPageLayout(layout)) throw std::runtime_error(path + ": cannot set the page layout");

    QPainter painter;
    if (!painter.begin(&writer)) throw std::runtime_error(path + ": cannot write");

    // Each piece is laid out on the writer itself, so fonts and images take its resolution; the
    // pages are then cut between pieces (pdf_pagination.h), never inside a table row or a chart.
    const QRectF area = layout.paintRectPixels(kDpi).toRectF();
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(8);
    std::vector<std::unique_ptr<QTextDocument>> texts;
    std::vector<PieceBox> boxes;
    for (const RichPiece& piece : buildRichPieces(doc, area.width() * 96.0 / kDpi)) {
        auto text = std::make_unique<QTextDocument>();
        text->documentLayout()->setPaintDevice(&writer);
        text->setDefaultFont(font);
        text->setDocumentMargin(0);
        for (const auto& [url, image] : piece.images) text->addResource(QTextDocument::ImageResource, QUrl(url), image);
        text->setHtml(piece.html);
        text->setTextWidth(area.width());
        boxes.push_back({text->size().height(), piece.header, piece.keepWithNext});
        texts.push_back(std::move(text));
    }
    const std::vector<Placement> placements = paginate(boxes, area.height());
    const int pages = placements.empty() ? 1 : placements.back().page + 1;

    const QString footer = QString::fromStdString(doc.title + (doc.meta.size() > 2 ? " - " + doc.meta[2].second : ""));
    int page = 0;
    for (const Placement& pl : placements) {
        while (page < pl.page) {
            drawFooter(painter, QRectF(0, 0, area.width(), area.height()), footer, page + 1, pages);
            if (!writer.newPage()) throw std::runtime_error(path + ": cannot add a page");
            ++page;
        }
        const QTextDocument& text = *texts[static_cast<std::size_t>(pl.piece)];
        painter.save();
        painter.setClipRect(QRectF(0, 0, area.width(), area.height()));
        painter.translate(0, pl.y);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = QRectF(0, -pl.y, area.width(), area.height());
        text.documentLayout()->draw(&painter, ctx);
        painter.restore();
    }
    drawFooter(painter, QRectF(0, 0, area.width(), area.height()), footer, page + 1, pages);
    if (!painter.end()) throw std::runtime_error(path + ": cannot finish the PDF");
}

} // namespace fabscope
