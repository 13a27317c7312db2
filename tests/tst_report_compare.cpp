// The comparison report (`fabscope compare ... --out FILE.(html|pdf)`, docs/REPORTS.md
// "Comparison report"). What a reader checks: the first section is "What changed", its rows in
// score order with units on every number and times in UTC with the date; the fabric is drawn
// with each changed link in the legend's colour of its change (the removed uplink dashed in the
// "removed" colour, more load and less load apart, the job's host ringed); HTML and PDF are
// written (the PDF's text read back with poppler's pdftotext) and through the CLI on the stores
// of tests/compare_fixture.h.
#include "core/report/compare_document.h"
#include "core/report/html_writer.h"
#include "analysis_fixture.h"
#include "compare_fixture.h"
#include "screenshot.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QXmlStreamReader>

#include <map>

using namespace atest;

namespace {

// 2 spines, 4 leaves with two hosts each; `full` false leaves out leaf02's uplink to spine02.
Fabric fatTree(bool full) {
    MiniFabric m;
    const NodeId s1 = m.sw("spine01"), s2 = m.sw("spine02");
    for (int l = 1; l <= 4; ++l) {
        const NodeId leaf = m.sw("leaf0" + std::to_string(l));
        for (int h = 0; h < 2; ++h) m.link(leaf, 1 + h, m.host("dgx00" + std::to_string(2 * l - 1 + h) + " mlx5_0"), 1);
        m.link(leaf, 9, s1, l);
        if (full || l != 2) m.link(leaf, 10, s2, l);
    }
    return m.build();
}

PortRef ref(const std::string& node, const std::string& port) { return {node, "", port}; }

Change change(ChangeKind kind, std::vector<PortRef> ports, ChangeValues good, ChangeValues bad, std::string summary, double score) {
    Change c;
    c.kind = kind;
    c.ports = std::move(ports);
    c.good = std::move(good);
    c.bad = std::move(bad);
    c.summary = std::move(summary);
    c.score = score;
    return c;
}

// What compareRuns would give for the fabrics above, made by hand, sorted by score.
CompareReport handMade() {
    constexpr double t0 = static_cast<double>(kT0);
    CompareReport r;
    r.good = {"good.sqlite", t0, t0 + 3600, "A", t0};
    r.bad = {"bad.sqlite", t0 + 86400, t0 + 86400 + 1800, "B", t0 + 86000};
    const auto load = [](double p95, double hot) {
        return ChangeValues{{"p50_util", p95 / 2}, {"p95_util", p95}, {"hot_seconds", hot}, {"capacity_gbps", 200.0}};
    };
    r.changes.push_back(change(ChangeKind::Topology, {ref("leaf02", "10"), ref("spine02", "2")}, {{"link", std::string("4xHDR")}},
                               {{"link", std::string("none")}}, "link leaf02 p10 - spine02 p2 removed", 100));
    r.changes.push_back(change(ChangeKind::Load, {ref("leaf02", "9"), ref("spine01", "2")}, load(0.41, 0), load(0.93, 120),
                               "leaf02 p9 -> spine01 p2: p95 utilisation 41% -> 93%", 72));
    r.changes.push_back(change(ChangeKind::Errors, {ref("leaf03", "1"), ref("dgx005 mlx5_0", "1")}, {{"finding", std::string("none")}},
                               {{"finding", std::string("error_link")}, {"rate_per_s", 5.0}, {"first_error_time", t0 + 86500}},
                               "new in the bad run: symbol errors on leaf03 p1", 60));
    Change job = change(ChangeKind::Job, {}, {{"transports", std::string("NET/IB/GDRDMA")}, {"gdrdma_share", 1.0}},
                        {{"transports", std::string("NET/IB")}, {"gdrdma_share", 0.5}}, "job train-7: GDRDMA lost on dgx003", 45);
    job.hosts = {"dgx003"};
    r.changes.push_back(job);
    r.changes.push_back(change(ChangeKind::Load, {ref("leaf01", "9"), ref("spine01", "1")}, load(0.5, 0), load(0.2, 0),
                               "leaf01 p9 -> spine01 p1: p95 utilisation 50% -> 20%", 30));
    r.changes.push_back(change(ChangeKind::Load, {ref("leaf04", "9"), ref("spine01", "4")}, {{"data", std::string("none")}},
                               load(0.3, 0), "leaf04 p9 -> spine01 p4: counters on the bad side only", 5));
    return r;
}

const Table* table(const Section& s, const std::string& id) {
    for (const auto& b : s.blocks)
        if (const auto* t = std::get_if<Table>(&b); t && t->id == id) return t;
    return nullptr;
}

const Diagram* diagram(const ReportDocument& doc) {
    for (const auto& s : doc.sections)
        for (const auto& b : s.blocks)
            if (const auto* d = std::get_if<Diagram>(&b)) return d;
    return nullptr;
}

// Every SVG element with an id, and each legend line's colour by its text.
struct Svg {
    std::map<QString, QXmlStreamAttributes> byId;
    std::map<QString, QString> legend;  // text -> stroke of the line before it
    std::vector<std::pair<QString, QString>> rings;  // (stroke, title of the group) of unfilled circles
    bool ok = false;
};

Svg parse(const std::string& text) {
    Svg svg;
    QXmlStreamReader x(QByteArray::fromStdString(text));
    QString lastStroke, ring;
    while (!x.atEnd()) {
        if (x.readNext() != QXmlStreamReader::StartElement) continue;
        const auto a = x.attributes();
        if (a.hasAttribute(QStringLiteral("id"))) svg.byId[a.value(QStringLiteral("id")).toString()] = a;
        if (x.name() == QLatin1String("line")) lastStroke = a.value(QStringLiteral("stroke")).toString();
        if (x.name() == QLatin1String("circle") && a.value(QStringLiteral("fill")) == QLatin1String("none"))
            ring = a.value(QStringLiteral("stroke")).toString();
        if (x.name() == QLatin1String("title") && !ring.isEmpty()) {
            svg.rings.emplace_back(ring, x.readElementText());
            ring.clear();
        }
        if (x.name() == QLatin1String("text")) svg.legend[x.readElementText()] = lastStroke;
    }
    svg.ok = !x.hasError();
    return svg;
}

QString runTool(const QString& tool, const QStringList& args) {
    QProcess p;
    p.start(QStandardPaths::findExecutable(tool), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

// poppler-utils is one of build.sh's test packages: without it the PDF is unchecked, a failure.
QString pdfText(const std::string& pdf) {
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty()) return QStringLiteral("pdftotext not installed");
    // Reading order without layout, whitespace squeezed: a table cell's text wraps anywhere.
    return runTool(QStringLiteral("pdftotext"), {QStringLiteral("-raw"), QString::fromStdString(pdf), QStringLiteral("-")})
        .simplified();
}

struct Run {
    int code = -1;
    QByteArray err;
};

Run runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(FABSCOPE_BIN), args);
    if (!p.waitForFinished(120000)) return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardError()};
}

