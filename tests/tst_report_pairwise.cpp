// The report's "Pairwise benchmarks" section on the pairwise nccl-tests sweep of
// tests/pair_bench_fixture.h (17 hosts, alltoall/sendrecv/all_reduce x 1, 4, 8 GPUs; node-07 at
// half speed; slow pairs node-02/node-11 and node-05/node-14; failed runs node-03/node-09,
// node-12/node-16, node-01/node-15). What a reader checks: the section is there; the classes
// table carries the median the raw files give (computed here from their text, not by FabScope's
// code); node-07 is the slow host; the failed pairs are listed with their reasons; the matrix
// draws node-03 x node-09 in the legend's "failed" colour; JSON and CSV carry the same. A store
// without two-host runs has no such section.
#include "core/report/csv_writer.h"
#include "core/report/document.h"
#include "core/report/html_writer.h"
#include "core/report/json_writer.h"
#include "core/report/report_data.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "pair_bench_fixture.h"
#include "screenshot.h"
#include "report_doc_find.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace fabscope;

namespace {

using docfind::section;
using docfind::table;

const TableRow* rowStarting(const Table& t, const std::string& prefix) {
    for (const auto& r : t.rows)
        if (r.cells[0].starts_with(prefix)) return &r;
    return nullptr;
}

// One run of the raw files: its figure as docs/ANALYSIS.md defines it, the mean out-of-place
// busbw (8th column of nccl-tests' table) over the sizes >= 32 MiB, read straight from the text.
struct RawRun {
    std::string tool, a, b;
    int g = 0;
    std::vector<double> busbw;
    [[nodiscard]] double figure() const {
        double sum = 0;
        for (double v : busbw) sum += v;
        return sum / static_cast<double>(busbw.size());
    }
};

std::vector<RawRun> readRaw(const std::filesystem::path& dir) {
    std::vector<RawRun> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        // nccl_N2_G<g>_<a>_<b>.log
        const std::string name = e.path().stem().string();
        const auto g0 = name.find("_G") + 2, g1 = name.find('_', g0);
        const int g = std::stoi(name.substr(g0, g1 - g0));
        const std::string a = name.substr(g1 + 1, 7), b = name.substr(g1 + 9, 7);
        std::ifstream in(e.path());
        std::string line;
        while (std::getline(in, line)) {
            if (line.starts_with("# Collective test starting: ")) out.push_back({line.substr(28), a, b, g, {}});
            if (line.empty() || line[0] == '#' || out.empty()) continue;
            std::istringstream fields(line);
            std::vector<std::string> f;
            for (std::string w; fields >> w;) f.push_back(w);
            if (f.size() < 9 || f[0].find_first_not_of("0123456789") != std::string::npos) continue;
            if (std::stoll(f[0]) >= 32LL * 1024 * 1024) out.back().busbw.push_back(std::stod(f[7]));
        }
    }
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The class median of a benchmark at g GPUs over the raw runs that have a table (the fixture's
// classes have no other split: no topology, one size sweep).
double rawMedian(const std::vector<RawRun>& raw, const std::string& tool, int g) {
    std::vector<double> figures;
    for (const RawRun& r : raw)
        if (r.tool == tool && r.g == g && !r.busbw.empty()) figures.push_back(r.figure());
    return median(figures);
}

const RawRun& rawRun(const std::vector<RawRun>& raw, const std::string& tool, int g, const std::string& a, const std::string& b) {
    for (const RawRun& r : raw)
        if (r.tool == tool && r.g == g && r.a == a && r.b == b) return r;
    qFatal("no raw run %s G%d %s %s", tool.c_str(), g, a.c_str(), b.c_str());
    std::abort();
}

// The fill of the SVG element whose <title> holds `text` (the cell of the matrix), or of the
// legend swatch right before the label `text`.
std::string fillBefore(const std::string& svg, std::size_t at) {
    const auto rect = svg.rfind("<rect", at);
    const auto fill = svg.find("fill=\"", rect);
    if (rect == std::string::npos || fill == std::string::npos || fill > at) return {};
    return svg.substr(fill + 6, svg.find('"', fill + 6) - fill - 6);
}

} // namespace

class TestReportPairwise : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::filesystem::path sweep_;
    std::string db_;
    ReportData data_;
    ReportDocument doc_;
    std::vector<RawRun> raw_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        sweep_ = std::filesystem::path(dir_.path().toStdString()) / "sweep";
        QCOMPARE(pairbench::Sweep{}.write(sweep_), 408);
        db_ = dir_.filePath(QStringLiteral("pairs.sqlite")).toStdString();
        {
            Store store(db_);
            ImporterRegistry registry;
            const auto sum = ImportRunner(store, registry).run({sweep_.string()}, {});
            QVERIFY(!sum.anyFailed());
        }
        const Store store(db_, Store::Mode::ReadOnly);
        data_ = buildReportData(store, {});
        doc_ = buildDocument(data_);
        raw_ = readRaw(sweep_);
        QCOMPARE(raw_.size(), std::size_t{408 * 3});
    }

    void sectionFollowsBenchmarks() {
        const auto at = std::find_if(doc_.sections.begin(), doc_.sections.end(), [](const Section& s) { return s.id == "pairwise_benchmarks"; });
        QVERIFY(at != doc_.sections.end());
        QCOMPARE(at->title, std::string("Pairwise benchmarks"));
        QCOMPARE((at - 1)->id, std::string("benchmarks"));
        const std::string html = renderHtml(doc_);
        QVERIFY(html.find("<section id=\"pairwise_benchmarks\">\n<h2>Pairwise benchmarks</h2>") != std::string::npos);
        // The sweep's 1,224 runs are not also listed one by one under Benchmarks.
        QVERIFY(!table(*(at - 1), "nccl_tests_runs"));
    }

    // Critical slow pairs and the slow host are test results on idle hosts: no GPU time at risk.
    void benchmarkFindingsPutNoGpuTimeAtRisk() {
        QVERIFY(std::any_of(data_.findings.findings.begin(), data_.findings.findings.end(),
                            [](const Finding& f) { return f.severity == FindingSeverity::Critical && f.kind == FindingKind::SlowHost; }));
        QVERIFY(data_.gpuRisk.findings.empty());
        QCOMPARE(data_.gpuRisk.totalGpuSeconds, 0.0);
    }

    void classesCarryTheRawMedian() {
        const Table* t = table(*section(doc_, "pairwise_benchmarks"), "pairwise_classes");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{9});
        QCOMPARE(t->columns[5], std::string("Median busbw (GB/s)"));
        const TableRow* row = rowStarting(*t, "alltoall_perf, 2 nodes x 8 GPUs");
        QVERIFY(row);
        const double want = rawMedian(raw_, "alltoall_perf", 8);
        QVERIFY(want > 30 && want < 40);  // 21.5 x 1.6 +- 2 %
        QVERIFY2(std::abs(std::stod(row->cells[5]) - want) < 0.01,
                 qPrintable(QStringLiteral("%1 vs %2").arg(QString::fromStdString(row->cells[5])).arg(want)));
        QCOMPARE(row->cells[1], std::string("136"));  // 17 hosts, every pair once
        QCOMPARE(row->cells[3], std::string("16"));   // node-07's pairs are slow
        QCOMPARE(row->cells[4], std::string("0"));
        QCOMPARE(row->cells[9], std::string("no topology: expected unknown"));
        const TableRow* g1 = rowStarting(*t, "alltoall_perf, 2 nodes x 1 GPU");
        QVERIFY(g1);
        QCOMPARE(g1->cells[4], std::string("1"));  // node-03 x node-09 failed
    }

    void node07IsTheSlowHost() {
        const Section& s = *section(doc_, "pairwise_benchmarks");
        const Table* t = table(s, "pairwise_slow_hosts");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{1});
        QCOMPARE(t->rows[0].cells[0], std::string("node-07"));
        QCOMPARE(t->rows[0].cells[1], std::string("144"));  // 16 peers x 9 runs
        const std::string p = t->rows[0].cells[7];  // its binomial p-value, or the bound it is below
        QVERIFY2(std::stod(p.starts_with("< ") ? p.substr(2) : p) < 0.01 / 17, p.c_str());
        QVERIFY(t->rows[0].cells[8].starts_with("slow_host-"));
    }

    void failedAndSlowPairsWithReasons() {
        const Table* t = table(*section(doc_, "pairwise_benchmarks"), "pairwise_slow_pairs");
        QVERIFY(t);
        const TableRow* nccl = rowStarting(*t, "node-03 <-> node-09");
        QVERIFY(nccl);
        QVERIFY2(nccl->cells[8].find("alltoall_perf G1: Test NCCL failure") != std::string::npos, nccl->cells[8].c_str());
        QVERIFY(nccl->cells[8].find("network error") != std::string::npos);
        const TableRow* cut = rowStarting(*t, "node-12 <-> node-16");
        QVERIFY(cut);
        QVERIFY2(cut->cells[8].find("sendrecv_perf G8: no result table") != std::string::npos, cut->cells[8].c_str());
        const TableRow* wrong = rowStarting(*t, "node-01 <-> node-15");
        QVERIFY(wrong);
        QVERIFY2(wrong->cells[8].find("all_reduce_perf G4: 3 wrong elements") != std::string::npos, wrong->cells[8].c_str());
        for (const TableRow* r : {nccl, cut, wrong}) QCOMPARE(r->cells[3], std::string("1"));

        // node-02 x node-11: two slow runs, the worst the 0.6 x alltoall G4 one, against the raw figures
        const TableRow* slow = rowStarting(*t, "node-02 <-> node-11");
        QVERIFY(slow);
        QCOMPARE(slow->cells[2], std::string("2"));
        QCOMPARE(slow->cells[4], std::string("alltoall_perf G4"));
        const double figure = rawRun(raw_, "alltoall_perf", 4, "node-02", "node-11").figure();
        const double med = rawMedian(raw_, "alltoall_perf", 4);
        QVERIFY(std::abs(std::stod(slow->cells[5]) - figure) < 0.01);
        QVERIFY(std::abs(std::stod(slow->cells[6]) - med) < 0.01);
        QVERIFY(std::abs(std::stod(slow->cells[7]) - 100 * figure / med) < 0.1);
        QVERIFY(rowStarting(*t, "node-05 <-> node-14"));
        QCOMPARE(t->rows.size(), std::size_t{5});  // node-07's pairs are told by its slow-host row
        for (const auto& r : t->rows) QVERIFY2(r.cells[0].find("node-07") == std::string::npos, r.cells[0].c_str());
    }

    void matrixMarksTheFailedPair() {
        const Section& s = *section(doc_, "pairwise_benchmarks");
        const Diagram* d = nullptr;
        for (const auto& b : s.blocks)
            if (const auto* g = std::get_if<Diagram>(&b)) d = g;
        QVERIFY(d);
        const std::string& svg = d->svg;
        const auto legendFill = [&](const std::string& label) { return fillBefore(svg, svg.find(">" + label + "</text>")); };
        const std::string failed = legendFill("failed (no figure)"), low = legendFill("&lt; 55%"), good = legendFill("\u2265 95%");
        QVERIFY(!failed.empty() && !low.empty() && !good.empty());
        QVERIFY(failed != low && failed != good);
        const auto cellFill = [&](const std::string& title) {
            const auto at = svg.find("<title>" + title);
            return at == std::string::npos ? std::string("absent") : fillBefore(svg, at);
        };
        QCOMPARE(cellFill("alltoall_perf G1, node-03 x node-09: failed"), failed);
        QCOMPARE(cellFill("alltoall_perf G1, node-09 x node-03: failed"), failed);
        QCOMPARE(cellFill("alltoall_perf G8, node-07 x node-08:"), low);   // half speed: ~50% of the median
        QCOMPARE(cellFill("alltoall_perf G8, node-01 x node-02:"), good);
        QVERIFY(svg.find("GB/s") != std::string::npos);  // the legend states the unit

        // Qt Svg (the PDF's renderer) reads it; a person may look at it.
        QSvgRenderer renderer(QByteArray::fromStdString(svg));
        QVERIFY(renderer.isValid());
        QImage image(d->width * 2, d->height * 2, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        QVERIFY(saveScreenshot(QPixmap::fromImage(image), QStringLiteral("report_pairwise_matrix.png")));
        if (const QString shots = qEnvironmentVariable("FABSCOPE_SCREENSHOTS"); !shots.isEmpty())
            std::ofstream((shots + QStringLiteral("/report_pairwise.html")).toStdString()) << renderHtml(doc_);
    }

    void jsonAndCsvCarryTheSection() {
        const QJsonObject report = QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(data_))).object()["report"].toObject();
        const QJsonObject pw = report["pairwise_benchmarks"].toObject();
        QCOMPARE(pw["runs"].toInt(), 408 * 3);
        const QJsonArray classes = pw["classes"].toArray();
        QCOMPARE(classes.size(), 9);
        bool sawG8 = false;
        for (const auto& c : classes) {
            const QJsonObject o = c.toObject();
            if (o["tool"].toString() != QLatin1String("alltoall_perf") || o["gpus_per_node"].toInt() != 8) continue;
            sawG8 = true;
            QVERIFY(std::abs(o["median_gbs"].toDouble() - rawMedian(raw_, "alltoall_perf", 8)) < 1e-3);
            QVERIFY(o["expected_gbs"].isNull());
        }
        QVERIFY(sawG8);
        const QJsonArray hosts = pw["slow_hosts"].toArray();
        QCOMPARE(hosts.size(), 1);
        QCOMPARE(hosts[0].toObject()["host"].toString(), QStringLiteral("node-07"));
        bool sawFailure = false;
        for (const auto& p : pw["slow_pairs"].toArray()) {
            const QJsonObject o = p.toObject();
            if (o["hosts"].toArray() != QJsonArray{QStringLiteral("node-03"), QStringLiteral("node-09")}) continue;
            sawFailure = true;
            QCOMPARE(o["failures"].toArray()[0].toObject()["tool"].toString(), QStringLiteral("alltoall_perf"));
            QVERIFY(o["failures"].toArray()[0].toObject()["reason"].toString().contains(QLatin1String("network error")));
        }
        QVERIFY(sawFailure);
        QVERIFY(report["tables"].toObject().contains(QStringLiteral("pairwise_classes")));

        const std::string csv = renderCsv(doc_);
        for (const char* t : {"pairwise_summary", "pairwise_classes", "pairwise_slow_hosts", "pairwise_slow_pairs"})
            QVERIFY2(csv.find(std::string("# table,") + t + "\r\n") != std::string::npos, t);
    }

    void storeWithoutPairRunsHasNoSection() {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("t.sqlite")).toStdString();
        {
            Store store(db);
            ImporterRegistry registry;
            QVERIFY(!ImportRunner(store, registry).run({std::string(FABSCOPE_TEST_DATA "/ibsim/ibnetdiscover.txt")}, {}).anyFailed());
        }
        const Store store(db, Store::Mode::ReadOnly);
        const ReportData data = buildReportData(store, {});
        QVERIFY(!section(buildDocument(data), "pairwise_benchmarks"));
        const QJsonObject report = QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(data))).object()["report"].toObject();
        QCOMPARE(report["pairwise_benchmarks"].toObject()["runs"].toInt(), 0);
    }
};

QTEST_MAIN(TestReportPairwise)
#include "tst_report_pairwise.moc"
