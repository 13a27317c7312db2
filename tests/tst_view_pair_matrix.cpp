// Benchmarks dock, Pairwise tab: a 17-host nccl-tests sweep (tests/pair_bench_fixture.h: node-07's
// NIC at half speed, some slow and failed pairs) loads off the GUI thread into a host x host
// matrix per class (benchmark, GPUs per node). A clicked cell charts the pair's runs (busbw
// against size, the class median dashed), a failed cell is crossed and says why in its tooltip,
// a clicked host name selects its row, the arrow keys move the selection, the analysis' slow_pair
// and slow_host findings select their cell and row, and a topology orders the hosts by leaf.
#include "pair_bench_fixture.h"
#include "screenshot.h"
#include "core/analysis/analyze.h"
#include "core/fabric_builder.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "views/benchmarks_panel.h"
#include "views/pair_matrix_view.h"
#include "views/pair_runs_chart.h"
#include "views/store_snapshot.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtTest>

#include <memory>
#include <variant>

using namespace fabscope;

namespace {

// The sweep imported into `dir`/s.sqlite; empty when the import failed.
std::string makeSweepStore(const QTemporaryDir& dir) {
    const std::string logs = dir.filePath(QStringLiteral("logs")).toStdString();
    const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    if (pairbench::Sweep{}.write(logs) != 408) return {};
    Store store(db);
    ImporterRegistry reg;
    return ImportRunner(store, reg).run({logs}, {}).anyFailed() ? std::string() : db;
}

std::string metric(const Finding& f, const std::string& key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return {};
}

bool loadPanel(BenchmarksPanel& panel, const std::string& db) {
    QSignalSpy loaded(&panel, &BenchmarksPanel::loaded);
    panel.setSnapshot(loadStoreSnapshot(db));
    return loaded.wait(30000);
}

void chooseClass(PairMatrixView* m, const char* tool, int gpus) {
    const int index = m->selectorIndex(tool, gpus);
    QVERIFY(index >= 0);
    m->classBox()->setCurrentIndex(index);  // as a user picks it
    QCOMPARE(m->currentSelector(), index);
}

int host(const PairMatrixView* m, const char* name) { return m->hostIndex(name); }

} // namespace