QString readAll(const std::string& path) {
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString secs(double v) { return QString::number(static_cast<qint64>(v)); }

// The marked line whose <title> names both ends (either order), as (stroke, dashed).
std::pair<QString, bool> markedLink(const std::string& svg, const QString& a, const QString& b) {
    QXmlStreamReader x(QByteArray::fromStdString(svg));
    QXmlStreamAttributes line;
    while (!x.atEnd()) {
        if (x.readNext() != QXmlStreamReader::StartElement) continue;
        if (x.name() == QLatin1String("line")) line = x.attributes();
        if (x.name() != QLatin1String("title") || !line.hasAttribute(QStringLiteral("id"))) continue;
        const QString first = x.readElementText().section(QLatin1Char('\n'), 0, 0);
        if (first == a + QStringLiteral(" \u2013 ") + b || first == b + QStringLiteral(" \u2013 ") + a)
            return {line.value(QStringLiteral("stroke")).toString(), line.hasAttribute(QStringLiteral("stroke-dasharray"))};
        line.clear();
    }
    return {QStringLiteral("not marked"), false};
}

} // namespace

class TestReportCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    const Fabric good_ = fatTree(true), bad_ = fatTree(false);
    const CompareReport report_ = handMade();

    std::string path(const char* name) const { return dir_.filePath(QString::fromUtf8(name)).toStdString(); }

