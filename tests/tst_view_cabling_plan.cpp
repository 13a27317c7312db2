// The fabric view against a stored cabling plan: a planned cable that is not cabled is a red
// dashed line between its two nodes, the two swapped cables a red cross on their links, and the
// tooltips say what the plan says. Opened from a store of an ibutils plan
// (tests/data/ibdm-topo/) and the fabric cabled from it with those faults (plan_fixture.h).
#include "gui_fixture.h"
#include "plan_fixture.h"
#include "screenshot.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QStandardPaths>
#include <QtTest>

using namespace fabscope;

namespace {

bool isRed(const QColor& c) { return c.red() > 170 && c.green() < 90 && c.blue() < 90; }

// Red pixels within `r` px of `at` (a dashed line's gaps and antialiasing move the exact pixel).
int redNear(const QImage& shot, QPointF at, int r = 3) {
    int n = 0;
    const QPoint c = (at * shot.devicePixelRatio()).toPoint();
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (shot.rect().contains(c + QPoint(dx, dy)) && isRed(shot.pixelColor(c + QPoint(dx, dy)))) ++n;
    return n;
}

} // namespace

class TestViewCablingPlan : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        const std::string plan = ibtest::readData(QStringLiteral("ibdm-topo/4-ary-2-tree.topo"));
        const QString planFile = dir_.filePath(QStringLiteral("cabling.topo")), fabricFile = dir_.filePath(QStringLiteral("fabric.txt"));
        for (const auto& [file, text] : {std::pair{planFile, plan}, std::pair{fabricFile, plantest::miscabledFabric(plan)}}) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.data(), static_cast<qint64>(text.size()));
        }
        store_ = dir_.filePath(QStringLiteral("s.sqlite"));
        Store s(store_.toStdString());
        ImporterRegistry reg;
        QVERIFY(!ImportRunner(s, reg).run({planFile.toStdString(), fabricFile.toStdString()}, {}).anyFailed());
    }

    void fabricMarksWhereItDiffersFromThePlan() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, store_, false));
        auto* fabric = w.findChild<FabricView*>();
        QVERIFY(fabric);
        const auto snap = w.snapshot();
        QCOMPARE(snap->fabric.links.size(), std::size_t{30});  // the discovered fabric is drawn, not the plan's 32

        std::vector<FabricView::PlanMark> missing, off;
        for (const auto& m : fabric->planMarks()) (m.missing ? missing : off).push_back(m);
        QCOMPARE(missing.size(), std::size_t{2});
        QCOMPARE(off.size(), std::size_t{2});
        std::sort(missing.begin(), missing.end(), [](const auto& a, const auto& b) { return a.text < b.text; });
        QCOMPARE(missing[0].text, QStringLiteral("planned link SW-1-2 p2 <-> H-10 p1 is not cabled (cabling plan cabling.topo)"));
        QCOMPARE(missing[0].nodeB, -1);  // H-10 was never discovered: no line to draw, still counted
        QCOMPARE(missing[1].text, QStringLiteral("planned link SW-1-2 p6 <-> SW-0-1 p3 is not cabled (cabling plan cabling.topo)"));
        QCOMPARE(missing[1].nodeA, static_cast<int>(snap->nodeByName.at("MF0;SW-1-2:MTS800/U1")));
        QCOMPARE(missing[1].nodeB, static_cast<int>(snap->nodeByName.at("MF0;SW-0-1:MTS800/U1")));
        fabric->renderFrame();
        const QImage shot = fabric->grab().toImage();

        // The missing uplink: red dashes along the line between the two switches.
        const auto line = fabric->planMarkGeometry(missing[1]);
        QVERIFY(line);
        // Walked pixel by pixel along its middle: red runs with gaps between them (a solid line is one run).
        const QPointF d = line->second - line->first;
        const int steps = static_cast<int>(std::hypot(d.x(), d.y()) * 0.4);
        int runs = 0;
        bool wasRed = false;
        for (int i = 0; i <= steps; ++i) {
            const bool red = redNear(shot, line->first + d * (0.3 + 0.4 * i / steps), 1) > 0;
            runs += red && !wasRed;
            wasRed = red;
        }
        QVERIFY2(runs >= 6, qPrintable(QString::number(runs)));
        // Each swapped cable: a red cross at its link's middle, the link's tooltip saying what was planned.
        for (const auto& m : off) {
            QVERIFY(m.link >= 0);
            const auto g = fabric->planMarkGeometry(m);
            QVERIFY(g);
            QVERIFY2(redNear(shot, g->first) >= 6, qPrintable(m.text));
            QVERIFY2(fabric->tooltipAt(g->first).contains(QStringLiteral("✕ ") + m.text.toHtmlEscaped()), qPrintable(fabric->tooltipAt(g->first)));
        }
        QVERIFY(off[0].text.contains(QStringLiteral("the cabling plan cabling.topo says")));
        // A cable as planned carries no mark.
        int plain = -1;
        for (std::size_t i = 0; i < snap->fabric.links.size() && plain < 0; ++i)
            if (std::none_of(off.begin(), off.end(), [&](const auto& m) { return m.link == static_cast<int>(i); })) plain = static_cast<int>(i);
        const Link& pl = snap->fabric.links[static_cast<std::size_t>(plain)];
        const QPointF mid = (*fabric->nodePosition(static_cast<int>(snap->fabric.port(pl.a).node.value())) +
                             *fabric->nodePosition(static_cast<int>(snap->fabric.port(pl.b).node.value()))) / 2;
        QCOMPARE(redNear(shot, mid, 1), 0);
        // The switch's tooltip lists its ports' missing cables.
        const auto sw = fabric->nodePosition(missing[1].nodeA);
        QVERIFY(sw);
        QVERIFY2(fabric->tooltipAt(*sw).contains(QStringLiteral("╌ planned link SW-1-2 p2 &lt;-&gt; H-10 p1 is not cabled")), qPrintable(fabric->tooltipAt(*sw)));
        QVERIFY(saveScreenshot(fabric->grab(), QStringLiteral("fabscope-fabric-cabling-plan.png")));
    }
};

QTEST_MAIN(TestViewCablingPlan)
#include "tst_view_cabling_plan.moc"
