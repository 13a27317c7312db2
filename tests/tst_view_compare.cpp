// Compare mode in the window (issue 19) on compare_fixture.h's runs: File > Compare… against the
// good store (and two windows of one store) lists the downed uplink, the 1x link and the job
// first in the Changes dock; the fabric is coloured by Δ p95 utilisation (a sibling uplink that
// took the downed one's load on the "more" side, an unchanged link neutral grey, the legend in
// percentage points); a click on a change selects and frames its link and charts its good and
// bad windows side by side; Esc leaves compare mode (normal colours back) and Ctrl+Shift+B
// returns to it.
#include "compare_fixture.h"
#include "gui_fixture.h"
#include "screenshot.h"

#include "core/analysis/port_ref.h"
#include "views/compare_charts.h"
#include "views/compare_colouring.h"
#include "views/compare_dialog.h"
#include "views/compare_panel.h"
#include "views/fabric_view.h"
#include "views/heatmap_view.h"
#include "views/inspector_panel.h"
#include "views/time_controller.h"
#include "views/link_charts_panel.h"
#include "core/report/compare_document.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_chart_view.h"
#include "views/utc_text.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTableView>
#include <QtCharts/QLineSeries>

#include <set>

using namespace fabscope;

namespace {

int linkOf(const StoreSnapshot& s, const std::string& node, const std::string& port) {
    const auto p = s.findPort(PortRef{node, {}, port});
    if (!p) return -1;
    const auto l = s.linkOf(*p);
    return l ? static_cast<int>(l->value()) : -1;
}

int nodeOf(const StoreSnapshot& s, const std::string& name) {
    const auto it = s.nodeByName.find(name);
    return it == s.nodeByName.end() ? -1 : static_cast<int>(it->second);
}

// The row of the Changes table whose Where column contains `text`.
int rowWhere(QTableView* table, const QString& text) {
    for (int r = 0; r < table->model()->rowCount(); ++r)
        if (table->model()->index(r, ComparePanel::Where).data().toString().contains(text)) return r;
    return -1;
}

void clickRow(QTableView* table, int row) {
    const QModelIndex index = table->model()->index(row, ComparePanel::Where);
    table->scrollTo(index);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
}

// The colour a person sees where the view draws a link.
QRgb pixelOf(FabricView* f, int link) {
    f->renderFrame();
    const auto at = f->pixelOfLink(link);
    if (!at) return 0;
    return f->grab().toImage().pixel(*at);
}

// Pixels of the heatmap's mode note (its red text) over the plot's foot.
int noteInk(HeatmapView* h) {
    const QImage shot = h->grab().toImage();
    const QRect top = h->plotRect().adjusted(0, std::max(0, h->plotRect().height() - 80), 0, 0);
    int n = 0;
    for (int y = top.top(); y <= top.bottom(); ++y)
        for (int x = top.left(); x <= top.right(); ++x) n += (shot.pixel(x, y) & 0xFFFFFFu) == (qRgb(170, 20, 30) & 0xFFFFFFu);
    return n;
}

// Pixels of either line's pen colour in the plot's column at time t (UNIX seconds).
int lineInkAt(QChartView* view, QLineSeries* a, QLineSeries* b, double t) {
    const QImage image = view->grab().toImage();
    const int x = view->mapFromScene(view->chart()->mapToPosition(QPointF(t * 1000, 50), a)).x();
    const QRectF plot = view->chart()->plotArea();
    int n = 0;
    for (int y = view->mapFromScene(plot.topLeft()).y(); y < view->mapFromScene(plot.bottomLeft()).y(); ++y) {
        const QColor c = image.pixelColor(x, y);
        for (const QLineSeries* s : {a, b}) {
            const QColor pen = s->pen().color();
            n += std::abs(c.red() - pen.red()) + std::abs(c.green() - pen.green()) + std::abs(c.blue() - pen.blue()) < 60;
        }
    }
    return n;
}

} // namespace

class TestViewCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    cmpfix::Stores2 stores_;

    // File > Compare… (Ctrl+Shift+C) as a person drives it; `setUp` fills the dialog.
    template <typename SetUp>
    void compareThroughDialog(MainWindow& w, SetUp setUp) {
        QSignalSpy done(&w, &MainWindow::compareFinished);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        auto* dialog = w.findChild<CompareDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        setUp(*dialog);
        QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
        auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(ok->isEnabled());
        QTest::mouseClick(ok, Qt::LeftButton);
        QVERIFY(done.wait(60000));
        QCOMPARE(done.front().front().toBool(), true);
    }

    // The first three changes are the downed uplink, the 1x link and the job.
    static void checkTopRows(QTableView* table) {
        QVERIFY(table->model()->rowCount() >= 3);
        std::multiset<QString> kinds;
        QString where;
        for (int r = 0; r < 3; ++r) {
            kinds.insert(table->model()->index(r, ComparePanel::Kind).data().toString());
            where += table->model()->index(r, ComparePanel::Where).data().toString() + QLatin1Char('|');
            QCOMPARE(table->model()->index(r, ComparePanel::Rank).data().toInt(), r + 1);
        }
        QCOMPARE(kinds, (std::multiset<QString>{QStringLiteral("job"), QStringLiteral("topology"), QStringLiteral("topology")}));
        QVERIFY2(where.contains(QLatin1String("leaf01 p20")) && where.contains(QLatin1String("spine01 p1")), qPrintable(where));
        QVERIFY2(where.contains(QLatin1String("leaf03 p21")) && where.contains(QLatin1String("spine02 p3")), qPrintable(where));
    }

