// PDF pagination: a fabric with many hot links gives a findings table over several pages; on
// every page the table's header row is repeated and no row is split between two pages. Checked
// on the PDF's text with poppler's pdfinfo/pdftotext (skipped with a message when absent). The
// page breaking itself is also checked without poppler, on paginate().
#include "external_tool.h"
#include "analysis_fixture.h"
#include "core/report/document.h"
#include "core/report/report_data.h"
#include "core/report/report_writer.h"
#include "views/report/pdf_pagination.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <map>
#include <set>

using namespace atest;

namespace {

// 16 leaves with long names, four up-links each, every up-link hot (90%, a warning) twice.
Fabric manyUplinks() {
    MiniFabric m;
    std::vector<NodeId> spines;
    for (int s = 1; s <= 4; ++s) spines.push_back(m.sw("spine0" + std::to_string(s)));
    for (int l = 1; l <= 16; ++l) {
        const NodeId leaf = m.sw("leaf" + std::string(l < 10 ? "0" : "") + std::to_string(l) + "-row-c-rack-17-pod-2");
        m.link(leaf, 1, m.host("dgx" + std::to_string(100 + l) + " mlx5_0"), 1);
        for (int s = 0; s < 4; ++s) m.link(leaf, 9 + s, spines[static_cast<std::size_t>(s)], l);
    }
    return m.build();
}

std::string hotTwice() {
    const std::vector<double> util{0.9, 0.9, 0.9, 0.1, 0.1, 0.9, 0.9, 0.9, 0.1};
    std::string csv;
    for (int l = 1; l <= 16; ++l)
        for (int p = 9; p <= 12; ++p)
            csv += rows("leaf" + std::string(l < 10 ? "0" : "") + std::to_string(l) + "-row-c-rack-17-pod-2", p, "xmit_bytes", hdrBytes(util));
    return csv;
}

QString squeeze(QString s) { return s.remove(QRegularExpression(QStringLiteral("\\s+"))); }

QString run(const QString& tool, const QStringList& args) {
    QProcess p;
    p.start(tool, args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

class TestReportPdf : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void paginationKeepsRowsWholeAndRepeatsHeaders() {
        // 0 heading (kept with next), 1 caption (kept), 2 header (kept), rows 3..12 of 30 each.
        std::vector<PieceBox> boxes{{20, -1, true}, {10, -1, true}, {15, -1, true}};
        for (int i = 0; i < 10; ++i) boxes.push_back({30, 2, false});
        const auto placed = paginate(boxes, 100);
        std::map<int, std::vector<int>> pages;
        for (const auto& p : placed) {
            QVERIFY(p.y >= 0 && p.y + boxes[static_cast<std::size_t>(p.piece)].height <= 100 + 1e-9);  // nothing cut
            pages[p.page].push_back(p.piece);
        }
        QVERIFY(pages.size() >= 4);
        for (const auto& [page, pieces] : pages) {
            if (page == 0) continue;
            QCOMPARE(pieces.front(), 2);  // every later page starts with the header
        }
        // A piece taller than a page is the one thing split: continued at a negative offset.
        const auto tall = paginate({{50, -1, false}, {250, -1, false}}, 100);
        QCOMPARE(tall.size(), std::size_t{4});
        QCOMPARE(tall[1].page, 1);
        QCOMPARE(tall[2].y, -100.0);
    }

    void longFindingsTableRepeatsItsHeaderAndSplitsNoRow() {
        const std::string db = stores_.make(manyUplinks(), hotTwice());
        const Store store(db, Store::Mode::ReadOnly);
        const ReportData d = buildReportData(store, {});
        std::map<QString, QString> summaryOf;  // hot_link-N -> its summary
        for (const auto& f : d.findings.findings)
            if (f.kind == FindingKind::HotLink) summaryOf[QString::fromStdString(f.id)] = QString::fromStdString(f.summary);
        QCOMPARE(summaryOf.size(), std::size_t{128});
        const std::string pdf = stores_.path("long.pdf");
        writeReport(d, ReportFormat::Pdf, pdf);
        if (const QByteArray keep = qgetenv("FABSCOPE_KEEP_REPORTS"); !keep.isEmpty())
            QFile::copy(QString::fromStdString(pdf), QString::fromUtf8(keep) + QStringLiteral("/long.pdf"));

        FABSCOPE_REQUIRE_TOOL("pdfinfo", "poppler-utils");
        FABSCOPE_REQUIRE_TOOL("pdftotext", "poppler-utils");
        const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        const QString info = run(pdfinfo, {QString::fromStdString(pdf)});
        const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info);
        QVERIFY2(m.hasMatch(), qPrintable(info));
        const int pages = m.captured(1).toInt();
        QVERIFY2(pages >= 4, qPrintable(info));

        const QString header = QStringLiteral("IdSeverityStartEndSummary");
        // A row of the findings table starts with its id and severity (the incidents table, which
        // also names ids, starts its rows with the incident's number).
        const QRegularExpression idRe(QStringLiteral("^hot_link-\\d+(?= (warning|critical|info))"), QRegularExpression::MultilineOption);
        std::map<QString, int> pageOf;
        std::set<int> tablePages;
        for (int page = 1; page <= pages; ++page) {
            const QString text = run(pdftotext, {QStringLiteral("-raw"), QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
                                                 QString::number(page), QString::fromStdString(pdf), QStringLiteral("-")});
            QVERIFY2(text.contains(QStringLiteral("page %1 of %2").arg(page).arg(pages)), qPrintable(QString::number(page)));
            const QString flat = squeeze(text);
            for (auto it = idRe.globalMatch(text); it.hasNext();) {
                const QString id = it.next().captured();
                QVERIFY2(!pageOf.count(id) || pageOf[id] == page, qPrintable(id + " on two pages"));
                pageOf[id] = page;
                tablePages.insert(page);
                // The whole row is on this page: its summary, however it wrapped, is here too.
                QVERIFY2(flat.contains(squeeze(summaryOf.at(id))), qPrintable(id + " split from its summary"));
            }
            if (tablePages.count(page)) QVERIFY2(flat.contains(header), qPrintable(QStringLiteral("no header on page %1").arg(page)));
        }
        QCOMPARE(pageOf.size(), summaryOf.size());  // every row printed
        QVERIFY2(tablePages.size() >= 2, qPrintable(QString::number(tablePages.size())));
    }
};

QTEST_MAIN(TestReportPdf)
#include "tst_report_pdf.moc"
