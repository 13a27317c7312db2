// Issue #23, "Metrics": the fabric, the heatmap and the link charts can be coloured and charted by
// the PFC pause share and the XmitWait share (% of time, converted as the pfc_storm and
// congestion_tree findings convert them, so a chart and its finding agree) and by ECN/CNP
// packets/s; a store without such counters lists them disabled; exactly zero is drawn apart from
// a small non-zero value. The store: two leaves, two spines, four hosts, 10 s samples; dgx003's
// NIC stops draining (a PFC storm, as tst_finding_overlay builds it), leaf01's uplink to spine01
// waits for credits ~61 % of the time (a congestion tree), dgx001 has no errors and dgx002
// 0.01 errors/s.
#include "screenshot.h"
#include "analysis_fixture.h"
#include "gui_fixture.h"
#include "pfc_storm_fixture.h"
#include "views/colour_scale.h"
#include "views/fabric_view.h"
#include "views/heatmap_view.h"
#include "views/link_charts_panel.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"

#include <QComboBox>
#include <QStandardItemModel>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>

using namespace atest;

namespace {

using pfcstorm::fabric;

constexpr int kIntervals = 10;  // 11 samples, 10 s apart
const std::vector<double> kWait{0, 0.61, 0.62, 0.6, 0.61, 0.62, 0, 0, 0, 0};

std::vector<double> perInterval(double each) { return cumulative(std::vector<double>(kIntervals, each)); }

std::string bytesRows() {
    std::string out;
    for (const auto& [node, port] : std::vector<std::pair<std::string, int>>{
             {"leaf01", 9}, {"leaf01", 10}, {"leaf02", 9}, {"leaf02", 10}, {"leaf01", 1}, {"leaf01", 2}, {"leaf02", 1}, {"leaf02", 2}})
        out += rows(node, port, "xmit_bytes", hdrBytes(std::vector<double>(kIntervals, 0.3)));
    return out;
}

std::string roceRows() {
    std::vector<double> ticks;
    for (double s : kWait) ticks.push_back(s * 10 / 4e-9);  // 4 ns ticks, the default tick_ns
    return bytesRows() + pfcstorm::stormRows(true) +
           rows("leaf01", 9, "xmit_wait", cumulative(ticks)) +
           rows("dgx001 mlx5_0", 1, "symbol_errors", perInterval(0)) + rows("dgx002 mlx5_0", 1, "symbol_errors", perInterval(0.1)) +
           rows("dgx002 mlx5_0", 1, "cnp_sent", perInterval(500));
}

int linkOf(const StoreSnapshot& s, const std::string& a, const std::string& b) {
    for (std::size_t l = 0; l < s.fabric.links.size(); ++l) {
        const Link& k = s.fabric.links[l];
        const std::string x = s.fabric.node(s.fabric.port(k.a).node).description, y = s.fabric.node(s.fabric.port(k.b).node).description;
        if ((x == a && y == b) || (x == b && y == a)) return static_cast<int>(l);
    }
    return -1;
}

QRgb pixelOf(FabricView* f, int link) {
    f->renderFrame();
    const auto at = f->pixelOfLink(link);
    if (!at) return 0;
    return f->grab().toImage().pixel(*at) & 0xFFFFFFu;
}

void choose(QComboBox* box, LinkMetric m) { box->setCurrentIndex(box->findData(static_cast<int>(m))); }

bool enabled(QComboBox* box, LinkMetric m) {
    const auto* model = qobject_cast<QStandardItemModel*>(box->model());
    return model && model->item(box->findData(static_cast<int>(m)))->isEnabled();
}

const Finding* firstOf(const FindingsReport& r, FindingKind kind) {
    for (const auto& f : r.findings)
        if (f.kind == kind) return &f;
    return nullptr;
}

// Mean of the chart's points whose time lies in [start, end) (the finding's intervals).
double meanOver(const QLineSeries* s, double start, double end) {
    double sum = 0;
    int n = 0;
    for (const QPointF& p : s->points())
        if (p.x() >= start * 1000 && p.x() < end * 1000) sum += p.y(), ++n;
    return n ? sum / n : -1;
}

} // namespace

class TestViewRoceMetrics : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};
    std::string roce_, plain_;

