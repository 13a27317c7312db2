// What-if in the window (issue 22) on compare_fixture.h's 4-leaf, 3-spine fabric (4xHDR) with
// steady load: leaf01's uplinks carry 70 % up, every other uplink direction 50 %, and a job runs
// on gpu01 (leaf01) and gpu03 (leaf02) for 300 s. A right-click on the uplink leaf01 p20 - spine01
// p1, "What if this link fails?", predicts 70 + 70 / 2 = 105 % on its two siblings: the fabric
// draws them on the "more load" side of the diverging scale, the Prediction dock lists them
// first as turning hot (70.0 % -> 105.0 %), the job slows by max(1, 1.05) / max(1, 0.7) = 1.05 x
// and puts 0.05 x 2 GPUs x 300 s of GPU time at risk; everything says "Prediction". Esc goes back
// to the metric's colours, Ctrl+Z in the fabric brings the prediction back, and opening a store
// ends it. The expected numbers are worked out here from the fixture, not by FabScope's code.
#include "uplink_load_fixture.h"
#include "gui_fixture.h"
#include "screenshot.h"

#include "views/fabric_view.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/whatif_colouring.h"
#include "views/whatif_panel.h"

#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QWindow>
#include <QTableWidget>

#include <set>

using namespace fabscope;

namespace {

constexpr double kLeaf01Up = 0.7, kOther = 0.5;
constexpr int kIntervals = 30, kStep = 10, kRanks = 2;
constexpr double kAfter = kLeaf01Up + kLeaf01Up / 2;  // two siblings share the failed uplink's load
constexpr double kSlowdown = (kAfter > 1 ? kAfter : 1) / (kLeaf01Up > 1 ? kLeaf01Up : 1);  // 1.05
constexpr double kGpuHours = (kSlowdown - 1) * kRanks * kIntervals * kStep / 3600.0;

int linkOf(const StoreSnapshot& s, const std::string& node, const std::string& port) {
    const auto p = s.findPort(PortRef{node, {}, port});
    if (!p) return -1;
    const auto l = s.linkOf(*p);
    return l ? static_cast<int>(l->value()) : -1;
}

// The colour a person sees where the view draws a link.
QRgb pixelOf(FabricView* f, int link) {
    f->renderFrame();
    const auto at = f->pixelOfLink(link);
    if (!at) return 0;
    return f->grab().toImage().pixel(*at);
}

QString pct(double util) { return QString::number(util * 100, 'f', 1) + QStringLiteral(" %"); }

} // namespace

