// The views answer the mouse, on the demo store (hot uplink leaf02 p9 -> spine01 p2, ~95 % from
// 1700000200 to 1700000350): the link charts show a readout with units under the mouse, zoom on
// the wheel and on a drag with Back (Ctrl+Z) and Reset, seek the shared cursor on a click, label
// the time axis on round UTC times and say why they are empty; a heatmap click moves the cursor
// to the cell's time; a click on the scrubber's groove jumps there. On the large fabric each
// heatmap pixel is the hottest value of the links and samples it covers, drawn first, from the
// background-prepared copy, again, and after a resize.
#include "gui_fixture.h"
#include "screenshot.h"
#include "core/demo_fabric.h"
#include "views/colour_scale.h"
#include "views/heatmap_view.h"
#include "views/store_snapshot.h"
#include "views/link_charts_panel.h"
#include "views/selection.h"
#include "views/time_chart_view.h"
#include "views/time_controller.h"
#include "views/time_scrubber.h"

#include <QLabel>
#include <QSlider>
#include <QToolButton>
#include <QWheelEvent>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace fabscope;

namespace {

int hotLink(const StoreSnapshot& s) {
    for (std::size_t i = 0; i < s.fabric.links.size(); ++i) {
        const std::string label = s.linkLabel(LinkId(i));
        if (label.find("leaf02 p9") != std::string::npos && label.find("spine01 p2") != std::string::npos) return static_cast<int>(i);
    }
    return -1;
}

// A viewport point at time t, halfway down the plot.
QPoint plotPoint(TimeChartView* view, double t) {
    const QRectF plot = view->chart()->plotArea();
    const double y = view->mapFromScene(view->chart()->mapToScene(plot.center())).y();
    return QPoint(static_cast<int>(std::lround(view->xOfTime(t))), static_cast<int>(y));
}

// Every pixel of the heatmap's image against plain loops over the rates: the colour of the max
// (NaN skipped) of the links and bins the pixel covers. Returns the first mismatch, empty if none.
QString firstWrongPixel(const HeatmapView& view, const StoreSnapshot& snap) {
    const QImage& image = view.image();
    const auto& order = view.order();
    const auto& r = snap.rates;
    const ColourScale scale(view.metric());
    const auto H = static_cast<std::size_t>(image.height()), W = static_cast<std::size_t>(image.width()), n = order.size();
    if (H == 0 || W == 0 || n != r.links) return QStringLiteral("no image");
    std::vector<float> perBin(r.bins);
    for (std::size_t y = 0; y < H; ++y) {
        const std::size_t r0 = y * n / H, r1 = std::max(r0 + 1, (y + 1) * n / H);
        std::fill(perBin.begin(), perBin.end(), std::numeric_limits<float>::quiet_NaN());
        for (std::size_t i = r0; i < r1; ++i)
            for (std::size_t b = 0; b < r.bins; ++b) {
                const float v = r.value(view.metric(), order[i], b);
                if (!std::isnan(v) && (std::isnan(perBin[b]) || v > perBin[b])) perBin[b] = v;
            }
        for (std::size_t x = 0; x < W; ++x) {
            const std::size_t c0 = x * r.bins / W, c1 = std::max(c0 + 1, (x + 1) * r.bins / W);
            float want = std::numeric_limits<float>::quiet_NaN();
            for (std::size_t b = c0; b < c1; ++b)
                if (!std::isnan(perBin[b]) && (std::isnan(want) || perBin[b] > want)) want = perBin[b];
            const QRgb got = image.pixel(static_cast<int>(x), static_cast<int>(y));
            if ((got & 0xffffffu) != (scale.rgb(want) & 0xffffffu))
                return QStringLiteral("pixel %1,%2 (links %3-%4): %5, expected the colour of %6").arg(x).arg(y).arg(r0).arg(r1).arg(got, 0, 16).arg(want);
        }
    }
    return {};
}

QCategoryAxis* timeAxis(TimeChartView* view) { return qobject_cast<QCategoryAxis*>(view->chart()->axes(Qt::Horizontal).value(0)); }

} // namespace

