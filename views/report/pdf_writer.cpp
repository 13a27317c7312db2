#include "views/report/pdf_writer.h"

#include "views/report/rich_text.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <memory>
#include <stdexcept>

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

    // Lay the document out on the writer itself, so fonts and images take its resolution and
    // QTextDocument paginates to the printable area.
    const QRectF area = layout.paintRectPixels(kDpi).toRectF();
    QTextDocument text;
    text.documentLayout()->setPaintDevice(&writer);
    buildRichText(doc, text, area.width() * 96.0 / kDpi);
    text.setPageSize(area.size());
    const int pages = text.pageCount();

    const QString footer = QString::fromStdString(doc.title + (doc.meta.size() > 2 ? " - " + doc.meta[2].second : ""));
    for (int i = 0; i < pages; ++i) {
        if (i > 0 && !writer.newPage()) throw std::runtime_error(path + ": cannot add a page");
        painter.save();
        painter.translate(0, -i * area.height());
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = QRectF(0, i * area.height(), area.width(), area.height());
        text.documentLayout()->draw(&painter, ctx);
        painter.restore();
        drawFooter(painter, QRectF(0, 0, area.width(), area.height()), footer, i + 1, pages);
    }
    if (!painter.end()) throw std::runtime_error(path + ": cannot finish the PDF");
}

} // namespace fabscope