class TestViewWhatIf : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string db_;

    // Right-clicks `at` in the fabric and returns the menu it offers (null: none). Through the
    // window, as the platform delivers it: the window turns the press into a context-menu event.
    static QMenu* rightClick(FabricView* f, QPoint at) {
        QTest::mouseClick(f->window()->windowHandle(), Qt::RightButton, {}, f->mapTo(f->window(), at));
        if (!QTest::qWaitFor([f] { return f->findChild<QMenu*>(QStringLiteral("fabricContextMenu")) != nullptr; }, 2000)) return nullptr;
        return f->findChild<QMenu*>(QStringLiteral("fabricContextMenu"));
    }

    static QAction* entry(QMenu* menu, const QString& text) {
        for (QAction* a : menu->actions())
            if (a->text() == text) return a;
        return nullptr;
    }

    // The window shown at 1400 x 900 with the store open.
    bool showWithStore(MainWindow& w) const {
        w.resize(1400, 900);
        w.show();
        return QTest::qWaitForWindowActive(&w) && guitest::openAndWait(w, QString::fromStdString(db_));
    }

    // Clicks the menu's `action` and waits for the prediction to land; false if it failed.
    static bool predict(MainWindow& w, QMenu* menu, QAction* action) {
        QSignalSpy done(&w, &MainWindow::whatIfFinished);
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(action).center());
        return done.wait(30000) && done.front().front().toBool();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        atest::Stores stores(dir_);
        db_ = stores.make(cmpfix::fabric(false),
                          cmpfix::steadyUplinks([](int l, int) { return l == 1 ? kLeaf01Up : kOther; }, kOther, kIntervals, kStep));
        cmpfix::importFile(db_, cmpfix::twoRankJob(stores));
    }

    void failAnUplinkFromTheFabricsMenu() {
        MainWindow w;
        QVERIFY(showWithStore(w));
        auto* f = w.findChild<FabricView*>();
        const auto snap = w.snapshot();
        const int failed = linkOf(*snap, "leaf01", "20");
        const int sib1 = linkOf(*snap, "leaf01", "21"), sib2 = linkOf(*snap, "leaf01", "22");
        QVERIFY(failed >= 0 && sib1 >= 0 && sib2 >= 0);
        const QRgb metricColour = pixelOf(f, sib2);
        QCOMPARE(metricColour, f->colourScale().rgb(f->linkValue(sib2)));

        // Right-click the uplink: the menu offers the what-if; choosing it runs the prediction.
        f->renderFrame();
        const auto at = f->pixelOfLink(failed);
        QVERIFY(at);
        QCOMPARE(f->linkAt(*at), failed);
        QMenu* menu = rightClick(f, *at);
        QVERIFY(menu);
        QAction* fails = entry(menu, QStringLiteral("What if this link fails?"));
        QVERIFY(fails);
        QVERIFY(predict(w, menu, fails));
        WhatIfPanel* panel = w.whatIfPanel();
        QVERIFY(panel->active());

        // Marked as a prediction: the fabric's header, the dock and the window title.
        const CompareColouring* c = f->compareColouring();
        QVERIFY(c);
        QVERIFY2(c->header().startsWith(QLatin1String("Prediction: what if leaf01:20 fails")), qPrintable(c->header()));
        QVERIFY2(c->header().contains(QLatin1String("not a measurement")), qPrintable(c->header()));
        QVERIFY2(w.windowTitle().contains(QLatin1String("Prediction: what if leaf01:20 fails")), qPrintable(w.windowTitle()));
        QVERIFY2(panel->banner().startsWith(QLatin1String("Prediction: what if leaf01:20 fails")), qPrintable(panel->banner()));
        QVERIFY(WhatIfColouring::predictionLegendTitle().contains(QLatin1String("percentage points")));
        QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("predictionDock"))->isVisible());

        // The fabric: the siblings drawn on the "more load" side by the predicted +35 points.
        const float delta = static_cast<float>((kAfter - kLeaf01Up) * 100);
        for (int l : {sib1, sib2}) {
            const QRgb px = pixelOf(f, l);
            QVERIFY2(qRed(px) > qBlue(px) + 100 && qRed(px) > qGreen(px) + 100, qPrintable(QColor(px).name()));
            QCOMPARE(px, c->rgb(delta));
            QVERIFY(std::abs(c->delta(static_cast<std::size_t>(l)) - delta) < 0.05f);
        }
        // The failed uplink is marked (dashed) as failing.
        QVERIFY(std::any_of(c->marks().begin(), c->marks().end(), [&](const CompareColouring::Mark& m) { return m.link == failed && m.removed; }));

        // The dock: the two siblings first, turning hot, 70.0 % -> 105.0 %; nobody cut off.
        QTableWidget* links = panel->linksTable();
        QVERIFY(links->rowCount() >= 3);
        std::set<QString> hotRows;
        for (int r = 0; r < links->rowCount(); ++r)
            if (links->item(r, WhatIfPanel::Hot)->text() == QLatin1String("turns hot")) hotRows.insert(links->item(r, WhatIfPanel::Link)->text());
        QCOMPARE(hotRows, (std::set<QString>{QStringLiteral("leaf01 p21 → spine02 p1"), QStringLiteral("leaf01 p22 → spine03 p1")}));
        for (int r = 0; r < 2; ++r) {
            QVERIFY(hotRows.count(links->item(r, WhatIfPanel::Link)->text()));
            QCOMPARE(links->item(r, WhatIfPanel::Utilisation)->text(), pct(kLeaf01Up) + QStringLiteral(" → ") + pct(kAfter));
            QCOMPARE(links->item(r, WhatIfPanel::Delta)->text(), QStringLiteral("+35.0 pp"));
        }
        QCOMPARE(panel->hostsText(), QStringLiteral("Hosts cut off: none"));
        QTableWidget* jobs = panel->jobsTable();
        QCOMPARE(jobs->rowCount(), 1);
        QCOMPARE(jobs->item(0, WhatIfPanel::Slowdown)->text(), QString::number(kSlowdown, 'f', 2) + QStringLiteral(" x"));
        QCOMPARE(jobs->item(0, WhatIfPanel::GpuHours)->text(), QString::number(kGpuHours, 'g', 3) + QStringLiteral(" GPU h"));
        QVERIFY(jobs->horizontalHeaderItem(WhatIfPanel::GpuHours)->toolTip().contains(QLatin1String("GPU h")));

        // A click on the first row selects and frames its link.
        const QModelIndex first = links->model()->index(0, WhatIfPanel::Link);
        QTest::mouseClick(links->viewport(), Qt::LeftButton, {}, links->visualRect(first).center());
        const int firstLink = links->item(0, WhatIfPanel::Link)->text().contains(QLatin1String("p21")) ? sib1 : sib2;
        QCOMPARE(f->selectedLink(), firstLink);
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-whatif-uplink.png")));

        // Esc: the metric's colours again; Ctrl+Z in the fabric: the prediction again.
        // Keys reach shortcuts through the focus window, which the closed menu hands back late.
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTRY_COMPARE(QGuiApplication::focusWindow(), w.windowHandle());
        QTRY_VERIFY(!f->findChild<QMenu*>(QStringLiteral("fabricContextMenu")));
        f->setFocus();
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!panel->active());
        QVERIFY(!f->compareColouring());
        QCOMPARE(pixelOf(f, sib2), metricColour);
        QVERIFY(!w.windowTitle().contains(QLatin1String("Prediction")));
        f->setFocus();
        QTest::keyClick(f, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(panel->active());
        QVERIFY(f->compareColouring());
        QCOMPARE(pixelOf(f, sib2), f->compareColouring()->rgb(delta));
        QVERIFY(w.windowTitle().contains(QLatin1String("Prediction: what if leaf01:20 fails")));

        // Opening a store ends it.
        QVERIFY(guitest::openAndWait(w, QString::fromStdString(db_)));
        QVERIFY(!panel->active() && !panel->result());
        QVERIFY(!f->compareColouring());
    }

    void failASpineFromTheFabricsMenu() {
        MainWindow w;
        QVERIFY(showWithStore(w));
        auto* f = w.findChild<FabricView*>();
        const auto snap = w.snapshot();
        f->renderFrame();
        const auto spine = f->nodePosition(static_cast<int>(snap->nodeByName.at("spine01")));
        QVERIFY(spine);
        QMenu* menu = rightClick(f, spine->toPoint());
        QVERIFY(menu);
        QVERIFY(!entry(menu, QStringLiteral("What if this link fails?")));
        QAction* fails = entry(menu, QStringLiteral("What if this switch fails?"));
        QVERIFY(fails);
        QVERIFY(predict(w, menu, fails));
        QVERIFY(w.whatIfPanel()->active());
        QVERIFY2(f->compareColouring()->header().startsWith(QLatin1String("Prediction: what if spine01 fails")), qPrintable(f->compareColouring()->header()));
        // Every uplink into spine01 fails; leaf01's others take its 70 % as before.
        for (int l = 1; l <= 4; ++l) {
            const int up = linkOf(*snap, "leaf0" + std::to_string(l), "20");
            QVERIFY(std::any_of(f->compareColouring()->marks().begin(), f->compareColouring()->marks().end(),
                                [&](const CompareColouring::Mark& m) { return m.link == up && m.removed; }));
        }
        QCOMPARE(w.whatIfPanel()->linksTable()->item(0, WhatIfPanel::Utilisation)->text(), pct(kLeaf01Up) + QStringLiteral(" → ") + pct(kAfter));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-whatif-spine.png")));
    }

    // A 4x link at 1x keeps its load on a quarter of the capacity: leaf02's 50 % uplink at 200 %.
    void degradeAnUplinkToOneLane() {
        MainWindow w;
        QVERIFY(showWithStore(w));
        auto* f = w.findChild<FabricView*>();
        const int link = linkOf(*w.snapshot(), "leaf02", "20");
        f->renderFrame();
        const auto at = f->pixelOfLink(link);
        QVERIFY(at);
        QMenu* menu = rightClick(f, *at);
        QVERIFY(menu);
        QAction* degrade = entry(menu, QStringLiteral("What if this link runs at 1x?"));
        QVERIFY(degrade);
        QVERIFY(predict(w, menu, degrade));
        QVERIFY(w.whatIfPanel()->active());
        const QString header = f->compareColouring()->header();
        QVERIFY2(header.startsWith(QLatin1String("Prediction: what if leaf02:20 runs at 1xHDR")), qPrintable(header));
        QTableWidget* links = w.whatIfPanel()->linksTable();
        QVERIFY(links->rowCount() >= 2);
        for (int r = 0; r < 2; ++r) {  // both directions, hot
            QCOMPARE(links->item(r, WhatIfPanel::Utilisation)->text(), pct(kOther) + QStringLiteral(" → ") + pct(kOther * 4));
            QCOMPARE(links->item(r, WhatIfPanel::Hot)->text(), QStringLiteral("turns hot"));
        }
        const QRgb px = pixelOf(f, link);
        QVERIFY2(qRed(px) > qBlue(px) + 100, qPrintable(QColor(px).name()));
    }
};

QTEST_MAIN(TestViewWhatIf)
#include "tst_view_whatif.moc"
