// Benchmarks dock: a store holding one nccl-tests run (and a perftest table) loads off the GUI
// thread into a busbw-vs-size chart with one series of the run's sizes and a perftest table.
#include "screenshot.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "views/benchmarks_panel.h"
#include "views/store_snapshot.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <QtTest>

#include <fstream>

using namespace fabscope;

namespace {

const char* kRun =
    "1700000000\n# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 4(factor)\n#\n# Using devices\n"
    "#  Rank  0 Group  0 Pid  1 on gpu001 device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
    "#  Rank  1 Group  0 Pid  2 on gpu009 device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
    "           8             2     float     sum      -1    20.10    0.00    0.00      0    20.00    0.00    0.00      0\n"
    "         128            32     float     sum      -1    20.50    0.01    0.01      0    20.40    0.01    0.01      0\n"
    "        2048           512     float     sum      -1    21.00    0.10    0.10      0    20.90    0.10    0.10      0\n"
    "       32768          8192     float     sum      -1    25.00    1.31    1.31      0    24.80    1.32    1.32      0\n"
    "      524288        131072     float     sum      -1    40.00   13.11   13.11      0    39.50   13.27   13.27      0\n"
    "     8388608       2097152     float     sum      -1   380.00   22.08   22.08      0   378.00   22.19   22.19      0\n"
    "   134217728      33554432     float     sum      -1  5600.00   23.97   23.97      0  5590.00   24.01   24.01      0\n"
    "  1073741824     268435456     float     sum      -1 44500.00   24.13   24.13      0 44450.00   24.16   24.16      0\n"
    "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 10.5913\n";

const char* kLat =
    "1700000050\n #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   "
    "99% percentile[usec]   99.9% percentile[usec]\n"
    " 2       1000          1.76           6.12         1.79                1.80             0.06            1.88                    6.12\n";

} // namespace

class TestViewBenchmarks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void storeWithOneRunShowsItsCurve() {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        const std::string nccl = dir.filePath(QStringLiteral("all_reduce_perf.txt")).toStdString();
        const std::string lat = dir.filePath(QStringLiteral("ib_write_lat_gpu001_gpu009.txt")).toStdString();
        std::ofstream(nccl) << kRun;
        std::ofstream(lat) << kLat;
        {
            Store store(db);
            ImporterRegistry reg;
            QVERIFY(!ImportRunner(store, reg).run({nccl, lat}, {}).anyFailed());
        }
        BenchmarksPanel panel;
        panel.resize(820, 620);
        panel.show();
        QSignalSpy loaded(&panel, &BenchmarksPanel::loaded);
        panel.setSnapshot(loadStoreSnapshot(db));
        QVERIFY(loaded.wait(20000));
        QVERIFY(panel.runSeries(0));
        QVERIFY(!panel.runSeries(1));
        QCOMPARE(panel.runSeries(0)->count(), 8);  // one point per message size
        QCOMPARE(panel.runSeries(0)->at(7).y(), 24.13);
        QCOMPARE(panel.runSeries(0)->at(7).x(), 30.0);  // log2(1 GiB)
        QCOMPARE(static_cast<int>(panel.chartView()->chart()->series().size()), 2);  // out-of-place + dashed in-place
        auto* x = qobject_cast<QCategoryAxis*>(panel.chartView()->chart()->axes(Qt::Horizontal).front());
        QVERIFY(x);
        QVERIFY(x->categoriesLabels().contains(QStringLiteral("1 GiB")));
        QVERIFY(panel.chartView()->chart()->axes(Qt::Vertical).front()->titleText().contains(QStringLiteral("GB/s")));
        QVERIFY(panel.runsSummary()->text().contains(QStringLiteral("avg 10.59 GB/s")));
        QCOMPARE(panel.perftestTable()->rowCount(), 1);
        QCOMPARE(panel.perftestTable()->item(0, 0)->text(), QStringLiteral("gpu001 → gpu009"));
        QCOMPARE(panel.perftestTable()->item(0, 3)->text(), QStringLiteral("1.79"));
        QVERIFY(panel.perftestTable()->horizontalHeaderItem(3)->text().contains(QStringLiteral("µs")));
        auto* y = qobject_cast<QValueAxis*>(panel.chartView()->chart()->axes(Qt::Vertical).front());
        QVERIFY(y && y->max() >= 24.16 && y->min() == 0);  // the in-place peak fits
        QTest::qWait(100);  // let the chart lay out its axes before the screenshot
        saveScreenshot(panel.grab(), QStringLiteral("benchmarks_panel.png"));
    }

    void snapshotWithoutStoreShowsNothing() {
        BenchmarksPanel panel;
        QSignalSpy loaded(&panel, &BenchmarksPanel::loaded);
        panel.setSnapshot(makeSnapshot(Fabric{}));  // no store path: empty at once
        QVERIFY(!panel.runSeries(0));
        QCOMPARE(panel.perftestTable()->rowCount(), 0);
    }
};

QTEST_MAIN(TestViewBenchmarks)
#include "tst_view_benchmarks.moc"
