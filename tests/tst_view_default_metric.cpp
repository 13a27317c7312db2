// A store opens coloured by the first metric it has counters for (#23): utilisation, throughput
// without port speeds, PFC pause share, XmitWait, errors, ECN/CNP. A RoCE store with PFC pause
// counters and no byte counters (the storm of tst_finding_overlay: dgx003's NIC stops draining)
// opens coloured by PFC pause share with the storm hot, not by an all-grey utilisation under
// "No counters"; a metric the user chose is kept by a store that has it.
#include "screenshot.h"
#include "analysis_fixture.h"
#include "gui_fixture.h"
#include "pfc_storm_fixture.h"
#include "views/colour_scale.h"
#include "views/fabric_view.h"
#include "views/heatmap_view.h"
#include "views/metric_choice.h"
#include "views/store_snapshot.h"

#include <QComboBox>
#include <QStatusBar>

using namespace atest;

namespace {

// tst_finding_overlay's two-leaf, two-spine fabric, all links 4xHDR.
using pfcstorm::fabric;

// PFC pause counters only: dgx003's NIC pauses leaf02 95 % of the time in the interval at +30 s.
std::string pauseRows() { return pfcstorm::stormRows(false); }

// Byte counters only: leaf02 -> dgx003 at 40 %, leaf01 -> spine01 at 70 %.
std::string byteRows() {
    return rows("leaf02", 1, "xmit_bytes", hdrBytes(std::vector<double>(10, 0.4))) +
           rows("leaf01", 9, "xmit_bytes", hdrBytes(std::vector<double>(10, 0.7)));
}

LinkMetric shownMetric(const QComboBox* box) { return static_cast<LinkMetric>(box->currentData().toInt()); }

int linkBetween(const StoreSnapshot& s, const std::string& x, const std::string& y) {
    const Fabric& f = s.fabric;
    for (std::size_t l = 0; l < f.links.size(); ++l) {
        const auto& a = f.nodes[f.port(f.links[l].a).node.value()].description;
        const auto& b = f.nodes[f.port(f.links[l].b).node.value()].description;
        if ((a == x && b == y) || (a == y && b == x)) return static_cast<int>(l);
    }
    return -1;
}

} // namespace

class TestViewDefaultMetric : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void storeOpensInTheFirstMetricItHasCountersFor() {
        const QString pauses = QString::fromStdString(stores_.make(fabric(), pauseRows()));
        const QString bytes = QString::fromStdString(stores_.make(fabric(), byteRows()));
        const QString topology = QString::fromStdString(stores_.make(fabric(), ""));
        const QString both = QString::fromStdString(stores_.make(fabric(), byteRows() + pauseRows()));

        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* box = w.findChild<QComboBox*>(QStringLiteral("metricBox"));
        auto* view = w.findChild<FabricView*>();
        QVERIFY(box && view);
        auto header = [&] { return countersNote(w.snapshot()->rates, view->metric()); };  // the fabric header's counters line