class TestViewPairMatrix : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string db_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = makeSweepStore(dir_);
        QVERIFY(!db_.empty());
    }

    void clickedCellChartsThePairsRuns() {
        BenchmarksPanel panel;
        panel.resize(1300, 720);
        panel.show();
        QVERIFY(loadPanel(panel, db_));
        QCOMPARE(panel.tabs()->currentIndex(), 1);  // a sweep opens on its matrix
        PairMatrixView* m = panel.pairMatrix();
        QVERIFY(m->data());
        // No topology: the hosts by name, node-01 .. node-17, with no leaf.
        QCOMPARE(m->hostCount(), std::size_t{17});
        for (int i = 0; i < 17; ++i) QCOMPARE(m->data()->pb.hosts[static_cast<std::size_t>(i)], pairbench::Sweep{}.host(i));
        QCOMPARE(m->selectors().size(), std::size_t{9});  // 3 benchmarks x G in {1, 4, 8}

        chooseClass(m, "alltoall_perf", 8);
        const int r = host(m, "node-07"), c = host(m, "node-02");
        QTest::mouseClick(m->canvas(), Qt::LeftButton, {}, m->cellRect(static_cast<std::size_t>(r), static_cast<std::size_t>(c)).center());
        QCOMPARE(m->selectedCell(), std::make_pair(r, c));
        const PairMatrixView::Cell* cell = m->cell(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
        QVERIFY(cell && cell->slow && !cell->failed && cell->runs.size() == 1);
        // The chart: that run's six sizes (32 MiB .. 1 GiB) at about half the class median, dashed median.
        PairRunsChart* chart = panel.pairChart();
        QCOMPARE(chart->runSeries().size(), std::size_t{1});
        QCOMPARE(chart->medianSeries().size(), std::size_t{1});
        const PairRun& run = m->data()->pb.runs[cell->runs.front()];
        QVERIFY(chart->runSeries()[0]->name().startsWith(QStringLiteral("#%1: ").arg(run.runId)));
        QVERIFY(chart->runSeries()[0]->name().contains(QStringLiteral("GB/s")));
        QVERIFY(chart->runSeries()[0]->name().contains(QStringLiteral("slow")));
        QCOMPARE(chart->runSeries()[0]->count(), 6);
        QCOMPARE(chart->runSeries()[0]->at(5).x(), 30.0);  // log2(1 GiB)
        const double median = *m->data()->pb.classes[run.classIndex].medianGBs;
        QCOMPARE(chart->medianSeries()[0]->at(0).y(), median);
        QVERIFY(chart->medianSeries()[0]->pen().style() == Qt::DashLine);
        QVERIFY(median > 30 && median < 40);  // 21.5 x 1.6 GB/s
        for (int i = 0; i < 6; ++i) {
            const double share = chart->runSeries()[0]->at(i).y() / median;
            QVERIFY2(share > 0.45 && share < 0.55, qPrintable(QString::number(share)));
        }
        auto* x = qobject_cast<QCategoryAxis*>(chart->chart()->axes(Qt::Horizontal).front());
        QVERIFY(x && x->categoriesLabels().contains(QStringLiteral("1 GiB")) && x->categoriesLabels().contains(QStringLiteral("32 MiB")));
        QVERIFY(chart->chart()->axes(Qt::Vertical).front()->titleText().contains(QStringLiteral("GB/s")));
        // Tooltip and the text under the chart, in GB/s.
        const QString tip = m->cellToolTip(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
        QVERIFY2(tip.contains(QStringLiteral("GB/s")) && tip.contains(QStringLiteral("slow")) && tip.contains(QStringLiteral("node-07")), qPrintable(tip));
        QCOMPARE(panel.pairInfo()->text(), tip);
        QVERIFY(m->cellToolTip(static_cast<std::size_t>(r), static_cast<std::size_t>(r)).contains(QStringLiteral("itself")));

        // Colour: a healthy pair is pale, the half-speed pair much darker; the slow one is outlined.
        const int h1 = host(m, "node-01"), h3 = host(m, "node-03");
        const QColor healthy = m->cellColour(static_cast<std::size_t>(h1), static_cast<std::size_t>(h3));
        const QColor slow = m->cellColour(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
        QVERIFY2(healthy.lightness() > 220 && slow.lightness() < 170, qPrintable(QStringLiteral("%1 %2").arg(healthy.name(), slow.name())));
        const QImage shot = m->canvas()->grab().toImage();
        const QRect slowRect = m->cellRect(static_cast<std::size_t>(r), static_cast<std::size_t>(c + 1));  // an unselected slow cell
        QVERIFY(m->cell(static_cast<std::size_t>(r), static_cast<std::size_t>(c + 1))->slow);
        QCOMPARE(shot.pixelColor(slowRect.center()).rgb(), m->cellColour(static_cast<std::size_t>(r), static_cast<std::size_t>(c + 1)).rgb());
        QVERIFY(qBlue(shot.pixel(slowRect.topLeft() + QPoint(2, 2))) > 80 && qRed(shot.pixel(slowRect.topLeft() + QPoint(2, 2))) < 60);  // the edge
        QVERIFY(m->scaleMaxGBs() >= median);
        QTest::qWait(100);  // let the chart lay out its axes
        QVERIFY(saveScreenshot(panel.grab(), QStringLiteral("pair_matrix_slow_cell.png")));

        // Failed: node-03 x node-09 in alltoall_perf G1 is crossed and says why.
        chooseClass(m, "alltoall_perf", 1);
        const std::size_t f3 = static_cast<std::size_t>(host(m, "node-03")), f9 = static_cast<std::size_t>(host(m, "node-09"));
        const PairMatrixView::Cell* failed = m->cell(f9, f3);
        QVERIFY(failed && failed->failed && !failed->figureGBs);
        const QString failTip = m->cellToolTip(f9, f3);
        QVERIFY2(failTip.contains(QStringLiteral("failed: ")) && failTip.contains(QStringLiteral("network error")), qPrintable(failTip));
        const QImage failedShot = m->canvas()->grab().toImage();
        const QRect fr = m->cellRect(f3, f9);
        QVERIFY(qGray(failedShot.pixel(fr.center())) < 90);                       // on the cross
        QVERIFY(qGray(failedShot.pixel(fr.center() + QPoint(0, fr.height() / 3))) > 140);  // off it: the grey fill
        QVERIFY(qGray(failedShot.pixel(m->cellRect(f3, f9 + 1).center())) > 200);  // a healthy neighbour: pale, no cross
        QTest::mouseClick(m->canvas(), Qt::LeftButton, {}, fr.center());
        QVERIFY(panel.pairChart()->runSeries().empty());  // no table to chart
        QVERIFY(panel.pairInfo()->text().contains(QStringLiteral("failed: ")));
        QVERIFY(panel.pairChart()->chart()->title().startsWith(QStringLiteral("node-03 ↔ node-09")));
        QTest::qWait(50);  // let the chart and labels lay out before the screenshot
        QVERIFY(saveScreenshot(panel.grab(), QStringLiteral("pair_matrix_failed_cell.png")));

        // A host's name selects its row: one run per peer, named by the peer.
        const int h7 = host(m, "node-07");
        QTest::mouseClick(m->canvas(), Qt::LeftButton, {}, m->hostHeaderRect(static_cast<std::size_t>(h7)).center());
        QCOMPARE(m->selectedHost(), h7);
        QCOMPARE(m->selectedCell(), std::make_pair(h7, -1));
        QCOMPARE(m->selectedRuns().size(), std::size_t{16});
        QCOMPARE(panel.pairChart()->runSeries().size(), std::size_t{16});
        QVERIFY(panel.pairChart()->runSeries()[0]->name().startsWith(QStringLiteral("node-01")));
        QVERIFY(panel.pairInfo()->text().contains(QStringLiteral("node-07")) && panel.pairInfo()->text().contains(QStringLiteral("slow host")));
        QTest::qWait(50);
        QVERIFY(saveScreenshot(panel.grab(), QStringLiteral("pair_matrix_host_row.png")));
        // ... and so does a column's name on top.
        const int h11 = host(m, "node-11");
        const QRect col = m->cellRect(0, static_cast<std::size_t>(h11));
        QTest::mouseClick(m->canvas(), Qt::LeftButton, {}, QPoint(col.center().x(), col.top() - 10));
        QCOMPARE(m->selectedHost(), h11);

        // Keyboard: Right from the host's name is its first cell, Down the next host's.
        m->canvas()->setFocus();
        QTest::keyClick(m->canvas(), Qt::Key_Right);
        QCOMPARE(m->selectedCell(), std::make_pair(h11, 0));
        QTest::keyClick(m->canvas(), Qt::Key_Down);
        QCOMPARE(m->selectedCell(), std::make_pair(h11 + 1, 0));
        QCOMPARE(panel.pairChart()->runSeries().size(), std::size_t{1});
        QTest::keyClick(m->canvas(), Qt::Key_Left);
        QCOMPARE(m->selectedHost(), h11 + 1);
        QVERIFY(!m->canvas()->accessibleDescription().isEmpty());
    }

    // The analysis' own slow_pair and slow_host findings select their class, cell and row, also
    // when the finding comes before the panel's data.
    void findingsSelectCells() {
        FindingsReport report;
        {
            const Store store(db_, Store::Mode::ReadOnly);
            report = analyze(store, AnalysisWindow{}, AnalysisConfig{});
        }
        const Finding *pair = nullptr, *slowHost = nullptr;
        for (const Finding& f : report.findings) {
            if (f.kind == FindingKind::SlowPair && metric(f, "src") == "node-02" && metric(f, "dst") == "node-11") pair = &f;
            if (f.kind == FindingKind::SlowHost && metric(f, "host") == "node-07") slowHost = &f;
        }
        QVERIFY(pair && slowHost);
        BenchmarksPanel panel;
        panel.resize(1100, 600);
        panel.show();
        panel.tabs()->setCurrentIndex(0);
        QSignalSpy loaded(&panel, &BenchmarksPanel::loaded);
        panel.setSnapshot(loadStoreSnapshot(db_));
        QVERIFY(panel.showFinding(*pair));  // before the data: applied when it lands
        QVERIFY(loaded.wait(30000));
        PairMatrixView* m = panel.pairMatrix();
        QCOMPARE(panel.tabs()->currentIndex(), 1);
        const auto& s = m->selectors()[static_cast<std::size_t>(m->currentSelector())];
        QVERIFY2(metric(*pair, "bad_runs").find(s.tool + " G" + std::to_string(s.gpus)) != std::string::npos, metric(*pair, "bad_runs").c_str());
        QCOMPARE(m->selectedCell(), std::make_pair(host(m, "node-02"), host(m, "node-11")));
        QVERIFY(m->cell(static_cast<std::size_t>(host(m, "node-02")), static_cast<std::size_t>(host(m, "node-11")))->slow);

        panel.tabs()->setCurrentIndex(0);
        QVERIFY(panel.showFinding(*slowHost));
        QCOMPARE(panel.tabs()->currentIndex(), 1);
        QCOMPARE(m->selectedHost(), host(m, "node-07"));
        QVERIFY(!panel.pairChart()->runSeries().empty());

        Finding other = *pair;  // a probe's slow_pair is not the benchmarks'
        for (auto& [k, v] : other.metrics)
            if (k == "source") v = std::string("probes");
        QVERIFY(!panel.showFinding(other));
        Finding hot;
        hot.kind = FindingKind::HotLink;
        QVERIFY(!panel.showFinding(hot));
    }

    // With a topology, hosts are grouped by leaf (leaf-a's first) and the groups are named.
    void topologyOrdersHostsByLeaf() {
        FabricBuilder b;
        const NodeId leafB = b.node({NodeType::Switch, "0xb0", "leaf-b", "", 36, 1});
        const NodeId leafA = b.node({NodeType::Switch, "0xa0", "leaf-a", "", 36, 2});
        pairbench::Sweep sweep;
        for (int i = 0; i < sweep.hosts; ++i) {
            const NodeId h = b.node({NodeType::Ca, "0x" + std::to_string(100 + i), sweep.host(i), "", 1, 0});
            const NodeId leaf = i % 2 ? leafB : leafA;  // node-01, -03, ... on leaf-a
            b.link(b.port(h, "1", 1), b.port(leaf, std::to_string(i + 1), i + 1), 4, "NDR");
        }
        std::vector<CollectiveRun> runs;
        {
            const Store store(db_, Store::Mode::ReadOnly);
            runs = loadCollectiveRuns(store);
        }
        const auto data = buildPairMatrixData(runs, b.fabric(), PairBenchmarkConfig{});
        QCOMPARE(data->pb.hosts.size(), std::size_t{17});
        QCOMPARE(data->pb.hosts[0], std::string("node-01"));
        QCOMPARE(data->pb.hosts[1], std::string("node-03"));
        QCOMPARE(data->pb.hosts[8], std::string("node-17"));
        QCOMPARE(data->pb.hosts[9], std::string("node-02"));
        QCOMPARE(data->leafOf[0], std::string("leaf-a"));
        QCOMPARE(data->leafOf[16], std::string("leaf-b"));
        PairMatrixView view;
        view.resize(760, 560);
        view.show();
        view.setData(data);
        view.setSelector(view.selectorIndex("all_reduce_perf", 8));
        // node-07 (leaf-a, row 3) is slow with node-05 (leaf-a, row 2) as with everyone.
        QCOMPARE(view.hostIndex("node-07"), 3);
        QVERIFY(view.cell(3, 2)->slow);
        QVERIFY(view.hostToolTip(3).contains(QStringLiteral("leaf-a")));
        QTest::qWait(50);
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("pair_matrix_by_leaf.png")));
    }

    // Dock-sized: the default bottom dock is ~330 px high; the matrix still fits with its legend.
    void dockSizedPanel() {
        BenchmarksPanel panel;
        panel.resize(900, 330);
        panel.show();
        QVERIFY(loadPanel(panel, db_));
        PairMatrixView* m = panel.pairMatrix();
        const QRect last = m->cellRect(16, 16);
        QVERIFY(m->canvas()->rect().contains(last));
        QVERIFY(m->cellRect(0, 0).width() >= 8);  // still a target for the mouse
        QTest::mouseClick(m->canvas(), Qt::LeftButton, {}, m->cellRect(6, 1).center());
        QCOMPARE(m->selectedCell(), std::make_pair(6, 1));
        QVERIFY(!panel.pairChart()->runSeries().empty());
        // The narrow chart labels fewer sizes: every other power of two, 1 GiB kept.
        const QStringList sizes = qobject_cast<QCategoryAxis*>(panel.pairChart()->chart()->axes(Qt::Horizontal).front())->categoriesLabels();
        QVERIFY2(sizes.size() <= 4 && sizes.contains(QStringLiteral("1 GiB")), qPrintable(sizes.join(QLatin1Char(' '))));
        QTest::qWait(50);
        QVERIFY(saveScreenshot(panel.grab(), QStringLiteral("pair_matrix_dock_size.png")));
    }
};

QTEST_MAIN(TestViewPairMatrix)
#include "tst_view_pair_matrix.moc"