private Q_SLOTS:
    void initTestCase() {
        roce_ = stores_.make(fabric(), roceRows());
        plain_ = stores_.make(fabric(), bytesRows());
    }

    void pfcPauseShareColoursTheStorm() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(roce_), false));
        auto* box = w.findChild<QComboBox*>(QStringLiteral("metricBox"));
        auto* f = w.findChild<FabricView*>();
        QVERIFY(box && f);
        for (LinkMetric m : {LinkMetric::PfcPauseMax, LinkMetric::PfcPauseUp, LinkMetric::PfcPauseDown, LinkMetric::XmitWait, LinkMetric::EcnCnp})
            QVERIFY2(enabled(box, m), metricName(m).data());
        choose(box, LinkMetric::PfcPauseMax);
        QCOMPARE(f->metric(), LinkMetric::PfcPauseMax);
        QVERIFY(box->currentText().contains(QLatin1String("% of time")));
        // The cursor in the storm's worst interval (30-40 s: dgx003 pauses 95 % of it).
        w.timeController()->setTime(static_cast<double>(kT0) + 35);
        const auto snap = w.snapshot();
        const int storming = linkOf(*snap, "leaf02", "dgx003 mlx5_0"), quiet = linkOf(*snap, "leaf02", "dgx004 mlx5_0");
        QVERIFY(storming >= 0 && quiet >= 0);
        const ColourScale scale(LinkMetric::PfcPauseMax);
        QTRY_COMPARE_WITH_TIMEOUT(pixelOf(f, storming), scale.rgb(95) & 0xFFFFFFu, 10000);
        const QRgb hot = pixelOf(f, storming);
        QVERIFY2(qRed(hot) > 180 && qGreen(hot) < 80, qPrintable(QString::number(hot, 16)));  // the hot end of the ramp
        QCOMPARE(pixelOf(f, quiet), ColourScale::zero() & 0xFFFFFFu);  // counted, never paused: "zero", not "no data"
        // Per direction: dgx003 paused its leaf (down, towards the host), nothing paused it (up).
        const int bin = snap->rates.binAt(static_cast<double>(kT0) + 35);
        QCOMPARE(snap->rates.value(LinkMetric::PfcPauseDown, static_cast<std::size_t>(storming), static_cast<std::size_t>(bin)), 95.0f);
        QCOMPARE(snap->rates.value(LinkMetric::PfcPauseUp, static_cast<std::size_t>(storming), static_cast<std::size_t>(bin)), 0.0f);
        // Legend, tooltip and heatmap say "% of time".
        QVERIFY(scale.legendTitle(f->fontMetrics(), 200).endsWith(QLatin1String("(% of time)")));
        // Every metric's legend, as the fabric and the heatmap draw it, says its direction whole
        // ("PFC pause share (max o…" did not) and its unit.
        auto* heat = w.findChild<HeatmapView*>();
        QVERIFY(heat);
        for (int i = 0; i < kLinkMetricCount; ++i) {
            const ColourScale s(static_cast<LinkMetric>(i));
            const QString name = QString::fromUtf8(metricName(s.metric()).data());
            const QString direction = name.contains(QLatin1String("max of both")) ? QStringLiteral("max")
                                      : name.contains(QLatin1String(" up ")) ? QStringLiteral("up")
                                      : name.contains(QLatin1String(" down ")) ? QStringLiteral("down") : QString();
            for (const auto& [title, where] : {std::pair{s.legendTitleIn(f->fontMetrics(), f->legendRect()), "fabric"},
                                               std::pair{s.legendTitleIn(heat->fontMetrics(), heat->legendRect()), "heatmap"}}) {
                const QString what = title + QLatin1String(" in the ") + QLatin1String(where);
                QVERIFY2(!title.contains(QChar(0x2026)), qPrintable(what));
                QVERIFY2(title.endsWith(QLatin1Char('(') + s.unit() + QLatin1Char(')')), qPrintable(what));
                QVERIFY2(direction.isEmpty() || title.contains(direction), qPrintable(what));
            }
        }
        // Hovering the legend gives the full name, the range and what the swatches mean.
        for (const QString& tip : {f->tooltipAt(f->legendRect().center()), heat->tooltipAt(heat->legendRect().center())}) {
            QVERIFY2(tip.contains(QLatin1String("PFC pause share (max of both directions)</b> (% of time)")), qPrintable(tip));
            QVERIFY2(tip.contains(QLatin1String("linear, 0 to 100 % of time")) && tip.contains(QLatin1String("exactly zero")), qPrintable(tip));
        }
        const auto at = f->pixelOfLink(storming);
        QVERIFY(at);
        QVERIFY2(f->tooltipAt(*at).contains(QLatin1String("95 % of time")), qPrintable(f->tooltipAt(*at)));
        auto* heatmap = w.findChild<HeatmapView*>();
        QVERIFY(heatmap);
        QCOMPARE(heatmap->metric(), LinkMetric::PfcPauseMax);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady(), 10000);
        const auto y = heatmap->rowYOfLink(storming);
        QVERIFY(y);
        const QString tip = heatmap->tooltipAt(QPointF(heatmap->xOfTime(static_cast<double>(kT0) + 35) + 1, *y));
        QVERIFY2(tip.contains(QLatin1String("% of time")), qPrintable(tip));

        // The chart of the storming link and the finding agree on the share.
        const auto report = analyzeStore(roce_);
        const Finding* storm = firstOf(report, FindingKind::PfcStorm);
        QVERIFY(storm && storm->origin);
        w.findChild<SelectionController*>()->selectLink(storming);
        auto* charts = w.findChild<LinkChartsPanel*>();
        auto* lower = charts->findChild<QComboBox*>(QStringLiteral("lowerChartMetric"));
        choose(lower, LinkMetric::PfcPauseDown);
        QCOMPARE(charts->lowerView()->chart()->axes(Qt::Vertical).front()->titleText(), QStringLiteral("% of time"));
        QTRY_VERIFY(charts->lowerSeries()->count() > 0);
        QVERIFY2(std::abs(meanOver(charts->lowerSeries(), storm->start, storm->end) - metric(*storm, "origin_pause_share") * 100) < 0.5,
                 qPrintable(QString::number(meanOver(charts->lowerSeries(), storm->start, storm->end))));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-pfc-pause-share.png")));
    }

    void xmitWaitIsChartedAsTheFindingsShare() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(roce_), false));
        const auto report = analyzeStore(roce_);
        const Finding* tree = firstOf(report, FindingKind::CongestionTree);
        QVERIFY(tree);
        const auto snap = w.snapshot();
        const int uplink = linkOf(*snap, "leaf01", "spine01");
        w.findChild<SelectionController*>()->selectLink(uplink);
        auto* charts = w.findChild<LinkChartsPanel*>();
        choose(charts->findChild<QComboBox*>(QStringLiteral("lowerChartMetric")), LinkMetric::XmitWait);
        auto* axis = charts->lowerView()->chart()->axes(Qt::Vertical).front();
        QCOMPARE(axis->titleText(), QStringLiteral("% of time"));  // not ticks/s
        QTRY_VERIFY(charts->lowerSeries()->count() > 0);
        double top = 0;
        for (const QPointF& p : charts->lowerSeries()->points()) top = std::max(top, p.y());
        QVERIFY2(top > 55 && top <= 100, qPrintable(QString::number(top)));  // 0.62 x 100, not 1.55e8 ticks/s
        const double mean = meanOver(charts->lowerSeries(), tree->start, tree->end);
        QVERIFY2(std::abs(mean - metric(*tree, "root_wait_share") * 100) < 0.5,
                 qPrintable(QStringLiteral("chart %1 vs finding %2").arg(mean).arg(metric(*tree, "root_wait_share") * 100)));
        QVERIFY(charts->lowerReadout(static_cast<double>(kT0) + 25).contains(QLatin1String("62.0 % of time")));
        w.findChild<FabricView*>()->renderFrame();
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-xmitwait-share.png")));
    }

    void zeroErrorsAreDrawnApartOnScreen() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(roce_), false));
        choose(w.findChild<QComboBox*>(QStringLiteral("metricBox")), LinkMetric::Errors);
        w.timeController()->setTime(static_cast<double>(kT0) + 45);
        auto* f = w.findChild<FabricView*>();
        const auto snap = w.snapshot();
        const int clean = linkOf(*snap, "leaf01", "dgx001 mlx5_0"), few = linkOf(*snap, "leaf01", "dgx002 mlx5_0");
        const int bin = snap->rates.binAt(static_cast<double>(kT0) + 45);
        QCOMPARE(snap->rates.value(LinkMetric::Errors, static_cast<std::size_t>(clean), static_cast<std::size_t>(bin)), 0.0f);
        QVERIFY(std::abs(snap->rates.value(LinkMetric::Errors, static_cast<std::size_t>(few), static_cast<std::size_t>(bin)) - 0.01f) < 1e-4f);
        QTRY_COMPARE_WITH_TIMEOUT(pixelOf(f, clean), ColourScale::zero() & 0xFFFFFFu, 10000);
        const QRgb small = pixelOf(f, few);
        QCOMPARE(small, ColourScale(LinkMetric::Errors).rgb(0.01f) & 0xFFFFFFu);
        QVERIFY(small != pixelOf(f, clean));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-errors-zero-apart.png")));
        // ECN/CNP: dgx002 sent 50 CNPs/s; the clean host link had none counted at all (no data).
        choose(w.findChild<QComboBox*>(QStringLiteral("metricBox")), LinkMetric::EcnCnp);
        QTRY_COMPARE_WITH_TIMEOUT(pixelOf(f, few), ColourScale(LinkMetric::EcnCnp).rgb(50) & 0xFFFFFFu, 10000);
        QCOMPARE(pixelOf(f, clean), ColourScale::noData() & 0xFFFFFFu);
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-ecn-cnp.png")));
    }

    void metricsWithoutCountersAreDisabled() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(plain_), false));
        auto* box = w.findChild<QComboBox*>(QStringLiteral("metricBox"));
        QVERIFY(enabled(box, LinkMetric::UtilMax));
        for (LinkMetric m : {LinkMetric::PfcPauseMax, LinkMetric::PfcPauseUp, LinkMetric::PfcPauseDown, LinkMetric::XmitWait, LinkMetric::EcnCnp,
                             LinkMetric::Errors})
            QVERIFY2(!enabled(box, m), metricName(m).data());
        auto* lower = w.findChild<QComboBox*>(QStringLiteral("lowerChartMetric"));
        QVERIFY(!enabled(lower, LinkMetric::PfcPauseUp));
        QVERIFY(enabled(lower, LinkMetric::ThroughputMax));
    }
};

QTEST_MAIN(TestViewRoceMetrics)
#include "tst_view_roce_metrics.moc"