private Q_SLOTS:
    void initTestCase() {
        atest::Stores stores(dir_);
        stores_ = cmpfix::make(stores);
    }

    void twoStoresColourListSelectAndLeave() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(stores_.bad)));
        compareThroughDialog(w, [&](CompareDialog& d) { d.useOtherStore(QString::fromStdString(stores_.good), true); });
        ComparePanel* panel = w.comparePanel();
        QVERIFY(panel->active());
        QAbstractItemModelTester tester(panel->table()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Labelled: "Compare: good <store> <window> vs bad <store> <window>", in the dock and the title.
        const QString good = QFileInfo(QString::fromStdString(stores_.good)).fileName(), bad = QFileInfo(QString::fromStdString(stores_.bad)).fileName();
        QVERIFY2(panel->banner().startsWith(QStringLiteral("Compare: good ") + good) && panel->banner().contains(QStringLiteral(" vs bad ") + bad) &&
                     panel->banner().contains(QLatin1String("UTC")),
                 qPrintable(panel->banner()));
        QVERIFY(w.windowTitle().contains(QLatin1String("Compare: good")));
        QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("changesDock"))->isVisible());
        checkTopRows(panel->table());

        // The fabric: Δ p95 utilisation, bad − good.
        auto* f = w.findChild<FabricView*>();
        const auto snap = w.snapshot();
        const CompareColouring* c = f->compareColouring();
        QVERIFY(c);
        QVERIFY(CompareColouring::legendTitle().contains(QLatin1String("percentage points")));
        const int sibling = linkOf(*snap, "leaf01", "21"), unchanged = linkOf(*snap, "leaf02", "20"), oneX = linkOf(*snap, "leaf03", "21");
        const int goodOnly = linkOf(*snap, "leaf04", "22");
        QVERIFY(sibling >= 0 && unchanged >= 0 && oneX >= 0 && goodOnly >= 0);
        QCOMPARE(linkOf(*snap, "leaf01", "20"), -1);  // the downed uplink is not in the bad topology
        QVERIFY2(std::abs(c->delta(static_cast<std::size_t>(sibling)) - 22.5f) < 3, qPrintable(QString::number(c->delta(sibling))));
        QCOMPARE(c->delta(static_cast<std::size_t>(unchanged)), 0.0f);
        QVERIFY(c->delta(static_cast<std::size_t>(oneX)) > 40);
        QVERIFY(std::isnan(c->delta(static_cast<std::size_t>(goodOnly))));  // counters in the good run only: no data, not 0
        const QRgb rose = pixelOf(f, sibling), same = pixelOf(f, unchanged);
        QVERIFY2(qRed(rose) > qBlue(rose) + 60 && qRed(rose) > qGreen(rose) + 40,
                 qPrintable(QStringLiteral("sibling uplink %1").arg(rose, 0, 16)));  // the "more load" side
        QCOMPARE(same & 0xFFFFFFu, CompareColouring::neutral() & 0xFFFFFFu);
        // One convention with the comparison report: its "more load" and "less load" are these colours.
        QCOMPARE(QColor(CompareColouring::more()).name(), QString::fromLatin1(comparecolour::kLoadUp));
        QCOMPARE(QColor(CompareColouring::less()).name(), QString::fromLatin1(comparecolour::kLoadDown));
        QCOMPARE(QColor(CompareColouring::removed()).name(), QString::fromLatin1(comparecolour::kRemoved));
        // The heatmap stays per run and says which: the bad run, not the change.
        auto* heatmap = w.findChild<HeatmapView*>();
        QVERIFY2(heatmap->modeNote().contains(QLatin1String("bad run only, not the change")), qPrintable(heatmap->modeNote()));
        QVERIFY2(noteInk(heatmap) > 20, qPrintable(QString::number(noteInk(heatmap))));  // on screen, even in a narrow dock
        QCOMPARE(pixelOf(f, goodOnly) & 0xFFFFFFu, CompareColouring::noData() & 0xFFFFFFu);
        // Topology marks: the downed uplink between its two switches, the 1x link labelled.
        bool removed = false, narrowed = false;
        for (const auto& m : c->marks()) {
            removed = removed || (m.removed && std::set<int>{m.nodeA, m.nodeB} == std::set<int>{nodeOf(*snap, "leaf01"), nodeOf(*snap, "spine01")});
            narrowed = narrowed || (m.link == oneX && m.label.startsWith(QLatin1String("1x")));
        }
        QVERIFY(removed);
        QVERIFY(narrowed);
        QVERIFY(f->tooltipAt(QPointF(*f->pixelOfLink(sibling))).contains(QLatin1String(" pp")));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-compare-two-stores.png")));

        // A click on the 1x link's change selects it, frames it and charts both windows.
        QTableView* table = panel->table();
        clickRow(table, rowWhere(table, QStringLiteral("leaf03 p21")));
        QCOMPARE(w.selection()->link(), oneX);
        QCOMPARE(f->selectedLink(), oneX);
        QVERIFY(f->zoom() > 1.01);
        for (const char* n : {"leaf03", "spine02"}) {
            const auto at = f->nodePosition(nodeOf(*snap, n));
            QVERIFY(at && f->rect().contains(at->toPoint()));
        }
        auto* stack = w.findChild<QStackedWidget*>(QStringLiteral("linkChartsStack"));
        CompareCharts* charts = w.compareCharts();
        QCOMPARE(stack->currentWidget(), charts);
        for (int side = 0; side < 2; ++side) {
            QVERIFY(charts->series(side, 0)->count() > 0);
            QVERIFY(charts->view(side)->emptyText().isEmpty());
            QVERIFY2(charts->title(side)->text().contains(QLatin1String("UTC")), qPrintable(charts->title(side)->text()));
        }
        QVERIFY(charts->title(0)->text().contains(good) && charts->title(1)->text().contains(bad));
        // The 1x link runs at 95 % in the bad run, 45 % in the good one.
        auto peak = [](QLineSeries* s) {
            double p = 0;
            for (const QPointF& pt : s->points()) p = std::max(p, pt.y());
            return p;
        };
        QVERIFY2(peak(charts->series(1, 0)) > 85 && peak(charts->series(0, 0)) < 55,
                 qPrintable(QStringLiteral("%1 %2").arg(peak(charts->series(0, 0))).arg(peak(charts->series(1, 0)))));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-compare-1x-selected.png")));

        // The downed uplink: not in the bad topology, so its two ends are framed and ringed and
        // the bad side says why it has no chart.
        clickRow(table, rowWhere(table, QStringLiteral("leaf01 p20")));
        QCOMPARE(w.selection()->link(), -1);
        const auto& ringed = f->findingOverlay().nodes;
        QVERIFY(std::find(ringed.begin(), ringed.end(), static_cast<std::uint32_t>(nodeOf(*snap, "leaf01"))) != ringed.end());
        QVERIFY(std::find(ringed.begin(), ringed.end(), static_cast<std::uint32_t>(nodeOf(*snap, "spine01"))) != ringed.end());
        QVERIFY(charts->series(0, 0)->count() > 0);
        QVERIFY2(charts->view(1)->emptyText().contains(QLatin1String("not in the bad run")), qPrintable(charts->view(1)->emptyText()));

        // Esc leaves compare mode: the metric's colours, the link charts and the title are back.
        // The hidden Compare dialog hands the keyboard back to the window (asynchronously): keys
        // reach shortcuts through the focus window.
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTRY_COMPARE(QGuiApplication::focusWindow(), w.windowHandle());
        f->setFocus();
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!panel->active());
        QVERIFY(!f->compareColouring());
        QCOMPARE(stack->currentIndex(), 0);
        QVERIFY(!w.windowTitle().contains(QLatin1String("Compare")));
        QVERIFY(w.findChild<HeatmapView*>()->modeNote().isEmpty());
        QCOMPARE(noteInk(w.findChild<HeatmapView*>()), 0);
        QCOMPARE(pixelOf(f, sibling) & 0xFFFFFFu, f->colourScale().rgb(f->linkValue(sibling)) & 0xFFFFFFu);
        QVERIFY(pixelOf(f, unchanged) != CompareColouring::neutral());
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-compare-left.png")));
        // ... and Esc is the time scrubber's Clear window again.
        auto* clear = w.findChild<QAction*>(QStringLiteral("Clear window"));
        QVERIFY(clear && clear->isEnabled());
        // Leaving is undoable: Ctrl+Shift+B shows the same comparison again.
        QTest::keyClick(&w, Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(panel->active());
        QVERIFY(f->compareColouring());
        QVERIFY(!clear->isEnabled());  // Esc leaves compare mode while it is on
        QCOMPARE(pixelOf(f, unchanged) & 0xFFFFFFu, CompareColouring::neutral() & 0xFFFFFFu);
        QVERIFY(qRed(pixelOf(f, sibling)) > qBlue(pixelOf(f, sibling)) + 60);
        QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("leaveCompareButton")), Qt::LeftButton);
        QVERIFY(!f->compareColouring());
    }

    // Two windows of one store: the dialog's default windows are the halves of the store's span
    // (the good run, then the bad one).
    // Two ibdiagnet runs of one fabric: the copper cable on switch A's port 2 was swapped. The
    // fabric marks that link "module replaced" (not "moved"), and the changes list names it.
    void aSwappedModuleIsMarkedOnItsLink() {
        const QString run = dir_.filePath(QStringLiteral("swapped-run"));
        QVERIFY(QDir().mkpath(run));
        for (const char* name : {"ibdiagnet2.db_csv", "ibdiagnet2.cables"}) {
            QFile in(QStringLiteral(FABSCOPE_TEST_DATA "/ibdiagnet2-run/") + QLatin1String(name));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QFile out(run + QLatin1Char('/') + QLatin1String(name));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(in.readAll().replace("2025-03-31 23:43:18", "2025-04-07 23:43:18").replace("SN: AD25020002", "SN: AD25020099"));
        }
        const QString good = dir_.filePath(QStringLiteral("run-good.sqlite")), bad = dir_.filePath(QStringLiteral("run-swapped.sqlite"));
        ImporterRegistry reg;
        {
            Store g(good.toStdString()), b(bad.toStdString());
            QVERIFY(!ImportRunner(g, reg).run({std::string(FABSCOPE_TEST_DATA) + "/ibdiagnet2-run/"}, {}).anyFailed());
            QVERIFY(!ImportRunner(b, reg).run({run.toStdString()}, {}).anyFailed());
        }
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, bad));
        compareThroughDialog(w, [&](CompareDialog& d) { d.useOtherStore(good, true); });
        ComparePanel* panel = w.comparePanel();
        QVERIFY(panel->active());
        QCOMPARE(panel->table()->model()->rowCount(), 1);
        QVERIFY2(panel->table()->model()->index(0, ComparePanel::Kind).data().toString().contains(QLatin1String("topology")),
                 qPrintable(panel->table()->model()->index(0, ComparePanel::Kind).data().toString()));
        const CompareColouring* c = w.findChild<FabricView*>()->compareColouring();
        QVERIFY(c);
        QCOMPARE(c->marks().size(), std::size_t{1});
        const auto snap = w.snapshot();
        const auto port2 = snap->findPort(PortRef{"", "0xb0cf0e0300d33fc0", "2"});
        QVERIFY(port2);
        QCOMPARE(c->marks().front().link, static_cast<int>(snap->linkOf(*port2)->value()));
        QCOMPARE(c->marks().front().label, QStringLiteral("module replaced"));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-compare-module-replaced.png")));
    }

    // The uplink ran at 200 Gb/s in the good run's snapshot and at 50 Gb/s in the bad run's: its
    // chart reads 45 % before the swap (not 180 % of 50 Gb/s) and its title says when it changed.
    void aLinkWhoseSpeedChangedIsChartedAgainstTheSpeedThen() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(stores_.one)));
        auto* charts = w.findChild<LinkChartsPanel*>();
        QVERIFY(charts);
        const auto snap = w.snapshot();
        auto linkAt = [&](const char* node, const char* port) {
            const auto p = snap->findPort(PortRef{node, "", port});
            return p ? static_cast<int>(snap->linkOf(*p)->value()) : -1;
        };
        const int swapped = linkAt("leaf03", "21");
        QVERIFY(swapped >= 0);
        w.selection()->selectLink(swapped);
        QCOMPARE(charts->link(), swapped);
        auto* title = charts->findChild<QLabel*>(QStringLiteral("linkChartsTitle"));
        QVERIFY(title);
        const QString changed = QStringLiteral("up 200 Gb/s, then 50 Gb/s from %1 UTC").arg(utcText(cmpfix::kBadSnapshot));
        QVERIFY2(title->text().contains(changed), qPrintable(title->text()));
        QCoreApplication::processEvents();  // the layout gives the title its second line
        QVERIFY2(title->height() >= title->heightForWidth(title->width()), qPrintable(QString::number(title->height())));
        double goodPeak = 0, badPeak = 0;
        const QLineSeries* up = charts->utilisationSeries(0);
        for (const QPointF& p : up->points()) {
            const double t = p.x() / 1000;  // ms since the epoch
            if (t >= cmpfix::kGoodFrom && t <= cmpfix::kGoodTo) goodPeak = std::max(goodPeak, p.y());
            if (t >= cmpfix::kBadFrom && t <= cmpfix::kBadTo) badPeak = std::max(badPeak, p.y());
        }
        QVERIFY2(goodPeak > 40 && goodPeak < 50, qPrintable(QString::number(goodPeak)));
        QVERIFY2(badPeak > 90 && badPeak < 100, qPrintable(QString::number(badPeak)));
        // No line crosses the 50 minutes between the runs, where nothing was measured.
        auto inkAt = [&](double t) {
            return lineInkAt(charts->utilisationView(), charts->utilisationSeries(0), charts->utilisationSeries(1), t);
        };
        QVERIFY(inkAt(cmpfix::kGoodFrom + 200) > 0);
        QCOMPARE(inkAt((cmpfix::kGoodTo + cmpfix::kBadFrom) / 2), 0);
        // The inspector gives the capacity at the cursor beside the rates it divides.
        auto* inspector = w.findChild<InspectorPanel*>();
        QVERIFY(inspector);
        w.timeController()->setTime(cmpfix::kGoodFrom + 300);
        QVERIFY2(inspector->text().contains(QStringLiteral("Capacity at the cursor: 200 Gb/s")), qPrintable(inspector->text()));
        QVERIFY2(inspector->text().contains(QRegularExpression(QStringLiteral("Utilisation up \\(towards the spine\\): 4\\d"))), qPrintable(inspector->text()));
        // So does the fabric's tooltip over the link.
        auto* fabric = w.findChild<FabricView*>();
        const Fabric& f = snap->fabric;
        const Link& l = f.links[static_cast<std::size_t>(swapped)];
        const auto a = fabric->nodePosition(static_cast<int>(f.port(l.a).node.value()));
        const auto b = fabric->nodePosition(static_cast<int>(f.port(l.b).node.value()));
        QVERIFY(a && b);
        const QPointF mid = (*a + *b) / 2;
        QTRY_COMPARE(fabric->linkAt(mid), swapped);  // once the frame is drawn (off the GUI thread)
        QVERIFY2(fabric->tooltipAt(mid).contains(QStringLiteral("200 Gb/s at the cursor")), qPrintable(fabric->tooltipAt(mid)));
        w.timeController()->setTime(cmpfix::kBadFrom + 300);
        QVERIFY2(inspector->text().contains(QStringLiteral("Capacity at the cursor: 50 Gb/s")), qPrintable(inspector->text()));
        QVERIFY2(fabric->tooltipAt(mid).contains(QStringLiteral("50 Gb/s at the cursor")), qPrintable(fabric->tooltipAt(mid)));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-speed-changed-link.png")));
        // A link whose speed never changed says nothing of it.
        w.selection()->selectLink(linkAt("leaf02", "21"));
        QVERIFY2(!title->text().contains(QLatin1String("Speed changed")), qPrintable(title->text()));
        QVERIFY2(!inspector->text().contains(QLatin1String("Capacity at the cursor")), qPrintable(inspector->text()));
    }

    // A compare window over the 50 minutes between the runs charts the two runs apart: no line
    // across the hour nobody measured.
    void aWindowOverTheGapBetweenRunsIsChartedBrokenThere() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(stores_.one)));
        compareThroughDialog(w, [&](CompareDialog& d) {
            d.findChild<QRadioButton*>(QStringLiteral("compareWindowMode"))->setChecked(true);
            auto at = [&](const char* name, double t) {
                d.findChild<QDateTimeEdit*>(QLatin1String(name))->setDateTime(QDateTime::fromSecsSinceEpoch(static_cast<qint64>(t), Qt::UTC));
            };
            at("compareGoodFrom", cmpfix::kGoodFrom);
            at("compareGoodTo", cmpfix::kBadTo);
            at("compareBadFrom", cmpfix::kBadFrom);
            at("compareBadTo", cmpfix::kBadTo);
        });
        const auto snap = w.snapshot();
        w.selection()->selectLink(linkOf(*snap, "leaf01", "22"));
        CompareCharts* charts = w.compareCharts();
        QCoreApplication::processEvents();
        auto inkAt = [&](int side, double t) { return lineInkAt(charts->view(side), charts->series(side, 0), charts->series(side, 1), t); };
        QVERIFY(inkAt(0, cmpfix::kGoodFrom + 300) > 0);
        QVERIFY(inkAt(0, cmpfix::kBadFrom + 300) > 0);
        QCOMPARE(inkAt(0, (cmpfix::kGoodTo + cmpfix::kBadFrom) / 2), 0);
        QVERIFY(inkAt(1, cmpfix::kBadFrom + 300) > 0);
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-compare-window-over-gap.png")));
    }

    void twoWindowsOfOneStore() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(stores_.one)));
        compareThroughDialog(w, [&](CompareDialog& d) {
            d.findChild<QRadioButton*>(QStringLiteral("compareWindowMode"))->setChecked(true);
            const CompareRequest r = d.request();
            QCOMPARE(r.goodStore, stores_.one);
            QCOMPARE(r.badStore, stores_.one);
            QCOMPARE(*r.goodWindow.from, cmpfix::kGoodFrom);
            QCOMPARE(*r.badWindow.to, cmpfix::kBadTo);
            QVERIFY(*r.goodWindow.to <= cmpfix::kBadFrom && *r.goodWindow.to >= cmpfix::kGoodTo);
        });
        ComparePanel* panel = w.comparePanel();
        checkTopRows(panel->table());
        auto* f = w.findChild<FabricView*>();
        const auto snap = w.snapshot();
        const int sibling = linkOf(*snap, "leaf01", "22");
        QVERIFY(sibling >= 0);
        const QRgb rose = pixelOf(f, sibling);
        QVERIFY2(qRed(rose) > qBlue(rose) + 60, qPrintable(QString::number(rose, 16)));
        QCOMPARE(pixelOf(f, linkOf(*snap, "leaf04", "20")) & 0xFFFFFFu, CompareColouring::neutral() & 0xFFFFFFu);
        // Selecting the sibling in the fabric charts it in both windows of the one store.
        w.selection()->selectLink(sibling);
        CompareCharts* charts = w.compareCharts();
        for (int side = 0; side < 2; ++side) QVERIFY(charts->series(side, 0)->count() > 0);
        const double goodLast = charts->series(0, 0)->points().back().x() / 1000, badFirst = charts->series(1, 0)->points().front().x() / 1000;
        QVERIFY2(goodLast <= cmpfix::kGoodTo + 10 && badFirst >= cmpfix::kBadFrom - 10, qPrintable(QStringLiteral("%1 %2").arg(goodLast).arg(badFirst)));
        // The heatmap shows the one store over both windows, and says so (not "the bad run only").
        auto* heatmap = w.findChild<HeatmapView*>();
        const QString note = heatmap->modeNote();
        QVERIFY2(note.contains(QLatin1String("both windows")), qPrintable(note));
        const QRect plot = heatmap->plotRect();
        for (const double t : {cmpfix::kGoodFrom, cmpfix::kBadTo - 10})
            QVERIFY2(heatmap->xOfTime(t) >= plot.left() && heatmap->xOfTime(t) <= plot.right(), qPrintable(QString::number(t)));
        // Both windows are marked on the heatmap's time axis, in their colours, labelled.
        const auto& marked = heatmap->markedWindows();
        QCOMPARE(marked.size(), std::size_t{2});
        QCOMPARE(marked[0].label, QStringLiteral("good"));
        QCOMPARE(marked[1].label, QStringLiteral("bad"));
        const QImage shown = heatmap->grab().toImage();
        for (const auto& m : marked) {
            const int x = (heatmap->xOfTime(m.from) + std::min(plot.right(), heatmap->xOfTime(m.to))) / 2;
            QCOMPARE(QColor(shown.pixel(x, plot.top() - 3)), m.colour);  // the strip above the plot
            const QRect label = heatmap->markedLabelRect(m);
            QVERIFY(plot.contains(label));
            QVERIFY(QColor(shown.pixel(label.left() + 1, label.top() + 1)).lightness() > 230);  // the label's near-white box
        }
        QVERIFY(!heatmap->markedLabelRect(marked[0]).intersects(heatmap->markedLabelRect(marked[1])));
        // Hovering a label gives its window in UTC, as the Changes dock's title does.
        const QString goodTip = heatmap->tooltipAt(heatmap->markedLabelRect(marked[0]).center());
        QVERIFY2(goodTip.contains(QLatin1String("<b>good</b> window: 2023-11-14 22:13:20")) && goodTip.endsWith(QLatin1String("22:48:20 UTC")),
                 qPrintable(goodTip));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-compare-two-windows.png")));
        // Opening another store leaves compare mode for good: nothing to go back to.
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(stores_.good), false));
        QVERIFY(heatmap->markedWindows().empty());
        QVERIFY(!panel->active());
        QVERIFY(!panel->result());
        QVERIFY(!w.findChild<QAction*>(QStringLiteral("backToCompareAction"))->isEnabled());
        QVERIFY(!f->compareColouring());
    }
};

QTEST_MAIN(TestViewCompare)
#include "tst_view_compare.moc"
