// Reports: every section carries the demo's known numbers in every format; hostile node
// descriptions stay text; the PDF has pages; the CSV and JSON parse; annotations round-trip.
#include "external_tool.h"
#include "app/cli_report.h"
#include "core/demo_fabric.h"
#include "core/store/annotations.h"
#include "core/report/csv_writer.h"
#include "core/report/document.h"
#include "core/report/html_writer.h"
#include "core/report/json_writer.h"
#include "core/report/report_writer.h"
#include "core/report/svg_chart.h"
#include "core/store/sqlite_stmt.h"
#include "importers/import_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>

using namespace fabscope;

namespace {

constexpr const char* kHostile = R"(<script>alert(1)</script> & "q" 'x')";

// A switch whose description is markup, two hosts, and a hot first link, as ibnetdiscover
// prints it (the description is not escaped there either).
std::string hostileTopology() {
    const std::string d = kHostile;
    return "# Topology file: generated on Tue Nov 14 22:13:20 2023\n\n"
           "Switch\t8 \"S-0000000000001000\"\t\t# \"" + d + "\" enhanced port 0 lid 1 lmc 0\n"
           "[1]\t\"H-0000000000002000\"[1](2001) \t\t# \"gpu<b>1</b> mlx5_0\" lid 2 4xHDR\n"
           "[2]\t\"H-0000000000003000\"[1](3001) \t\t# \"host & co\" lid 3 4xHDR\n\n"
           "Ca\t1 \"H-0000000000002000\"\t\t# \"gpu<b>1</b> mlx5_0\"\n"
           "[1](2001) \t\"S-0000000000001000\"[1]\t\t# lid 2 lmc 0 \"" + d + "\" lid 1 4xHDR\n\n"
           "Ca\t1 \"H-0000000000003000\"\t\t# \"host & co\"\n"
           "[1](3001) \t\"S-0000000000001000\"[2]\t\t# lid 3 lmc 0 \"" + d + "\" lid 1 4xHDR\n";
}

// RFC 4180 rows of a whole CSV text (quoted fields may hold commas, quotes and newlines).
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false, any = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') {
            quoted = any = true;
        } else if (c == ',') {
            rows.back().push_back(field), field.clear(), any = true;
        } else if (c == '\n') {
            if (any || !field.empty()) rows.back().push_back(field);
            rows.emplace_back();
            field.clear();
            any = false;
        } else if (c != '\r') {
            field += c, any = true;
        }
    }
    if (any || !field.empty()) rows.back().push_back(field);
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const DemoFault& fault(const DemoManifest& m, FindingKind kind) {
    for (const auto& f : m.faults)
        if (f.kind == kind) return f;
    throw std::runtime_error("demo has no " + std::string(kindName(kind)));
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    DemoManifest demo_;
    ReportData data_;
    std::string html_;

    std::string p(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

    void import(const std::string& db, const std::string& path) {
        Store store(db);
        ImporterRegistry registry;
        const auto summary = ImportRunner(store, registry).run({path}, {});
        for (const auto& d : summary.diagnostics) qWarning("%s", d.format().c_str());
        QVERIFY(!summary.anyFailed());
    }

private Q_SLOTS:
    void initTestCase() {
        demo_ = writeDemo(p("demo"), {});
        import(p("demo.sqlite"), p("demo"));
        const Store store(p("demo.sqlite"), Store::Mode::ReadOnly);
        data_ = buildReportData(store, {});
        html_ = renderHtml(buildDocument(data_));
    }

    void fabricSummaryHasTheDemoShape() {
        const FabricSummary& f = data_.fabric;
        QCOMPARE(f.switches, std::size_t{12});
        QCOMPARE(f.cas, std::size_t{64});
        QCOMPARE(f.links, std::size_t{96});
        QCOMPARE(f.tiers.size(), std::size_t{3});
        QCOMPARE(f.tiers[0].cas, std::size_t{64});
        QCOMPARE(f.tiers[1].switches, std::size_t{8});
        QCOMPARE(f.tiers[1].role, std::string("leaf"));
        QCOMPARE(f.tiers[2].switches, std::size_t{4});
        // Every leaf: 8 host links down, 4 uplinks at 4xHDR = 200 Gb/s: 1600 vs 800, 2:1 ...
        QCOMPARE(f.oversubscription.size(), std::size_t{8});
        for (const auto& o : f.oversubscription) {
            QCOMPARE(o.downLinks, std::size_t{8});
            QCOMPARE(o.upLinks, std::size_t{4});
            QCOMPARE(o.upGbps, 800.0);
            QCOMPARE(o.nominalRatio(), 2.0);
            // ... except that leaf03's host link at 1x runs 150 Gb/s short.
            QCOMPARE(o.downGbps, o.node == "leaf03" ? 1450.0 : 1600.0);
        }
        std::map<std::string, std::size_t> gens;  // "class/width-speed" -> links
        for (const auto& g : f.generations) gens[g.linkClass + "/" + g.widthSpeed] = g.links;
        QCOMPARE(gens["host links/4xHDR"], std::size_t{63});
        QCOMPARE(gens["host links/1xHDR"], std::size_t{1});
        QCOMPARE(gens["leaf-spine links/4xHDR"], std::size_t{32});
    }

    void utilisationFindsTheHotUplink() {
        const DemoFault& hot = fault(demo_, FindingKind::HotLink);
        QVERIFY(!data_.utilisation.top.empty());
        const LinkDirectionUtil& top = data_.utilisation.top.front();
        QCOMPARE(top.tx.node, hot.node);
        QCOMPARE(top.tx.port, hot.port);
        QCOMPARE(top.rx.node, hot.peerNode);
        QVERIFY(top.stats.max >= 0.93);
        QCOMPARE(top.stats.secondsAbove, static_cast<double>(hot.end - hot.start));
        QVERIFY(!top.t.empty());  // charted
        bool sawUp = false;
        for (const auto& g : data_.utilisation.groups) {
            QVERIFY(g.stats.p50 <= g.stats.p95 && g.stats.p95 <= g.stats.p99 && g.stats.p99 <= g.stats.max);
            if (g.fromTier == 1 && g.toTier == 2) {
                sawUp = true;
                QCOMPARE(g.directions, std::size_t{32});
                QCOMPARE(g.stats.max, top.stats.max);
                QCOMPARE(g.stats.secondsAbove, static_cast<double>(hot.end - hot.start));
            }
            QCOMPARE(g.unmeasured, std::size_t{0});
        }
        QVERIFY(sawUp);
    }

    void gpuRiskCountsCriticalFindings() {
        // Critical: the hot uplink reaches leaf02's 8 hosts for its duration; the symbol errors
        // reach one host for theirs. The degraded link is a warning and is not counted.
        const DemoFault& hot = fault(demo_, FindingKind::HotLink);
        const DemoFault& err = fault(demo_, FindingKind::ErrorLink);
        const GpuRisk& r = data_.gpuRisk;
        QVERIFY(!r.fromJobs);
        QCOMPARE(r.gpusCounted, std::size_t{64});
        QCOMPARE(r.findings.size(), std::size_t{2});
        QCOMPARE(r.totalGpuSeconds, 8.0 * static_cast<double>(hot.end - hot.start) + static_cast<double>(err.end - err.start));
    }

    void gpuRiskPerJob() {
        const std::string db = p("jobs.sqlite");
        std::filesystem::copy_file(p("demo.sqlite"), db);
        Store store(db);
        // dgx009..dgx016 sit under leaf02, whose uplink runs hot; dgx001 under leaf01 does not.
        sql::exec(store.handle(), "INSERT INTO jobs(id, name, import_id) VALUES(1, 'train-a', 0), (2, 'eval-b', 0);"
                                  "INSERT INTO job_ranks(job_id, rank, host, device) VALUES(1, 0, 'dgx009', 'mlx5_0'), (1, 1, 'dgx010', 'mlx5_0'),"
                                  "(1, 2, 'dgx001', 'mlx5_0'), (1, 3, 'nohost', 'mlx5_0'), (2, 0, 'dgx002', '');");
        const ReportData d = buildReportData(store, {});
        QVERIFY(d.gpuRisk.fromJobs);
        QCOMPARE(d.gpuRisk.jobs.size(), std::size_t{2});
        const DemoFault& hot = fault(demo_, FindingKind::HotLink);
        for (const auto& j : d.gpuRisk.jobs) {
            if (j.job == "train-a") {
                QCOMPARE(j.gpus, std::size_t{4});
                QCOMPARE(j.hostsMapped, std::size_t{3});
                QCOMPARE(j.ranksUnmapped, std::size_t{1});
                QCOMPARE(j.seconds, static_cast<double>(hot.end - hot.start));
            } else {
                QCOMPARE(j.seconds, 0.0);
            }
        }
        QCOMPARE(d.gpuRisk.totalGpuSeconds, 4.0 * static_cast<double>(hot.end - hot.start));
    }

    void htmlHasEverySectionWithTheKnownNumbers() {
        const QString h = QString::fromStdString(html_);
        for (const char* id : {"summary", "fabric", "utilisation", "hot_links", "ecmp_imbalance", "degraded_links", "error_links",
                               "pfc_congestion", "jobs", "topology_changes", "findings", "gpu_time_at_risk", "annotations",
                               "methods"})
            QVERIFY2(h.contains(QStringLiteral("<section id=\"%1\">").arg(QLatin1String(id))), id);
        QVERIFY(h.contains(QStringLiteral("<td class=\"num\">150</td>")));         // Gb/s lost on leaf03 p5
        QVERIFY(h.contains(QStringLiteral("150 Gb/s")));                            // and in the summary
        QVERIFY(h.contains(QStringLiteral("<div class=\"value\">12</div>")));       // switches
        QVERIFY(h.contains(QStringLiteral("<div class=\"value\">64</div>")));       // hosts
        QVERIFY(h.contains(QStringLiteral("7 at 2.00:1, 1 at 1.81:1")));            // leaves' oversubscription
        QVERIFY(h.contains(QStringLiteral("leaf02 p9 -&gt; spine01 p2")));          // top hot link, escaped
        QVERIFY(h.contains(QStringLiteral("leaf03 p5 &lt;-&gt; dgx021 mlx5_0 p1")));
        QVERIFY(h.contains(QStringLiteral("leaf05 p3 &lt;- dgx035 mlx5_0 p1")));
        QVERIFY(h.contains(QStringLiteral("symbol_errors")));
        QVERIFY(h.contains(QStringLiteral("upper bound")));
        QVERIFY(h.count(QStringLiteral("<svg ")) >= 6);  // 2 tier directions x 2 + top links
        QVERIFY(h.contains(QStringLiteral("Utilisation (%)")));
        QVERIFY(h.contains(QStringLiteral("Time (UTC, 2023-11-14)")));  // the charts' date
        // Self-contained: no scripts, no external resources.
        QVERIFY(!h.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
        QVERIFY(!h.contains(QRegularExpression(QStringLiteral("(src|href)=\"(https?:)?//"))));
    }

    // A chart across midnight (UTC) names both days under its time axis.
    void aChartAcrossMidnightNamesBothDays() {
        ChartSpec c;
        c.title = "spine01 p2";
        c.yLabel = "Utilisation (%)";
        c.series.push_back({"up", "#1f77b4", {1700005000, 1700010000}, {10, 20}, false});  // 2023-11-14 23:36 to 11-15 01:00
        QVERIFY(QString::fromStdString(renderSvgChart(c)).contains(QStringLiteral("Time (UTC, 2023-11-14 – 2023-11-15)")));
        c.series.front().t = {1700000000, 1700003600};  // 22:13 to 23:13 the same day
        QVERIFY(QString::fromStdString(renderSvgChart(c)).contains(QStringLiteral("Time (UTC, 2023-11-14)")));
    }

    void hostileDescriptionsAreEscaped() {
        std::filesystem::create_directories(p("hostile"));
        std::ofstream(p("hostile/topology.ibnetdiscover")) << hostileTopology();
        {
            std::ofstream csv(p("hostile/counters.csv"));
            csv << "timestamp,node,port,counter,value\n";
            for (int i = 0; i < 6; ++i) csv << 1700000000 + 10 * i << ",0x1000,1,xmit_bytes," << static_cast<long long>(i * 10 * 190e9 / 8) << "\n";
        }
        import(p("hostile.sqlite"), p("hostile"));
        {
            Store store(p("hostile.sqlite"));
            addAnnotation(store, {0, 1700000010, 1700000030, "<img src=x onerror=alert(2)> \"maintenance\" & more", "ops <team>", 0,
                                  {{kHostile, "0x1000", "1"}}});
        }
        const Store store(p("hostile.sqlite"), Store::Mode::ReadOnly);
        const ReportData d = buildReportData(store, {});
        QCOMPARE(d.fabric.switches, std::size_t{1});
        QVERIFY(!d.findings.findings.empty());  // the hot link names the switch in its summary
        const std::string html = renderHtml(buildDocument(d));
        QVERIFY(html.find("<script") == std::string::npos);
        QVERIFY(html.find("<img") == std::string::npos);
        QVERIFY(html.find("<b>1</b>") == std::string::npos);
        QVERIFY(html.find("<team>") == std::string::npos);
        QVERIFY(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;x&#39;") != std::string::npos);
        QVERIFY(html.find("gpu&lt;b&gt;1&lt;/b&gt; mlx5_0") != std::string::npos);
        QVERIFY(html.find("&lt;img src=x onerror=alert(2)&gt;") != std::string::npos);
        // Quotes inside attributes: the chart's aria-label carries the description too.
        QVERIFY(html.find("aria-label=\"#1 &lt;script&gt;") != std::string::npos);

        const auto rows = parseCsv(renderCsv(buildDocument(d)));
        bool found = false;
        for (const auto& r : rows)
            for (const auto& f : r) found = found || f.find(kHostile) != std::string::npos;
        QVERIFY(found);  // quoted, and read back exactly
        QJsonParseError err{};
        QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(d)), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
    }

    void csvParsesWithOneWidthPerTable() {
        const auto rows = parseCsv(renderCsv(buildDocument(data_)));
        std::map<std::string, std::vector<std::vector<std::string>>> tables;
        std::string current;
        std::size_t width = 0;
        for (const auto& r : rows) {
            if (r.empty()) continue;
            if (r[0] == "# table") {
                QCOMPARE(r.size(), std::size_t{2});
                current = r[1];
                width = 0;
                continue;
            }
            if (r[0].starts_with("# ")) continue;  // file header
            QVERIFY(!current.empty());
            if (width == 0) width = r.size();
            QCOMPARE(r.size(), width);
            tables[current].push_back(r);
        }
        for (const char* t : {"summary", "tiers", "link_generations", "oversubscription", "utilisation_by_tier", "top_links",
                              "degraded_links", "error_links", "ecmp_imbalance", "pfc_storms", "congestion_trees", "straggler_paths",
                              "topology_changes", "findings_by_kind", "findings", "gpu_time_at_risk"})
            QVERIFY2(tables.count(t), t);
        const auto& degraded = tables["degraded_links"];
        QCOMPARE(degraded.size(), std::size_t{2});  // header + leaf03 p5
        QCOMPARE(degraded[1].back(), std::string("150"));
        QCOMPARE(tables["findings"].size(), std::size_t{1 + demo_.faults.size()});
        for (const auto& r : tables["oversubscription"])
            if (r[0].starts_with("leaf") && r[0] != "leaf03") QCOMPARE(r[6], std::string("2.00"));
    }

    void jsonKeepsTheFindingsContract() {
        QJsonParseError err{};
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(data_)), &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(j[QStringLiteral("fabscope_findings")].toInt(), 1);
        QCOMPARE(j[QStringLiteral("window")].toObject()[QStringLiteral("start")].toInteger(), 1700000000);
        QCOMPARE(j[QStringLiteral("findings")].toArray().size(), static_cast<qsizetype>(demo_.faults.size()));
        const QJsonObject r = j[QStringLiteral("report")].toObject();
        QCOMPARE(r[QStringLiteral("fabric")].toObject()[QStringLiteral("nodes")].toObject()[QStringLiteral("switch")].toInt(), 12);
        QCOMPARE(r[QStringLiteral("fabric")].toObject()[QStringLiteral("nodes")].toObject()[QStringLiteral("ca")].toInt(), 64);
        QCOMPARE(r[QStringLiteral("capacity_lost_gbps")].toDouble(), 150.0);
        const QJsonArray over = r[QStringLiteral("fabric")].toObject()[QStringLiteral("oversubscription")].toArray();
        QCOMPARE(over.size(), 8);
        QCOMPARE(over[0].toObject()[QStringLiteral("ratio")].toDouble(), 2.0);
        QVERIFY(r[QStringLiteral("gpu_time_at_risk")].toObject()[QStringLiteral("upper_bound")].toBool());
        QVERIFY(r[QStringLiteral("utilisation")].toObject()[QStringLiteral("by_tier")].toArray().size() >= 4);
        // The document's tables under "report.tables", named as in the CSV; numbers as numbers.
        const QJsonObject tables = r[QStringLiteral("tables")].toObject();
        for (const char* t : {"summary", "top_links", "degraded_links", "ecmp_imbalance", "pfc_storms", "congestion_trees",
                              "straggler_paths", "topology_changes", "findings", "annotations"})
            QVERIFY2(tables.contains(QLatin1String(t)), t);
        const QJsonArray degraded = tables[QStringLiteral("degraded_links")].toObject()[QStringLiteral("rows")].toArray();
        QCOMPARE(degraded.size(), 1);
        QCOMPARE(degraded[0].toObject()[QStringLiteral("Lost (Gb/s)")].toDouble(), 150.0);
        QCOMPARE(degraded[0].toObject()[QStringLiteral("Link")].toString(), QStringLiteral("leaf03 p5 <-> dgx021 mlx5_0 p1"));
    }

    void pdfHasPages() {
        const std::string pdf = p("report.pdf");
        QVERIFY(pdfRenderer() != nullptr);  // fabscope_report_pdf registered itself
        writeReport(data_, ReportFormat::Pdf, pdf);
        const std::string bytes = readAll(pdf);
        QVERIFY(bytes.starts_with("%PDF-"));
        const auto pages = QString::fromStdString(bytes).count(QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)")));
        QVERIFY2(pages >= 3, qPrintable(QString::number(pages)));  // ten sections with charts do not fit on two A4 pages
        FABSCOPE_REQUIRE_TOOL("pdfinfo", "poppler-utils");
        const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
        QProcess info;
        info.start(pdfinfo, {QString::fromStdString(pdf)});
        QVERIFY(info.waitForFinished(60000));
        QCOMPARE(info.exitCode(), 0);
        const QString out = QString::fromUtf8(info.readAllStandardOutput());
        const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(out);
        QVERIFY2(m.hasMatch(), qPrintable(out));
        QCOMPARE(m.captured(1).toLongLong(), static_cast<qlonglong>(pages));
        QVERIFY(out.contains(QStringLiteral("A4")));
    }

    void annotationsRoundTripAndReachReports() {
        const std::string db = p("notes.sqlite");
        std::filesystem::copy_file(p("demo.sqlite"), db);
        {
            const Store ro(db, Store::Mode::ReadOnly);
            QVERIFY(annotations(ro).empty());  // the table comes with schema v4, empty
        }
        Store store(db);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, addAnnotation(store, {0, 10, 5, "backwards", "", 0, {}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, addAnnotation(store, {0, 1, 5, "", "", 0, {}}));
        const auto inside = addAnnotation(store, {0, 1700000200, 1700000350, "spine01 firmware upgrade", "netops", 0,
                                                  {{"leaf02", "", "9"}, {"spine01", "", "2"}}});
        const auto outside = addAnnotation(store, {0, 1600000000, 1600000100, "last year", "", 0, {}});
        QVERIFY(inside != outside);
        QCOMPARE(annotations(store).size(), std::size_t{2});
        const auto inWindow = annotations(store, 1700000000.0, 1700000590.0);
        QCOMPARE(inWindow.size(), std::size_t{1});
        QCOMPARE(inWindow[0].note, std::string("spine01 firmware upgrade"));
        QCOMPARE(inWindow[0].ports.size(), std::size_t{2});
        QCOMPARE(inWindow[0].ports[1].port, std::string("2"));
        QVERIFY(inWindow[0].createdAt > 0);

        const ReportData d = buildReportData(store, {});
        QCOMPARE(d.annotations.size(), std::size_t{1});
        QVERIFY(renderHtml(buildDocument(d)).find("spine01 firmware upgrade") != std::string::npos);
        QVERIFY(renderJson(d).find("spine01 firmware upgrade") != std::string::npos);
        QVERIFY(removeAnnotation(store, outside));
        QVERIFY(!removeAnnotation(store, outside));
        QCOMPARE(annotations(store).size(), std::size_t{1});
    }

    void emptyStoreGivesAnEmptyReport() {
        { Store s(p("empty.sqlite")); }
        const Store store(p("empty.sqlite"), Store::Mode::ReadOnly);
        const ReportData d = buildReportData(store, {});
        const std::string html = renderHtml(buildDocument(d));
        QVERIFY(html.find("No findings") != std::string::npos);
        QVERIFY(html.find("No degraded link") != std::string::npos);
        QVERIFY(!parseCsv(renderCsv(buildDocument(d))).empty());
    }

    void cliWritesEachFormat() {
        const std::string db = p("demo.sqlite");
        for (const char* ext : {"html", "csv", "json", "pdf"}) {
            const std::string out = p(std::string("cli.") + ext);
            QCOMPARE(cli::cmdReport({"report", "--db", db, "--out", out, "--from", "1700000000", "--to", "1700000590"}), 0);
            QVERIFY(std::filesystem::file_size(out) > 1000);
            QVERIFY(!std::filesystem::exists(out + ".part-" + std::to_string(QCoreApplication::applicationPid())));
        }
        QCOMPARE(cli::cmdReport({"report", "--db", db, "--out", p("x.docx")}), 2);
        QCOMPARE(cli::cmdReport({"report", "--db", db}), 2);
        QCOMPARE(cli::cmdReport({"report", "--db", db, "--out", p("x.html"), "--from", "5", "--to", "1"}), 2);
        QCOMPARE(cli::cmdReport({"report", "--db", p("missing.sqlite"), "--out", p("m.html")}), 3);
        QCOMPARE(cli::cmdReport({"report", "--db", db, "--out", p("no/such/dir/r.html")}), 1);
        // A window: only the hot link's stretch.
        QCOMPARE(cli::cmdReport({"report", "--db", db, "--out", p("win.json"), "--from", "1700000200", "--to", "1700000350"}), 0);
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(readAll(p("win.json")))).object();
        QCOMPARE(j[QStringLiteral("window")].toObject()[QStringLiteral("start")].toInteger(), 1700000200);
    }

    void cliPdfRunsHeadless() {
        // The real binary, with no display and no platform chosen: it must pick offscreen itself.
        QVERIFY2(QFile::exists(QStringLiteral(FABSCOPE_BIN)), "the fabscope executable is not built");
        QProcess proc;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        proc.setProcessEnvironment(env);
        const QString out = QString::fromStdString(p("bin.pdf"));
        proc.start(QStringLiteral(FABSCOPE_BIN), {QStringLiteral("report"), QStringLiteral("--db"), QString::fromStdString(p("demo.sqlite")),
                                                  QStringLiteral("--out"), out});
        QVERIFY(proc.waitForFinished(120000));
        const QByteArray err = proc.readAllStandardError();
        QVERIFY2(proc.exitCode() == 0, err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
    }
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"