        // PFC pause counters only: coloured by PFC pause share, the storming link hot.
        QVERIFY(guitest::openAndWait(w, pauses));
        QCOMPARE(shownMetric(box), LinkMetric::PfcPauseMax);
        QCOMPARE(view->metric(), LinkMetric::PfcPauseMax);
        QVERIFY2(box->currentText().startsWith(QStringLiteral("PFC pause share")), qPrintable(box->currentText()));
        qInfo("header: %s | status: %s", qPrintable(header()), qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(!header().contains(QStringLiteral("No counters")));
        QVERIFY2(header().startsWith(QStringLiteral("No byte counters: coloured by PFC pause share")), qPrintable(header()));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("No byte counters: coloured by PFC pause share")),
                 qPrintable(w.statusBar()->currentMessage()));
        // The link charts' lower chart leaves Errors (no such counters here) for the pause share.
        auto* lower = w.findChild<QComboBox*>(QStringLiteral("lowerChartMetric"));
        QVERIFY(lower);
        QCOMPARE(static_cast<LinkMetric>(lower->currentData().toInt()), LinkMetric::PfcPauseUp);
        view->setTime(static_cast<double>(kT0) + 35);  // the storm's 95 % interval
        view->renderFrame();
        const int storm = linkBetween(*w.snapshot(), "dgx003 mlx5_0", "leaf02");
        QVERIFY(storm >= 0);
        const auto px = view->pixelOfLink(storm);
        QVERIFY(px);
        const QImage shot = view->grab().toImage();
        QVERIFY(saveScreenshot(view->grab(), QStringLiteral("fabscope-default-metric-pauses.png")));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-default-metric-pauses-window.png")));
        const QColor drawn(shot.pixel(*px));
        QCOMPARE(drawn.rgb() & 0xFFFFFFu, ColourScale(LinkMetric::PfcPauseMax).rgb(95) & 0xFFFFFFu);
        QVERIFY2(drawn.red() > 180 && drawn.red() > drawn.green() + 80 && drawn.red() > drawn.blue() + 80, qPrintable(drawn.name()));

        // Byte counters with port speeds: utilisation.
        QVERIFY(guitest::openAndWait(w, bytes));
        QCOMPARE(shownMetric(box), LinkMetric::UtilMax);
        QCOMPARE(view->metric(), LinkMetric::UtilMax);
        QVERIFY2(header().isEmpty(), qPrintable(header()));

        // Topology only: no counters of any kind.
        QVERIFY(guitest::openAndWait(w, topology));
        QVERIFY2(header().startsWith(QStringLiteral("No counters in this store")), qPrintable(header()));
        view->renderFrame();
        // Nothing is coloured, so no colour scale is drawn (its grey frame stood at the top right).
        QVERIFY(view->legendRect().isEmpty());
        QVERIFY(view->tooltipAt(QPointF(view->width() - 150, 30)).isEmpty());
        const QImage fabricShown = view->grab().toImage();
        QVERIFY(QColor(fabricShown.pixel(view->width() - 300, 40)) != QColor(120, 120, 120));
        auto* heatmap = w.findChild<HeatmapView*>();
        QVERIFY(heatmap);
        const QImage heatmapShown = heatmap->grab().toImage();
        QVERIFY(QColor(heatmapShown.pixel(heatmap->legendRect().left(), heatmap->legendRect().center().y())) != QColor(120, 120, 120));
        QVERIFY(heatmap->tooltipAt(heatmap->legendRect().center()).isEmpty());
        QVERIFY(saveScreenshot(view->grab(), QStringLiteral("fabscope-default-metric-topology.png")));

        // Bytes and pauses: utilisation, until the user picks the pause share; a store without
        // pause counters falls back to utilisation, the next with them gets the user's pick back.
        QVERIFY(guitest::openAndWait(w, both));
        QCOMPARE(shownMetric(box), LinkMetric::UtilMax);
        const int pfc = box->findData(static_cast<int>(LinkMetric::PfcPauseMax));
        box->setCurrentIndex(pfc);
        Q_EMIT box->activated(pfc);  // what a choice in the drop-down emits
        QCOMPARE(view->metric(), LinkMetric::PfcPauseMax);
        QVERIFY(guitest::openAndWait(w, bytes));
        QCOMPARE(shownMetric(box), LinkMetric::UtilMax);
        QVERIFY(guitest::openAndWait(w, both));
        QCOMPARE(shownMetric(box), LinkMetric::PfcPauseMax);
        QVERIFY2(header().isEmpty(), qPrintable(header()));  // byte counters are there: nothing to explain
        // With counters the legend's frame is there, where the topology-only store had none.
        view->renderFrame();
        QCOMPARE(QColor(view->grab().toImage().pixel(view->width() - 300, 40)), QColor(120, 120, 120));
        QVERIFY(!view->tooltipAt(QPointF(view->width() - 150, 30)).isEmpty());
    }
};

QTEST_MAIN(TestViewDefaultMetric)
#include "tst_view_default_metric.moc"
