// The fabric view on a real Selene-size topology (1,400 nodes, 3,300 links), its row labels, and the per-pixel
// helpers it and the heatmap rely on.
#include "screenshot.h"
#include "core/timeseries/pixel_aggregate.h"
#include "importers/import_runner.h"
#include "views/fabric_layout.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

using namespace fabscope;

class TestViewFabric : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<const StoreSnapshot> selene_;

private Q_SLOTS:
    void initTestCase() {
        const std::string store = dir_.filePath(QStringLiteral("selene.sqlite")).toStdString();
        Store s(store);
        ImporterRegistry reg;
        const auto summary = ImportRunner(s, reg).run({std::string(FABSCOPE_TEST_DATA) + "/ibnetdiscover/selene-storage.txt"}, {});
        QVERIFY(!summary.anyFailed());
        selene_ = loadStoreSnapshot(store);
        QVERIFY(selene_->fabric.nodes.size() > 1300);
        QVERIFY(selene_->fabric.links.size() > 3000);
    }

    void hostsSitUnderTheirLeaf() {
        const FabricLayout L = layoutFatTree(selene_->fabric, selene_->tiers);
        const auto& f = selene_->fabric;
        int checked = 0;
        for (const Link& l : f.links) {
            const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
            for (auto [host, leaf] : {std::pair{a, b}, std::pair{b, a}})
                if (selene_->tiers[host] == 0 && selene_->tiers[leaf] == 1 && L.groupOfHost[host] != UINT32_MAX &&
                    L.groupLeaf[L.groupOfHost[host] - L.nodeCount] == leaf) {
                    // A host is within its leaf's block: no further than the block's half width.
                    QVERIFY(std::abs(L.x[host] - L.x[leaf]) <= L.groupSize[L.groupOfHost[host] - L.nodeCount] / 2.0 + 0.01);
                    ++checked;
                }
        }
        QVERIFY(checked > 1000);
        // Every link is drawn at both levels of detail, folded into fewer edges.
        QVERIFY(L.edgesFolded.size() < L.edgesUnfolded.size());
        for (auto e : L.edgeOfLinkFolded) QVERIFY(e != UINT32_MAX);
    }

    // The file names its switches by role: 64 leaves "SLGnn-mm" (60 with hosts; SLG03-09..12 have
    // none), 64 spines "SSPINEn-mm", 32 cores "SCOREn-mmm". Three switch tiers, each role in its
    // own: the host-less leaves used to sit with the cores, a hop above the spines.
    void seleneSwitchesSitInTheTierOfTheirName() {
        const auto& f = selene_->fabric;
        const FabricLayout L = layoutFatTree(f, selene_->tiers);
        QCOMPARE(L.maxTier, 3);
        std::map<QString, std::map<int, int>> tiersOfRole;  // role -> tier -> switches
        for (std::size_t i = 0; i < f.nodes.size(); ++i) {
            if (f.nodes[i].type != NodeType::Switch) continue;
            const QString d = QString::fromStdString(f.nodes[i].description);
            const QString role = d.contains(QStringLiteral(";SLG")) ? QStringLiteral("leaf")
                                 : d.contains(QStringLiteral(";SSPINE")) ? QStringLiteral("spine")
                                 : d.contains(QStringLiteral(";SCORE")) ? QStringLiteral("core") : d;
            ++tiersOfRole[role][selene_->tiers[i]];
        }
        QCOMPARE(tiersOfRole.size(), std::size_t(3));
        QCOMPARE(tiersOfRole[QStringLiteral("leaf")], (std::map<int, int>{{1, 64}}));
        QCOMPARE(tiersOfRole[QStringLiteral("spine")], (std::map<int, int>{{2, 64}}));
        QCOMPARE(tiersOfRole[QStringLiteral("core")], (std::map<int, int>{{3, 32}}));
    }

    void seleneFitsFoldsAndUnfoldsAndStaysFast() {
        FabricView view;
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(selene_);
        view.renderFrame();
        QVERIFY(view.hostsFolded());  // ~2,500 host slots do not fit 1,600 px
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-selene-fit.png")));

        // Zooming in on a point (wheel) unfolds the hosts.
        QSignalSpy changed(&view, &FabricView::viewChanged);
        for (int i = 0; i < 12; ++i) {
            QWheelEvent wheel(QPointF(800, 450), view.mapToGlobal(QPointF(800, 450)), {}, QPoint(0, 120), Qt::NoButton, {},
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(&view, &wheel);
        }
        QCOMPARE(changed.count(), 12);
        QVERIFY(view.zoom() > 10);
        QVERIFY(!view.hostsFolded());
        view.renderFrame();
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-selene-zoomed.png")));
        // Fit again with the keyboard.
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_0);
        QVERIFY(std::abs(view.zoom() - 1) < 1e-9);

        // (The pan frame's cost is measured in bench/bench_views.cpp, not asserted here.)
    }

    void panningRendersOffTheGuiThreadAndDropsStaleFrames() {
        FabricView view;
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(selene_);
        QSignalSpy ready(&view, &FabricView::frameReady);
        QVERIFY(ready.wait(10000));  // the first frame comes from the worker too
        QVERIFY(view.frameIsCurrent());
        // A burst of pans: each paint shows the previous frame moved (no geometry on the GUI thread);
        // frames started for superseded views are dropped, the last one lands.
        for (int i = 0; i < 10; ++i) {
            view.panBy(25);
            view.repaint();
        }
        QVERIFY(!view.frameIsCurrent());
        QTRY_VERIFY_WITH_TIMEOUT(view.frameIsCurrent(), 10000);
        QVERIFY2(view.droppedFrames() >= 1, qPrintable(QString::number(view.droppedFrames())));
        qInfo("selene: geometry %.1f ms on the worker, %d stale frames dropped", view.lastFrameCost().geometryMs, view.droppedFrames());
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-selene-panned.png")));
    }

    void clickingASwitchSelectsIt() {
        FabricView view;
        view.resize(1600, 900);
        view.show();
        view.setSnapshot(selene_);
        view.renderFrame();
        int sw = -1;
        for (std::size_t i = 0; i < selene_->fabric.nodes.size() && sw < 0; ++i)
            if (selene_->tiers[i] >= 2) sw = static_cast<int>(i);
        QVERIFY(sw >= 0);
        const auto pos = view.nodePosition(sw);
        QVERIFY(pos);
        QSignalSpy clicked(&view, &FabricView::nodeClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, pos->toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(view.selectedNode(), view.nodeAt(*pos));
        QCOMPARE(selene_->tiers[static_cast<std::size_t>(view.selectedNode())], selene_->tiers[static_cast<std::size_t>(sw)]);
        // Clicking empty space clears it.
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(5, 895));
        QCOMPARE(view.selectedNode(), -1);
    }

    // Selene's switches are "MF0;SLG04-16:MQM8700/U1", "MF0;SSPINE4-16:MQM8700/U1", ...: each row's
    // labels leave out the shared "MF0;" and ":MQM8700/U1" and read apart; the tooltip has it all.
    void switchLabelsKeepWhatDiffers() {
        FabricView view;
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(selene_);
        view.zoomBy(6, 800);
        view.renderFrame();
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-selene-switch-labels.png")));
        const auto& f = selene_->fabric;
        QSet<QString> seen;
        int drawn = 0;
        for (std::size_t i = 0; i < f.nodes.size(); ++i) {
            if (f.nodes[i].type != NodeType::Switch) continue;
            const QString label = view.drawnLabel(static_cast<int>(i));
            if (label.isEmpty()) continue;
            ++drawn;
            const QString full = QString::fromStdString(f.nodes[i].description);
            QVERIFY2(full.startsWith(QStringLiteral("MF0;")) && full.endsWith(QStringLiteral(":MQM8700/U1")), qPrintable(full));
            QVERIFY2(!label.contains(QStringLiteral("MF0")) && !label.contains(QStringLiteral("MQM8700")), qPrintable(label));
            QVERIFY2(!label.contains(QChar(0x2026)), qPrintable(label));  // fits: not elided
            QVERIFY2(full.contains(label), qPrintable(label + QStringLiteral(" / ") + full));
            QVERIFY2(!seen.contains(label), qPrintable(label));  // no two alike
            seen.insert(label);
            const auto pos = view.nodePosition(static_cast<int>(i));
            QVERIFY(pos);
            QVERIFY2(view.tooltipAt(*pos).contains(full), qPrintable(view.tooltipAt(*pos)));
        }
        QVERIFY2(drawn >= 10, qPrintable(QString::number(drawn)));
        const QRegularExpression name(QStringLiteral("^S(LG|SPINE|CORE)[0-9]+-[0-9]+$"));
        for (const QString& label : seen) QVERIFY2(name.match(label).hasMatch(), qPrintable(label));

        // Zoomed out until whole names barely fit: still no shared start, elided at the right.
        view.fit();
        view.zoomBy(3.3, 800);
        view.renderFrame();
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-selene-switch-labels-narrow.png")));
        drawn = 0;
        for (std::size_t i = 0; i < f.nodes.size(); ++i) {
            const QString label = view.drawnLabel(static_cast<int>(i));
            if (f.nodes[i].type != NodeType::Switch || label.isEmpty()) continue;
            ++drawn;
            QVERIFY2(label.startsWith(QStringLiteral("S")) && !label.contains(QStringLiteral("MF0")), qPrintable(label));
        }
        QVERIFY(drawn > 0);

        // At fit the 32 cores are ~48 px apart: "SCORE1-001" would be elided to "SCOR…", which
        // tells no core from the next, so no label is drawn rather than one that keeps half or less.
        view.fit();
        view.renderFrame();
        for (std::size_t i = 0; i < f.nodes.size(); ++i) {
            const QString label = view.drawnLabel(static_cast<int>(i));
            if (!label.contains(QChar(0x2026))) continue;
            const QString full = QString::fromStdString(f.nodes[i].description);
            QVERIFY2(label.size() - 1 > 4, qPrintable(label + QStringLiteral(" / ") + full));
        }
    }

    void maxPoolingKeepsALoneSpike() {
        // 10,000 rows x 100 columns, one hot cell: pooled to 50 x 10 it must still show.
        const std::size_t rows = 10000, cols = 100;
        std::vector<float> m(rows * cols, 1.0f);
        m[7777 * cols + 42] = 99.0f;
        std::vector<std::uint32_t> order(rows);
        for (std::size_t i = 0; i < rows; ++i) order[i] = static_cast<std::uint32_t>(i);
        std::vector<float> out(50 * 10);
        maxPoolRows(m.data(), cols, order, 50, 10, 0, 50, out.data());
        int hot = 0;
        for (float v : out) hot += v == 99.0f;
        QCOMPARE(hot, 1);
        QCOMPARE(out[(7777 * 50 / rows) * 10 + 4], 99.0f);
        // NaN is "no data": it never wins over a value.
        std::vector<float> n = {std::nanf(""), 3.0f, std::nanf(""), std::nanf("")};
        std::vector<std::uint32_t> two = {0, 1};
        std::vector<float> o(1);
        maxPoolRows(n.data(), 2, two, 1, 1, 0, 1, o.data());
        QCOMPARE(o[0], 3.0f);
    }

    void chartsGetAtMostTheirBudgetOfPoints() {
        std::vector<float> v(100000, 5.0f);
        v[50001] = 80.0f;
        const auto buckets = minMaxPerBucket(v, 0.0, 1.0, 500);
        QCOMPARE(buckets.size(), std::size_t(500));
        float top = 0;
        for (const auto& b : buckets) top = std::max(top, b.max);
        QCOMPARE(top, 80.0f);
        QCOMPARE(buckets[250].t, 50000.0);
    }
};

QTEST_MAIN(TestViewFabric)
#include "tst_view_fabric.moc"
