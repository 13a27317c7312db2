// The panels that follow the selection and the cursor, on the demo store: the inspector shows the
// hot uplink's details and raw counters, the charts show its congestion within their point budget
// and move their cursor line with the time cursor, the heatmap selects it on click.
#include "screenshot.h"
#include "app/main_window.h"
#include "core/demo_fabric.h"
#include "importers/import_runner.h"
#include "views/fabric_view.h"
#include "views/heatmap_view.h"
#include "views/utc_text.h"
#include "views/inspector_panel.h"
#include "views/annotations_panel.h"
#include "views/diagnostics_panel.h"
#include "views/link_charts_panel.h"
#include "views/recent_stores.h"
#include "views/report_export.h"
#include "views/selection.h"
#include "views/time_controller.h"
#include "views/time_scrubber.h"

#include "core/store/annotations.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QDockWidget>
#include <QHelpEvent>
#include <QLabel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include <QTreeWidget>
#include <QtCharts/QLineSeries>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtTest>

#include <cmath>

using namespace fabscope;

class TestViewPanels : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

    void openDemo(MainWindow& w) {
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store_);
        QVERIFY(loaded.wait(20000));
        QVERIFY(w.snapshot());
    }

    // The demo's known hot uplink: leaf02 p9 -> spine01 p2, ~95 % from 1700000200 to 1700000350.
    static int hotLink(const StoreSnapshot& s) {
        for (std::size_t i = 0; i < s.fabric.links.size(); ++i) {
            const std::string label = s.linkLabel(LinkId(i));
            if (label.find("leaf02 p9") != std::string::npos && label.find("spine01 p2") != std::string::npos) return static_cast<int>(i);
        }
        return -1;
    }

    static void shoot(QWidget& w, const QString& name) {
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-%1.png").arg(name)));
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // QSettings of the tests stay out of the user's
        const std::string demo = dir_.filePath(QStringLiteral("demo")).toStdString();
        store_ = dir_.filePath(QStringLiteral("demo.sqlite"));
        writeDemo(demo, {});
        Store s(store_.toStdString());
        ImporterRegistry reg;
        QVERIFY(!ImportRunner(s, reg).run({demo}, {}).anyFailed());
    }

    void inspectorShowsTheHotLinkWithCapacityAndRawCounters() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        openDemo(w);
        auto* inspector = w.findChild<InspectorPanel*>();
        QVERIFY(inspector);
        QAbstractItemModelTester tester(inspector->tree()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int hot = hotLink(*w.snapshot());
        QVERIFY(hot >= 0);
        QSignalSpy counters(inspector, &InspectorPanel::countersUpdated);
        w.timeController()->setTime(1700000250);
        w.selection()->selectLink(hot);
        const QString text = inspector->text();
        QVERIFY2(text.contains(QStringLiteral("Capacity: 200 Gb/s")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("4xHDR")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("State: Active")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("GUID")), qPrintable(text));
        // Rates at the cursor, with units: the hot stretch runs at ~95 % up.
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("Utilisation up \\(towards the spine\\): 9\\d\\.?\\d* %"))), qPrintable(text));
        // Raw counters arrive from a worker, with units and the sample's time.
        QVERIFY(counters.wait(10000));
        const QString after = inspector->text();
        QVERIFY2(after.contains(QStringLiteral("xmit_bytes: ")) && after.contains(QStringLiteral(" bytes (sample at 2023-11-14 22:17:")),
                 qPrintable(after));
        // The fabric view follows the selection.
        QCOMPARE(w.findChild<FabricView*>()->selectedLink(), hot);

        // Selecting a node lists its neighbours; activating one selects it.
        const int leaf = static_cast<int>(w.snapshot()->fabric.port(w.snapshot()->fabric.links[static_cast<std::size_t>(hot)].a).node.value());
        w.selection()->selectNode(leaf);
        QVERIFY(inspector->text().contains(QStringLiteral("Neighbours (")));
        QVERIFY(inspector->text().contains(QStringLiteral("LID: ")));
        shoot(w, QStringLiteral("inspector-node"));
    }

    void chartsShowTheHotLinkWithinTheirBudgetAndFollowTheCursor() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        openDemo(w);
        auto* charts = w.findChild<LinkChartsPanel*>();
        QVERIFY(charts);
        const int hot = hotLink(*w.snapshot());
        w.selection()->selectLink(hot);
        QCOMPARE(charts->link(), hot);
        double peak = 0;
        for (int d = 0; d < 2; ++d) {
            QLineSeries* s = charts->utilisationSeries(d);
            QVERIFY(s->count() > 10);
            QVERIFY(s->count() <= LinkChartsPanel::kMaxPoints);
            for (const QPointF& p : s->points()) peak = std::max(peak, p.y());
        }
        QVERIFY2(peak >= 90, qPrintable(QString::number(peak)));
        QVERIFY(charts->lowerSeries()->count() <= LinkChartsPanel::kMaxPoints);
        // Axis titles carry units: time in UTC, utilisation in %.
        QStringList titles;
        for (QChartView* v : {charts->utilisationView(), charts->lowerView()})
            for (QAbstractAxis* axis : v->chart()->axes()) titles << axis->titleText();
        QVERIFY2(titles.contains(QStringLiteral("Time (UTC), 2023-11-14")), qPrintable(titles.join(u'|')));  // with the date
        QVERIFY2(std::any_of(titles.begin(), titles.end(), [](const QString& t) { return t.contains(QStringLiteral("(%)")); }),
                 qPrintable(titles.join(u'|')));
        QVERIFY2(std::all_of(titles.begin(), titles.end(),
                             [](const QString& t) { return t.contains(QStringLiteral("UTC")) || t.contains(u'%') || t.contains(QStringLiteral("/s")); }),
                 qPrintable(titles.join(u'|')));  // every axis says its unit
        // The cursor line moves with the time cursor.
        QApplication::processEvents();
        const double x0 = charts->cursorPixelX();
        w.timeController()->setTime(1700000300);
        const double x1 = charts->cursorPixelX();
        QVERIFY2(x1 > x0 + 20, qPrintable(QStringLiteral("%1 -> %2").arg(x0).arg(x1)));
        // A port on the link charts the link too.
        w.selection()->clear();
        QCOMPARE(charts->link(), -1);
        w.selection()->selectPort(static_cast<int>(w.snapshot()->fabric.links[static_cast<std::size_t>(hot)].b.value()));
        QCOMPARE(charts->link(), hot);
        shoot(w, QStringLiteral("charts"));
    }

    void clickingTheHeatmapRowOfTheHotLinkSelectsIt() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        openDemo(w);
        auto* heatmap = w.findChild<HeatmapView*>();
        QVERIFY(heatmap);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady(), 10000);
        const auto snap = w.snapshot();
        const int hot = hotLink(*snap);
        // Ordered by tier: leaf-spine links (tier 2-1) first; the hot uplink is the hottest of them.
        QCOMPARE(static_cast<int>(heatmap->order().front()), hot);
        const auto y = heatmap->rowYOfLink(hot);
        QVERIFY(y);
        const int x = heatmap->xOfTime(1700000250);
        // Hover: link, time and value with its unit.
        const QString tip = heatmap->tooltipAt(QPointF(x, *y));
        QVERIFY2(tip.contains(QStringLiteral("leaf02 p9")) && tip.contains(QStringLiteral("22:1")) && tip.contains(QStringLiteral(" %")),
                 qPrintable(tip));
        QHelpEvent help(QEvent::ToolTip, QPoint(x, *y), heatmap->mapToGlobal(QPoint(x, *y)));
        QVERIFY(QApplication::sendEvent(heatmap, &help));
        // Click: the selection and the fabric view follow.
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, QPoint(x, *y));
        QCOMPARE(w.selection()->link(), hot);
        QCOMPARE(w.findChild<FabricView*>()->selectedLink(), hot);
        // Pixel budget: the pooled image is exactly the plot, never scaled.
        QCOMPARE(heatmap->imageSize(), heatmap->plotRect().size());
        QCOMPARE(heatmap->timeAxisTitle(), QStringLiteral("time (UTC), 2023-11-14"));  // the date, not only the clock
        QCOMPARE(utcDates(1700000000, 1700100000), QStringLiteral("2023-11-14 – 2023-11-16"));
        // Its ticks sit on round minutes (the span is 22:13:20-22:23:10), inside the plot, in order.
        const auto ticks = heatmap->timeAxisTicks();
        QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            QCOMPARE(std::fmod(ticks[i].t, 60.0), 0.0);
            QCOMPARE(ticks[i].label, utcText(ticks[i].t, QStringLiteral("HH:mm")));
            QVERIFY(heatmap->plotRect().left() <= heatmap->xOfTime(ticks[i].t) && heatmap->xOfTime(ticks[i].t) <= heatmap->plotRect().right() + 1);
            if (i) QVERIFY(ticks[i].t > ticks[i - 1].t);
        }
        QCOMPARE(timeTicks(1700005000, 1700010000, 4).front().label, QStringLiteral("11-15 00:00"));  // 23:36:40 to 01:00:00: half hours, with the day
        QCOMPARE(timeTicks(1700006390, 1700006420, 4).back().label, QStringLiteral("11-15 00:00:20"));  // 10 s steps across midnight
        // The cursor line is shared.
        const int cx = heatmap->cursorX();
        w.timeController()->setTime(1700000500);
        QVERIFY(heatmap->cursorX() > cx);
        // Keyboard: Down selects the next row.
        heatmap->setFocus();
        QTest::keyClick(heatmap, Qt::Key_Down);
        QCOMPARE(w.selection()->link(), static_cast<int>(heatmap->order()[1]));
        shoot(w, QStringLiteral("heatmap"));
    }

    // In a narrow dock (the heatmap beside the charts) the header is read whole and the colour
    // legend sits under it; in a wide one the legend stands beside the header, never under it.
    void narrowHeatmapPutsItsLegendUnderAWholeHeader() {
        const auto fabric = loadStoreFabric(store_.toStdString());
        QVERIFY(fabric);
        HeatmapView heatmap;
        heatmap.resize(360, 420);
        const auto snapshot = withLinkRates(*fabric);
        heatmap.setSnapshot(snapshot);
        heatmap.setTime(1700000300);
        heatmap.show();
        QTRY_VERIFY_WITH_TIMEOUT(heatmap.imageReady(), 10000);
        const QImage shot = heatmap.grab().toImage();
        const QRgb background = shot.pixel(heatmap.width() - 2, 2);
        const int lineHeight = heatmap.fontMetrics().height();
        const auto inkRight = [&](int top, int bottom) {  // rightmost inked x in those rows
            int right = -1;
            for (int y = top; y < bottom; ++y)
                for (int x = 0; x < shot.width(); ++x)
                    if (shot.pixel(x, y) != background) right = std::max(right, x);
            return right;
        };
        // The first line, "96 links x 59 samples (10 s each)", ends where its whole text ends.
        const QString first = QStringLiteral("%1 links x %2 samples (%3 s each)")
                                  .arg(snapshot->fabric.links.size())
                                  .arg(snapshot->rates.bins)
                                  .arg(snapshot->rates.step);
        const int expectedRight = 8 + heatmap.fontMetrics().horizontalAdvance(first);
        QVERIFY2(std::abs(inkRight(4, 4 + lineHeight) - expectedRight) <= 3,
                 qPrintable(QStringLiteral("ink ends at %1, the whole line at %2").arg(inkRight(4, 4 + lineHeight)).arg(expectedRight)));
        // The legend: below the three lines, above the plot, with its colours drawn.
        const QRect legend = heatmap.legendRect();
        QVERIFY(heatmap.legendBelowHeader());
        QVERIFY(legend.top() >= 4 + 3 * lineHeight);
        QVERIFY(heatmap.plotRect().top() > legend.bottom());
        int coloured = 0;
        for (int y = legend.top(); y <= legend.bottom(); ++y)
            for (int x = legend.left(); x <= legend.right(); ++x) {
                const QColor c = shot.pixelColor(x, y);
                coloured += c.saturation() > 100;
            }
        QVERIFY2(coloured > 500, qPrintable(QString::number(coloured)));
        shoot(heatmap, QStringLiteral("heatmap-narrow"));

        heatmap.resize(900, 420);  // wide: beside the header, which stops short of it
        QVERIFY(!heatmap.legendBelowHeader());
        QCOMPARE(heatmap.legendRect().top(), 4);
        QVERIFY(heatmap.legendLeft() > expectedRight);
    }

    void exportingAReportFromTheMenuWritesItsSections() {
        MainWindow w;
        w.show();
        openDemo(w);
        auto* action = w.findChild<QAction*>(QStringLiteral("exportReportAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+E")));
        // The current window: the hot stretch. One note inside it, one after it.
        w.timeController()->setSelection({1700000150, 1700000400});
        std::int64_t inside = 0, outside = 0;
        {
            Store s(store_.toStdString());
            inside = addAnnotation(s, {0, 1700000160, 1700000300, "note inside the export window", "tester", 0, {}});
            outside = addAnnotation(s, {0, 1700000500, 1700000550, "note after the export window", "tester", 0, {}});
        }
        for (const QString& ext : {QStringLiteral("html"), QStringLiteral("json"), QStringLiteral("pdf")}) {
            const QString out = dir_.filePath(QStringLiteral("gui-report.") + ext);
            w.reportExporter()->setPresetPath(out);  // test hook instead of the modal file dialog
            QSignalSpy done(&w, &MainWindow::reportExported);
            QSignalSpy stages(w.reportExporter(), &ReportExporter::progress);
            action->trigger();
            QVERIFY(done.wait(60000));
            QVERIFY2(done.front().at(0).toBool(), qPrintable(done.front().at(1).toString()));
            // The dialog's bar went through the stress section's what-ifs, saying which, in order.
            QStringList whatIfs;
            int last = 0;
            for (const auto& stage : stages) {
                QVERIFY(stage.at(0).toInt() >= last);
                last = stage.at(0).toInt();
                if (stage.at(1).toString().startsWith(QStringLiteral("Single points of stress: what-if "))) {
                    QVERIFY2(last >= 15 && last <= 80, qPrintable(QString::number(last)));
                    whatIfs << stage.at(1).toString();
                }
            }
            for (const QString& end : {QStringLiteral("Single points of stress: what-if 4 of 4 (top-tier switch)…"),
                                       QStringLiteral("Single points of stress: what-if 8 of 8 (leaf uplink)…")})
                QVERIFY2(whatIfs.contains(end), qPrintable(whatIfs.join(QLatin1Char('\n'))));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            if (ext == QStringLiteral("pdf")) {  // written on the export worker, pages checked in tst_report_pdf
                QVERIFY(f.read(5) == "%PDF-");
                continue;
            }
            const QString text = QString::fromUtf8(f.readAll());
            const QStringList sections = ext == QStringLiteral("html")
                ? QStringList{QStringLiteral("id=\"summary\""), QStringLiteral("id=\"fabric\""), QStringLiteral("id=\"utilisation\""),
                              QStringLiteral("id=\"hot_links\""), QStringLiteral("id=\"findings\""), QStringLiteral("id=\"gpu_time_at_risk\""),
                              QStringLiteral("id=\"annotations\"")}
                : QStringList{QStringLiteral("\"findings\""), QStringLiteral("\"fabric\""), QStringLiteral("\"gpu_time_at_risk\""),
                              QStringLiteral("\"annotations\"")};
            for (const QString& section : sections) QVERIFY2(text.contains(section), qPrintable(ext + QLatin1Char(' ') + section));
            QVERIFY(text.contains(QStringLiteral("leaf02")));
            QVERIFY2(text.contains(QStringLiteral("note inside the export window")), qPrintable(ext));
            QVERIFY2(!text.contains(QStringLiteral("note after the export window")), qPrintable(ext));
            if (ext == QStringLiteral("json")) {
                const QJsonObject window = QJsonDocument::fromJson(text.toUtf8()).object()[QStringLiteral("window")].toObject();
                QCOMPARE(window[QStringLiteral("start")].toInteger(), 1700000150);
                QCOMPARE(window[QStringLiteral("end")].toInteger(), 1700000400);
            } else {
                QVERIFY(text.contains(QStringLiteral("2023-11-14 22:15:50 UTC to 2023-11-14 22:20:00 UTC")));
            }
        }
        {
            Store s(store_.toStdString());
            QVERIFY(removeAnnotation(s, inside) && removeAnnotation(s, outside));
        }
        // A name without a report extension is refused without writing anything.
        w.reportExporter()->setPresetPath(dir_.filePath(QStringLiteral("report.txt")));
        QSignalSpy refused(&w, &MainWindow::reportExported);
        action->trigger();
        QVERIFY(refused.count() == 1 || refused.wait(5000));
        QCOMPARE(refused.front().at(0).toBool(), false);
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("report.txt"))));
    }

    void annotationsAreDrawnOnTheTimeline() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        auto* panel = w.findChild<AnnotationsPanel*>();
        auto* scrubber = w.findChild<TimeScrubber*>();
        QVERIFY(panel && scrubber);
        QSignalSpy changed(panel, &AnnotationsPanel::annotationsChanged);
        openDemo(w);
        QVERIFY(changed.count() > 0 || changed.wait(5000));
        const QString note = QStringLiteral("maintenance on spine01 <ticket 42> & co");
        auto find = [&]() -> std::optional<AnnotationSpan> {
            for (const AnnotationSpan& a : scrubber->annotationSpans())
                if (a.note == note) return a;
            return std::nullopt;
        };
        QVERIFY(!find());
        // Add through the dock: pinned to the selected window.
        w.timeController()->setSelection({1700000400, 1700000500});
        QTest::keyClicks(panel->noteEdit(), note);
        changed.clear();
        QTest::mouseClick(panel->addButton(), Qt::LeftButton);
        QVERIFY(changed.wait(10000));
        // The scrubber names the window with its date, and both dates when it crosses a midnight.
        QLabel* windowLabel = nullptr;
        for (QLabel* l : scrubber->findChildren<QLabel*>())
            if (l->accessibleName() == QLatin1String("Analysis window")) windowLabel = l;
        QVERIFY(windowLabel);
        QCOMPARE(windowLabel->text(), QStringLiteral("Analysis window: 2023-11-14 22:20:00 – 22:21:40 UTC (100 s)"));
        QCOMPARE(utcSpanText(1700006340, 1700006460), QStringLiteral("2023-11-14 23:59:00 – 2023-11-15 00:01:00"));
        w.timeController()->clearSelection();
        const auto span = find();
        QVERIFY(span);
        QCOMPARE(span->range.start, 1700000400.0);
        QCOMPARE(span->range.end, 1700000500.0);
        // Its pixels sit where the times are, inside the bar.
        QWidget* bar = scrubber->rangeBar();
        QVERIFY(span->rect.width() > 3);
        QVERIFY(bar->rect().contains(span->rect));
        const TimeRange all = w.timeController()->span();
        QVERIFY(std::abs(span->rect.left() - all.fraction(1700000400) * (bar->width() - 1)) <= 1);
        // Hover in its middle: the note, the UTC range and the duration.
        const QPoint mid = span->rect.center();
        const QString tip = scrubber->annotationTooltipAt(mid);
        QVERIFY2(tip.contains(note) && tip.contains(QStringLiteral("2023-11-14 22:20:00 – 22:21:40 UTC")) && tip.contains(QStringLiteral("(100 s)")),
                 qPrintable(tip));
        QHelpEvent help(QEvent::ToolTip, mid, bar->mapToGlobal(mid));
        QVERIFY(QApplication::sendEvent(bar, &help));
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(note.toHtmlEscaped()), qPrintable(QToolTip::text()));
        // Off the annotation, the bar keeps its own tooltip.
        QVERIFY(scrubber->annotationTooltipAt(QPoint(span->rect.right() + 20, mid.y())).isEmpty());
        QToolTip::hideText();
        QApplication::processEvents();
        QVERIFY(saveScreenshot(scrubber->grab(), QStringLiteral("fabscope-timeline-annotation.png")));
        // Deleting it in the dock removes it from the timeline.
        int row = -1;
        for (int r = 0; r < panel->model()->rowCount(); ++r)
            if (panel->model()->index(r, AnnotationsModel::Note).data().toString() == note) row = r;
        QVERIFY(row >= 0);
        panel->table()->selectRow(row);
        changed.clear();
        panel->deleteSelected();
        QVERIFY(changed.wait(10000));
        QVERIFY(!find());
    }

    void anAddedAnnotationIsListedAndStored() {
        MainWindow w;
        w.show();
        auto* panel = w.findChild<AnnotationsPanel*>();
        QVERIFY(panel);
        QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(panel, &AnnotationsPanel::annotationsChanged);
        openDemo(w);
        QVERIFY(changed.count() > 0 || changed.wait(5000));
        const int before = panel->model()->rowCount();
        const int hot = hotLink(*w.snapshot());
        w.selection()->selectLink(hot);
        w.timeController()->setSelection({1700000200, 1700000350});
        QTest::keyClicks(panel->noteEdit(), QStringLiteral("hot uplink during job 4711 <b>&"));
        changed.clear();
        QTest::mouseClick(panel->addButton(), Qt::LeftButton);
        QVERIFY(changed.wait(10000));
        QCOMPARE(panel->model()->rowCount(), before + 1);
        int row = -1;
        for (int r = 0; r < panel->model()->rowCount(); ++r)
            if (panel->model()->index(r, AnnotationsModel::Note).data().toString() == QStringLiteral("hot uplink during job 4711 <b>&")) row = r;
        QVERIFY(row >= 0);
        const QString ports = panel->model()->index(row, AnnotationsModel::Ports).data().toString();
        QVERIFY2(ports.contains(QStringLiteral("leaf02 p9")) && ports.contains(QStringLiteral("spine01 p2")), qPrintable(ports));
        {
            const Store s(store_.toStdString(), Store::Mode::ReadOnly);
            bool found = false;
            for (const Annotation& a : annotations(s))
                if (a.note == "hot uplink during job 4711 <b>&") {
                    found = true;
                    QCOMPARE(a.start, 1700000200.0);
                    QCOMPARE(a.end, 1700000350.0);
                    QCOMPARE(a.ports.size(), std::size_t{2});
                }
            QVERIFY(found);
        }
        w.findChild<QDockWidget*>(QStringLiteral("annotationsDock"))->raise();
        QApplication::processEvents();
        shoot(w, QStringLiteral("annotations"));
        // Delete it again (keyboard: Delete on the table).
        panel->table()->selectRow(row);
        panel->table()->setFocus();
        changed.clear();
        QTest::keyClick(panel->table(), Qt::Key_Delete);
        QVERIFY(changed.wait(10000));
        QCOMPARE(panel->model()->rowCount(), before);
    }

    void aFailedImportListsItsFileLineDiagnostics() {
        QTemporaryDir tmp;
        const QString store = tmp.filePath(QStringLiteral("diag.sqlite"));
        { Store s(store.toStdString()); }
        const QString bad = tmp.filePath(QStringLiteral("bad.csv"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("timestamp,node,port,counter,value\n1700000000,leaf01,1,xmit_bytes,1\n1700000010,leaf01,1,xmit_bytes,oops\n");
        f.close();
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store);
        QVERIFY(loaded.wait(10000));
        auto* closer = new QTimer(&w);  // the failure message box is modal; close it when it shows
        connect(closer, &QTimer::timeout, [] {
            if (auto* m = QApplication::activeModalWidget()) m->close();
        });
        closer->start(50);
        QSignalSpy imported(&w, &MainWindow::importFinished);
        w.importFiles({bad});
        QVERIFY(imported.wait(20000));
        QCOMPARE(imported.front().front().toBool(), false);
        auto* panel = w.findChild<DiagnosticsPanel*>();
        QVERIFY(panel);
        QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(panel->model()->rowCount() >= 1);
        bool located = false;
        for (int r = 0; r < panel->model()->rowCount(); ++r)
            located = located || panel->model()->index(r, DiagnosticsModel::Location).data().toString() == bad + QStringLiteral(":3");
        QVERIFY(located);
    }

    void recentStoresAndTheWindowStateAreKept() {
        QSettings().clear();
        {
            MainWindow w;
            w.show();
            openDemo(w);
            QCOMPARE(w.recentStores()->paths().value(0), QFileInfo(store_).absoluteFilePath());
            w.findChild<QDockWidget*>(QStringLiteral("heatmapDock"))->hide();
            w.close();
        }
        QVERIFY(QSettings().contains(QStringLiteral("window/state")));
        MainWindow again;
        again.show();
        QVERIFY(again.findChild<QDockWidget*>(QStringLiteral("heatmapDock"))->isHidden());
        auto* recent = again.findChild<QAction*>(QStringLiteral("recentStore1"));
        QVERIFY(recent);
        QSignalSpy loaded(&again, &MainWindow::storeLoaded);
        recent->trigger();
        QVERIFY(loaded.wait(20000));
        QVERIFY(again.snapshot());
        QSettings().clear();
    }

    void everyDockHasNamesAndTheWindowScreenshot() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        openDemo(w);
        const int hot = hotLink(*w.snapshot());
        w.timeController()->setTime(1700000260);
        w.selection()->selectLink(hot);
        auto* heatmap = w.findChild<HeatmapView*>();
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->imageReady(), 10000);
        for (auto* dock : w.findChildren<QDockWidget*>()) {
            QVERIFY2(!dock->objectName().isEmpty(), qPrintable(dock->windowTitle()));
            QVERIFY2(!dock->accessibleName().isEmpty(), qPrintable(dock->windowTitle()));
        }
        QTest::qWait(300);
        shoot(w, QStringLiteral("all-docks"));
    }
};

QTEST_MAIN(TestViewPanels)
#include "tst_view_panels.moc"