private Q_SLOTS:
    void whatChangedComesFirstRankedWithUnits() {
        const ReportDocument doc = buildCompareDocument(report_, {&good_, &bad_});
        QVERIFY(!doc.sections.empty());
        QCOMPARE(doc.sections.front().title, std::string("What changed"));
        const Table* t = table(doc.sections.front(), "what_changed");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), report_.changes.size());
        const auto col = [&](const char* name) {
            return static_cast<std::size_t>(std::find(t->columns.begin(), t->columns.end(), name) - t->columns.begin());
        };
        const std::size_t rank = col("Rank"), kind = col("Kind"), good = col("Good"), bad = col("Bad"), score = col("Score (0-100)"),
                          where = col("Where");
        QVERIFY(score < t->columns.size() && good < t->columns.size() && where < t->columns.size());
        double last = 101;
        for (std::size_t i = 0; i < t->rows.size(); ++i) {
            const auto& cells = t->rows[i].cells;
            QCOMPARE(cells[rank], std::to_string(i + 1));
            const double s = std::stod(cells[score]);
            QVERIFY2(s <= last, cells[score].c_str());  // highest first
            last = s;
            QCOMPARE(cells[kind], std::string(toString(report_.changes[i].kind)));
        }
        QCOMPARE(t->rows[0].cells[where], std::string("leaf02 p10 \u2192 spine02 p2"));
        QCOMPARE(t->rows[0].tone, Tone::Critical);
        // Every number with its unit: utilisation fractions as %, capacity in Gb/s, time in s.
        const std::string& hot = t->rows[1].cells[bad];
        for (const char* part : {"p95 util: 93 %", "p50 util: 46.5 %", "hot: 120 s"})
            QVERIFY2(hot.find(part) != std::string::npos, (hot + " lacks " + part).c_str());
        QVERIFY2(t->rows[1].cells[good].find("p95 util: 41 %") != std::string::npos, t->rows[1].cells[good].c_str());
        QVERIFY2(t->rows[2].cells[bad].find("rate: 5 /s") != std::string::npos, t->rows[2].cells[bad].c_str());
        QVERIFY2(t->rows[2].cells[bad].find("first error time: 2023-11-15 22:") != std::string::npos, t->rows[2].cells[bad].c_str());
        QCOMPARE(t->rows[3].cells[where], std::string("hosts dgx003"));
        QVERIFY2(t->rows[3].cells[bad].find("gdrdma share: 50 %") != std::string::npos, t->rows[3].cells[bad].c_str());
        QCOMPARE(t->rows[5].cells[good], std::string("no data"));  // a side without data is not zero

        // The sides: stores, windows and snapshots in UTC with the date.
        const auto sides = std::find_if(doc.sections.begin(), doc.sections.end(), [](const Section& s) { return s.id == "sides"; });
        QVERIFY(sides != doc.sections.end());
        const Table* st = table(*sides, "compare_sides");
        QVERIFY(st && st->rows.size() == 2);
        QCOMPARE(st->rows[0].cells[1], std::string("good.sqlite"));
        QCOMPARE(st->rows[0].cells[2], std::string("2023-11-14 22:13:20 UTC"));
        QCOMPARE(st->rows[1].cells[3], std::string("2023-11-15 22:43:20 UTC"));
        QCOMPARE(st->rows[1].cells[4], std::string("30 min"));
        QCOMPARE(st->rows[1].cells[5], std::string("B"));

        // The load table of Changes by kind: one column per value with its unit, fractions in %.
        const auto byKind = std::find_if(doc.sections.begin(), doc.sections.end(), [](const Section& s) { return s.id == "by-kind"; });
        QVERIFY(byKind != doc.sections.end());
        const Table* lt = table(*byKind, "changes_load");
        QVERIFY(lt && lt->rows.size() == 3);
        const auto column = [&](const char* name) {
            const auto at = std::find(lt->columns.begin(), lt->columns.end(), name) - lt->columns.begin();
            return static_cast<std::size_t>(at);
        };
        QVERIFY(column("p95 util (%)") < lt->columns.size() && column("capacity (Gb/s)") < lt->columns.size());
        QCOMPARE(lt->rows[0].cells[column("p95 util (%)")], std::string("41 \u2192 93"));
        QCOMPARE(lt->rows[0].cells[column("capacity (Gb/s)")], std::string("200"));  // alike on both sides: once
        QCOMPARE(lt->rows[2].cells[column("p95 util (%)")], std::string("no data \u2192 30"));
        // What changed shows what differs; the load's unchanged capacity is left to the kind table.
        QVERIFY(t->rows[1].cells[bad].find("capacity") == std::string::npos);
    }

    void fabricMarksTheChangedLinks() {
        const Diagram d = compareFabricDiagram(report_, {&good_, &bad_});
        const Svg svg = parse(d.svg);
        QVERIFY(svg.ok);
        // The removed uplink: present only on the good side, drawn dashed in the legend's "removed" colour.
        QVERIFY(svg.byId.count(QStringLiteral("cmp-1")));
        const auto& removed = svg.byId.at(QStringLiteral("cmp-1"));
        const QString removedColour = svg.legend.at(QStringLiteral("link removed (topology)"));
        QCOMPARE(removedColour, QString::fromLatin1(comparecolour::kRemoved));
        QCOMPARE(removed.value(QStringLiteral("stroke")).toString(), removedColour);
        QVERIFY(removed.hasAttribute(QStringLiteral("stroke-dasharray")));
        // More load and less load in their own colours, errors in theirs; every marked line is
        // thicker than the unchanged ones.
        QCOMPARE(svg.byId.at(QStringLiteral("cmp-2")).value(QStringLiteral("stroke")).toString(),
                 svg.legend.at(QStringLiteral("more load on the bad side")));
        QCOMPARE(svg.byId.at(QStringLiteral("cmp-5")).value(QStringLiteral("stroke")).toString(),
                 svg.legend.at(QStringLiteral("less load on the bad side")));
        QCOMPARE(svg.byId.at(QStringLiteral("cmp-3")).value(QStringLiteral("stroke")).toString(),
                 svg.legend.at(QStringLiteral("errors changed")));
        QVERIFY(svg.legend.at(QStringLiteral("more load on the bad side")) != svg.legend.at(QStringLiteral("less load on the bad side")));
        QVERIFY(!svg.byId.count(QStringLiteral("cmp-4")));  // the job is no link
        // The job's host is ringed in the job colour, its title naming the change.
        bool ringed = false;
        for (const auto& [stroke, title] : svg.rings)
            ringed = ringed || (title.startsWith(QLatin1String("dgx003 mlx5_0")) && title.contains(QLatin1String("#4 job")) &&
                                stroke == svg.legend.at(QStringLiteral("job, benchmark or probe changed")));
        QVERIFY(ringed);

        // The removed link's line runs from leaf02 to spine02: its ends are where those boxes are.
        QString leaf02, spine02;
        QXmlStreamReader x(QByteArray::fromStdString(d.svg));
        std::map<QString, QPointF> at;  // node name -> centre of its box
        QPointF last;
        while (!x.atEnd())
            if (x.readNext() == QXmlStreamReader::StartElement) {
                const auto a = x.attributes();
                if (x.name() == QLatin1String("rect") && a.hasAttribute(QStringLiteral("rx")))
                    last = {a.value(QStringLiteral("x")).toDouble() + a.value(QStringLiteral("width")).toDouble() / 2,
                            a.value(QStringLiteral("y")).toDouble() + 6};
                if (x.name() == QLatin1String("title")) at[x.readElementText().section(QLatin1Char('\n'), 0, 0)] = last;
            }
        const QPointF p1(removed.value(QStringLiteral("x1")).toDouble(), removed.value(QStringLiteral("y1")).toDouble());
        const QPointF p2(removed.value(QStringLiteral("x2")).toDouble(), removed.value(QStringLiteral("y2")).toDouble());
        const auto near = [](QPointF a, QPointF b) { return std::abs(a.x() - b.x()) < 0.2 && std::abs(a.y() - b.y()) < 0.2; };
        QVERIFY(at.count(QStringLiteral("leaf02")) && at.count(QStringLiteral("spine02")));
        QVERIFY((near(p1, at[QStringLiteral("leaf02")]) && near(p2, at[QStringLiteral("spine02")])) ||
                (near(p2, at[QStringLiteral("leaf02")]) && near(p1, at[QStringLiteral("spine02")])));

        // Qt Svg (the PDF's renderer) reads it; a person may look at it.
        QSvgRenderer renderer(QByteArray::fromStdString(d.svg));
        QVERIFY(renderer.isValid());
        QImage image(d.width * 2, d.height * 2, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        QVERIFY(saveScreenshot(QPixmap::fromImage(image), QStringLiteral("report_compare_fabric.png")));
    }

    void withoutTheGoodFabricTheMissingLinkIsStillRemoved() {
        // Only the bad side's fabric: the uplink it lacks is drawn from its ends, as removed.
        const Svg svg = parse(compareFabricDiagram(report_, {nullptr, &bad_}).svg);
        QVERIFY(svg.ok);
        QCOMPARE(svg.byId.at(QStringLiteral("cmp-1")).value(QStringLiteral("stroke")).toString(), QString::fromLatin1(comparecolour::kRemoved));
        // No topology at all: a note instead of a drawing, the table still first.
        const ReportDocument doc = buildCompareDocument(report_, {});
        QCOMPARE(doc.sections.front().id, std::string("what-changed"));
        QVERIFY(!diagram(doc));
    }

    void htmlAndPdfAreWritten() {
        const std::string html = path("cmp.html"), pdf = path("cmp.pdf");
        writeCompareReport(report_, {&good_, &bad_}, ReportFormat::Html, html);
        writeCompareReport(report_, {&good_, &bad_}, ReportFormat::Pdf, pdf);
        QFile h(QString::fromStdString(html));
        QVERIFY(h.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(h.readAll());
        const auto firstSection = QRegularExpression(QStringLiteral("<section id=\"([a-z-]+)\">\\s*<h2>([^<]+)</h2>")).match(text);
        QVERIFY(firstSection.hasMatch());
        QCOMPARE(firstSection.captured(2), QStringLiteral("What changed"));
        QVERIFY(text.contains(QLatin1String("id=\"cmp-1\"")));
        QVERIFY(text.contains(QLatin1String("2023-11-14 22:13:20 UTC")));
        if (const QByteArray keep = qgetenv("FABSCOPE_KEEP_REPORTS"); !keep.isEmpty()) {
            QFile::copy(QString::fromStdString(pdf), QString::fromUtf8(keep) + QStringLiteral("/compare.pdf"));
            QFile::copy(QString::fromStdString(html), QString::fromUtf8(keep) + QStringLiteral("/compare.html"));
        }
        const QString pdfTextOut = pdfText(pdf);
        const qsizetype what = pdfTextOut.indexOf(QLatin1String("What changed")), sides = pdfTextOut.indexOf(QLatin1String("Sides"));
        QVERIFY2(what >= 0 && sides > what, qPrintable(pdfTextOut.left(400)));
        QVERIFY2(pdfTextOut.contains(QLatin1String("leaf02 p10")), qPrintable(pdfTextOut.left(400)));
        QVERIFY(pdfTextOut.contains(QLatin1String("Gb/s")));
        // A format the comparison does not write is refused, and nothing is left behind.
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeCompareReport(report_, {}, ReportFormat::Csv, path("cmp.csv")));
        QVERIFY(!QFile::exists(QString::fromStdString(path("cmp.csv"))));
    }

    // Through the CLI on compare_fixture.h's runs: leaf01 p20 - spine01 p1 went down, its load
    // moved to leaf01's other uplinks, leaf03 p21 - spine02 p3 came back at 1x.
    void cliWritesHtmlAndPdf() {
        Stores stores(dir_);
        const cmpfix::Stores2 s = cmpfix::make(stores);
        const std::string html = path("cli.html"), pdf = path("cli.pdf"), json = path("cli.json");
        const QStringList oneStore{QStringLiteral("compare"), QStringLiteral("--db"), QString::fromStdString(s.one), QStringLiteral("--good"),
                                   secs(cmpfix::kGoodFrom) + ':' + secs(cmpfix::kGoodTo), QStringLiteral("--bad"),
                                   secs(cmpfix::kBadFrom) + ':' + secs(cmpfix::kBadTo), QStringLiteral("--out")};
        Run r = runCli(oneStore + QStringList{QString::fromStdString(html)});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString text = readAll(html);
        const auto firstSection = QRegularExpression(QStringLiteral("<section id=\"([a-z-]+)\">\\s*<h2>([^<]+)</h2>")).match(text);
        QVERIFY(firstSection.hasMatch());
        QCOMPARE(firstSection.captured(2), QStringLiteral("What changed"));
        QVERIFY(text.contains(QLatin1String("2023-11-14 22:13:20 UTC")));  // the good window's start, with its date
        const qsizetype svgAt = text.indexOf(QLatin1String("<svg"), text.indexOf(QLatin1String("<figure class=\"diagram\"")));
        QVERIFY(svgAt > 0);
        const std::string svg = text.mid(svgAt, text.indexOf(QLatin1String("</svg>"), svgAt) + 6 - svgAt).toStdString();
        QCOMPARE(markedLink(svg, QStringLiteral("leaf01 p20"), QStringLiteral("spine01 p1")),
                 std::make_pair(QString::fromLatin1(comparecolour::kRemoved), true));
        QCOMPARE(markedLink(svg, QStringLiteral("leaf03 p21"), QStringLiteral("spine02 p3")).first, QString::fromLatin1(comparecolour::kTopology));
        QCOMPARE(markedLink(svg, QStringLiteral("leaf01 p21"), QStringLiteral("spine02 p1")).first, QString::fromLatin1(comparecolour::kLoadUp));
        QCOMPARE(markedLink(svg, QStringLiteral("leaf02 p20"), QStringLiteral("spine01 p2")).first, QStringLiteral("not marked"));

        // Two stores, as PDF: the text a reader sees, What changed first, the downed uplink named.
        r = runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), QString::fromStdString(s.good), QStringLiteral("--bad-db"),
                    QString::fromStdString(s.bad), QStringLiteral("--out"), QString::fromStdString(pdf)});
        QVERIFY2(r.code == 0, r.err.constData());
        if (const QByteArray keep = qgetenv("FABSCOPE_KEEP_REPORTS"); !keep.isEmpty()) {
            QFile::copy(QString::fromStdString(pdf), QString::fromUtf8(keep) + QStringLiteral("/compare-cli.pdf"));
            QFile::copy(QString::fromStdString(html), QString::fromUtf8(keep) + QStringLiteral("/compare-cli.html"));
        }
        const QString info = QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty()
                                 ? QStringLiteral("pdfinfo not installed")
                                 : runTool(QStringLiteral("pdfinfo"), {QString::fromStdString(pdf)});
        QVERIFY2(QRegularExpression(QStringLiteral("Pages:\\s+[1-9]")).match(info).hasMatch(), qPrintable(info));
        const QString t = pdfText(pdf);
        const qsizetype what = t.indexOf(QLatin1String("What changed")), fabric = t.indexOf(QLatin1String("Fabric, changed links marked"));
        QVERIFY2(what >= 0 && fabric > what, qPrintable(t.left(600)));
        QVERIFY2(t.contains(QLatin1String("leaf01 p20")), qPrintable(t.left(600)));
        QVERIFY(t.contains(QLatin1String("GPUDirect RDMA")));

        // JSON stays the compare JSON; a format the comparison does not write is a usage error.
        r = runCli(oneStore + QStringList{QString::fromStdString(json)});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(readAll(json).contains(QLatin1String("\"fabscope_compare\": 1")));
        QCOMPARE(runCli(oneStore + QStringList{QString::fromStdString(path("cli.csv"))}).code, 2);
    }
};

QTEST_MAIN(TestReportCompare)
#include "tst_report_compare.moc"