class TestViewInteraction : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

    // A shown window on the demo store with the hot link selected; returns its charts.
    LinkChartsPanel* open(MainWindow& w) {
        w.resize(1600, 1000);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w) || !guitest::openAndWait(w, store_, false)) return nullptr;
        w.selection()->selectLink(hotLink(*w.snapshot()));
        QTest::qWait(100);  // the charts lay out their new axes
        return w.findChild<LinkChartsPanel*>();
    }

private Q_SLOTS:
    void initTestCase() {
        store_ = guitest::makeDemoStore(dir_);
        QVERIFY(!store_.isEmpty());
    }

    void emptyChartsSayWhyAndTheAxisIsRoundUtc() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        auto* bare = w.findChild<LinkChartsPanel*>();
        QVERIFY(bare);
        QCOMPARE(bare->utilisationTimeView()->emptyText(), QStringLiteral("No store open."));
        QVERIFY(guitest::openAndWait(w, store_, false));
        QCOMPARE(bare->utilisationTimeView()->emptyText(), QStringLiteral("Select a link (or a port on a link) to chart it."));
        auto* sentence = bare->utilisationView()->findChild<QLabel*>(QStringLiteral("chartEmptyText"));
        QVERIFY(sentence && sentence->isVisible());  // it covers the chart: no 1970 axis
        QCOMPARE(sentence->geometry(), bare->utilisationView()->rect());
        w.selection()->selectLink(hotLink(*w.snapshot()));
        QCOMPARE(bare->utilisationTimeView()->emptyText(), QString());
        QVERIFY(!sentence->isVisible());
        QCategoryAxis* x = timeAxis(bare->utilisationTimeView());
        QVERIFY(x);
        QVERIFY2(x->titleText().contains(QStringLiteral("UTC")) && x->titleText().contains(QStringLiteral("2023-11-14")), qPrintable(x->titleText()));
        QVERIFY(x->min() >= 1700000000.0 * 1000);
        const QStringList labels = x->categoriesLabels();
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(u'|')));
        for (const QString& label : labels) {  // ticks on whole minutes here (a ~10 min span)
            const double v = x->endValue(label);
            QVERIFY2(std::fmod(v, 60000.0) == 0, qPrintable(QStringLiteral("%1 at %2").arg(label).arg(v, 0, 'f', 0)));
        }
    }

    void hoverShowsTheValuesWithUnits() {
        MainWindow w;
        LinkChartsPanel* charts = open(w);
        QVERIFY(charts);
        TimeChartView* view = charts->utilisationTimeView();
        QTest::mouseMove(view->viewport(), plotPoint(view, 1700000250));
        QTRY_VERIFY(view->readout()->isVisible());
        const QString text = view->readout()->text();
        QVERIFY2(QRegularExpression(QStringLiteral("^2023-11-14 22:17:\\d\\d UTC — up 9\\d\\.\\d %, down \\d+\\.\\d %$")).match(text).hasMatch(),
                 qPrintable(text));
        QVERIFY(saveScreenshot(charts->grab(), QStringLiteral("fabscope-chart-readout.png")));
        charts->grab().save(QStringLiteral("/tmp/fabscope-chart-readout.png"));
        TimeChartView* lower = charts->lowerTimeView();
        QTest::mouseMove(lower->viewport(), plotPoint(lower, 1700000250));
        QTRY_VERIFY(lower->readout()->isVisible());
        QVERIFY2(lower->readout()->text().contains(QStringLiteral("/s")), qPrintable(lower->readout()->text()));
    }

    void wheelAndDragZoomAndBackRestores() {
        MainWindow w;
        LinkChartsPanel* charts = open(w);
        QVERIFY(charts);
        TimeChartView* view = charts->utilisationTimeView();
        QCategoryAxis* x = timeAxis(view);
        const double min0 = x->min(), max0 = x->max();
        const QPoint at = plotPoint(view, 1700000300);
        QWheelEvent wheel(at, view->viewport()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY2(x->max() - x->min() < 0.9 * (max0 - min0), qPrintable(QStringLiteral("%1 -> %2").arg(max0 - min0).arg(x->max() - x->min())));
        QVERIFY(x->min() > min0 && x->max() < max0);  // around the mouse, inside the span
        // The lower chart shares the range.
        QCOMPARE(timeAxis(charts->lowerTimeView())->min(), x->min());
        QCOMPARE(charts->zoomDepth(), std::size_t(1));
        // Undo with Ctrl+Z.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(x->min(), min0);
        QCOMPARE(x->max(), max0);
        // A drag zooms to the dragged times; Back undoes it.
        const QPoint a = plotPoint(view, 1700000200), b = plotPoint(view, 1700000350);
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, a);
        QTest::mouseMove(view->viewport(), (a + b) / 2);
        QTest::mouseMove(view->viewport(), b);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, b);
        QVERIFY2(std::abs(x->min() - 1700000200e3) < 5e3 && std::abs(x->max() - 1700000350e3) < 5e3,
                 qPrintable(QStringLiteral("%1 – %2").arg(x->min(), 0, 'f', 0).arg(x->max(), 0, 'f', 0)));
        auto* back = charts->findChild<QToolButton*>(QStringLiteral("chartZoomBack"));
        QVERIFY(back && back->isEnabled());
        QTest::mouseClick(back, Qt::LeftButton);
        QCOMPARE(x->min(), min0);
        QCOMPARE(x->max(), max0);
        QVERIFY(!back->isEnabled());
    }

    void chartClickMovesTheCursor() {
        MainWindow w;
        LinkChartsPanel* charts = open(w);
        QVERIFY(charts);
        const double step = w.snapshot()->rates.step;
        QVERIFY(step > 0);
        for (TimeChartView* view : {charts->utilisationTimeView(), charts->lowerTimeView()}) {
            for (double t : {1700000123.0, 1700000444.0}) {
                QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, plotPoint(view, t));
                QVERIFY2(std::abs(w.timeController()->time() - t) <= step,
                         qPrintable(QStringLiteral("clicked %1, cursor %2").arg(t, 0, 'f', 1).arg(w.timeController()->time(), 0, 'f', 1)));
            }
        }
    }

    void heatmapClickMovesTheCursor() {
        MainWindow w;
        QVERIFY(open(w));
        auto* heatmap = w.findChild<HeatmapView*>();
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady(), 10000);
        const int hot = hotLink(*w.snapshot());
        const auto y = heatmap->rowYOfLink(hot);
        QVERIFY(y);
        const auto& r = w.snapshot()->rates;
        const double perPixel = r.step * static_cast<double>(r.bins) / heatmap->plotRect().width();
        w.timeController()->setTime(r.start);
        const double t = 1700000270;
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, QPoint(heatmap->xOfTime(t), *y));
        QCOMPARE(w.selection()->link(), hot);
        QVERIFY2(std::abs(w.timeController()->time() - t) <= perPixel + r.step,
                 qPrintable(QStringLiteral("cursor %1").arg(w.timeController()->time(), 0, 'f', 1)));
    }

    // The rows are sorted by the metric's peak: a metric change re-sorts them, a resize keeps the
    // sort (it only pools and colours again).
    void heatmapOrderFollowsTheMetricAndSurvivesAResize() {
        MainWindow w;
        QVERIFY(open(w));
        auto* heatmap = w.findChild<HeatmapView*>();
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady(), 10000);
        const auto& snap = *w.snapshot();
        const std::vector<std::uint32_t> byUtil = heatmap->order();
        heatmap->setMetric(LinkMetric::Errors);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady(), 10000);
        const std::vector<std::uint32_t> byErrors = heatmap->order();
        QVERIFY(byErrors != byUtil);
        // The most erroring link heads the rows of its tier pair.
        auto tiersOf = [&](std::uint32_t l) {
            const auto& link = snap.fabric.links[l];
            const int a = snap.tiers[snap.fabric.port(link.a).node.value()], b = snap.tiers[snap.fabric.port(link.b).node.value()];
            return std::pair(std::max(a, b), std::min(a, b));
        };
        auto peak = [&](std::uint32_t l) {
            const float p = snap.rates.peak(LinkMetric::Errors, l);
            return std::isnan(p) ? -1.0f : p;
        };
        std::uint32_t worst = 0;
        for (std::uint32_t l = 0; l < snap.fabric.links.size(); ++l)
            if (peak(l) > peak(worst)) worst = l;
        QVERIFY(peak(worst) > 0);  // the demo has an erroring link
        const auto head = std::find_if(byErrors.begin(), byErrors.end(), [&](std::uint32_t l) { return tiersOf(l) == tiersOf(worst); });
        QVERIFY(head != byErrors.end());
        QCOMPARE(peak(*head), peak(worst));
        const QSize before = heatmap->imageSize();
        heatmap->resize(heatmap->width() + 40, heatmap->height() + 20);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady() && heatmap->imageSize() != before, 10000);
        QCOMPARE(heatmap->order(), byErrors);  // kept
        heatmap->setMetric(LinkMetric::UtilMax);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady(), 10000);
        QCOMPARE(heatmap->order(), byUtil);
    }

    // 82,944 links: a pixel row covers hundreds, read mostly from whole groups of the reduced copy.
    void heatmapPixelsAreTheHottestOfTheirLinks() {
        Fabric fabric = demoFabric(DemoOptions::Scale::Large);
        LinkTimeSeries r;
        r.start = 1700000000;
        r.step = 10;
        r.bins = 23;
        r.links = fabric.links.size();
        const std::size_t cells = r.links * r.bins;
        r.utilUp.resize(cells);
        r.utilDown.resize(cells);
        r.xmitWait.assign(cells, 0.0f);
        r.errors.assign(cells, 0.0f);
        r.upIsAtoB.assign(r.links, 1);
        std::uint64_t rng = 88172645463325252ULL;
        for (std::size_t i = 0; i < cells; ++i) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            r.utilUp[i] = rng % 5 == 0 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(rng % 10000) / 100.0f;
            r.utilDown[i] = (rng >> 9) % 3 == 0 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>((rng >> 20) % 10000) / 100.0f;
        }
        auto snap = makeSnapshot(std::move(fabric), std::move(r));
        HeatmapView view;
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(snap);
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady(), 20000);
        QCOMPARE(view.metric(), LinkMetric::UtilMax);
        QString wrong = firstWrongPixel(view, *snap);
        QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("UtilMax drawn first: ") + wrong));
        QTRY_VERIFY_WITH_TIMEOUT(!view.preparing(), 20000);  // every stored metric's order and copy made in the background
        view.setMetric(LinkMetric::UtilUp);
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady(), 20000);
        wrong = firstWrongPixel(view, *snap);
        QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("UtilUp from the prepared copy: ") + wrong));
        view.setMetric(LinkMetric::UtilMax);
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady(), 20000);
        wrong = firstWrongPixel(view, *snap);
        QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("UtilMax drawn again: ") + wrong));
        const QSize before = view.imageSize();
        view.resize(700, 437);
        QTRY_VERIFY_WITH_TIMEOUT(view.imageReady() && view.imageSize() != before, 20000);
        wrong = firstWrongPixel(view, *snap);
        QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("UtilMax after a resize: ") + wrong));
    }

    void scrubberGrooveClickJumps() {
        MainWindow w;
        QVERIFY(open(w));
        auto* slider = w.findChild<TimeScrubber*>()->slider();
        QVERIFY(slider->isEnabled());
        const TimeRange span = w.timeController()->span();
        w.timeController()->setTime(span.start);
        QTest::mouseClick(slider, Qt::LeftButton, {}, QPoint(slider->width() * 3 / 4, slider->height() / 2));
        const double f = span.fraction(w.timeController()->time());
        QVERIFY2(std::abs(f - 0.75) < 0.05, qPrintable(QString::number(f)));  // a page step would stop at 0.1
    }
};

QTEST_MAIN(TestViewInteraction)
#include "tst_view_interaction.moc"
