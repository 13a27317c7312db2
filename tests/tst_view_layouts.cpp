// The fabric view's dragonfly and rail layouts on the demo fabrics of `fabscope demo --topology`:
// the layout is picked from the graph, each dragonfly group is one band with its hosts under
// their switch, each rail's NICs sit in one band under that rail's leaves, and a forced layout
// replaces the automatic one.
#include "screenshot.h"
#include "core/demo_topologies.h"
#include "views/fabric_layout.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QSignalSpy>
#include <QtTest>

#include <set>

using namespace fabscope;

namespace {

std::set<std::string> names(const Fabric& f, const std::vector<std::uint32_t>& nodes, NodeType type) {
    std::set<std::string> out;
    for (auto n : nodes)
        if (f.nodes[n].type == type) out.insert(f.nodes[n].description);
    return out;
}

// Bands are in x order and do not overlap.
void checkBandsDisjoint(const FabricLayout& L) {
    for (std::size_t b = 0; b < L.bands.size(); ++b) {
        QVERIFY(L.bands[b].x0 < L.bands[b].x1);
        if (b > 0) QVERIFY(L.bands[b - 1].x1 < L.bands[b].x0);
    }
}

} // namespace

class TestViewLayouts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void dragonflyGroupsAreClustersWithHostsUnderTheirSwitch() {
        const DemoTopology d = dragonflyDemo();
        const auto snap = makeSnapshot(d.fabric);
        QCOMPARE(snap->shape.shape, FabricShape::Dragonfly);
        const FabricLayout L = layoutFor(snap->fabric, snap->tiers, snap->shape, LayoutKind::Auto);
        QCOMPARE(L.shape, FabricShape::Dragonfly);
        QCOMPARE(L.bands.size(), d.groups.size());
        checkBandsDisjoint(L);
        std::set<std::set<std::string>> expected, drawn;
        for (const auto& g : d.groups) expected.insert(std::set<std::string>(g.begin(), g.end()));
        const auto& f = snap->fabric;
        for (const auto& band : L.bands) {
            drawn.insert(names(f, band.nodes, NodeType::Switch));
            for (auto n : band.nodes) QVERIFY(L.x[n] >= band.x0 && L.x[n] <= band.x1);
        }
        QCOMPARE(drawn, expected);
        // Hosts at the bottom, within their switch's block; switches above, on an arch.
        int hosts = 0;
        for (const Link& l : f.links) {
            const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
            for (auto [h, s] : {std::pair{a, b}, std::pair{b, a}})
                if (f.nodes[h].type == NodeType::Ca) {
                    QCOMPARE(L.y[h], 0.0);
                    QVERIFY(L.y[s] >= 1.0);
                    const auto g = L.groupOfHost[h];
                    QVERIFY(g != UINT32_MAX);
                    QCOMPARE(L.groupLeaf[g - L.nodeCount], std::uint32_t(s));
                    QVERIFY(std::abs(L.x[h] - L.x[s]) <= L.groupSize[g - L.nodeCount] / 2.0);
                    ++hosts;
                }
        }
        QCOMPARE(hosts, 80);
    }

    void eachRailsNicsAreOneBandUnderItsLeaves() {
        const DemoTopology d = railDemo();
        const auto snap = makeSnapshot(d.fabric);
        QCOMPARE(snap->shape.shape, FabricShape::Rail);
        const FabricLayout L = layoutFor(snap->fabric, snap->tiers, snap->shape, LayoutKind::Auto);
        QCOMPARE(L.shape, FabricShape::Rail);
        QCOMPARE(L.bands.size(), d.groups.size());
        checkBandsDisjoint(L);
        const auto& f = snap->fabric;
        for (const auto& rail : d.groups) {
            // The band holding this rail's first NIC holds all of them, and nothing else.
            const auto first = snap->nodeByName.at(rail.front());
            const LayoutBand* band = nullptr;
            for (const auto& b : L.bands)
                if (L.x[first] >= b.x0 && L.x[first] <= b.x1) band = &b;
            QVERIFY(band);
            QCOMPARE(names(f, band->nodes, NodeType::Ca), std::set<std::string>(rail.begin(), rail.end()));
            for (const auto& nic : rail) {
                const auto n = snap->nodeByName.at(nic);
                QVERIFY(L.x[n] >= band->x0 && L.x[n] <= band->x1);
                QCOMPARE(L.y[n], 0.0);
            }
            // The rail's leaves: in the band, one row up.
            for (auto n : band->nodes)
                if (f.nodes[n].type == NodeType::Switch) QCOMPARE(L.y[n], 1.0);
        }
    }

    void viewPicksTheLayoutAndObeysAForcedOne() {
        FabricView view;
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy changed(&view, &FabricView::layoutChanged);
        view.setSnapshot(makeSnapshot(dragonflyDemo().fabric));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(view.currentLayout()->shape, FabricShape::Dragonfly);
        view.renderFrame();
        // Every link is drawn somewhere: global links between the arches included.
        for (std::size_t l = 0; l < view.currentLayout()->edgeOfLinkFolded.size(); ++l)
            QVERIFY(view.currentLayout()->edgeOfLinkFolded[l] != UINT32_MAX);
        saveScreenshot(view.grab(), QStringLiteral("fabscope_layout_dragonfly.png"));
        view.setLayoutKind(LayoutKind::FatTree);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(view.currentLayout()->shape, FabricShape::FatTree);
        QVERIFY(view.currentLayout()->bands.empty());
        view.setLayoutKind(LayoutKind::Auto);
        QCOMPARE(view.currentLayout()->shape, FabricShape::Dragonfly);

        view.setSnapshot(makeSnapshot(railDemo().fabric));
        QCOMPARE(view.currentLayout()->shape, FabricShape::Rail);
        view.renderFrame();
        saveScreenshot(view.grab(), QStringLiteral("fabscope_layout_rail.png"));
    }
};

QTEST_MAIN(TestViewLayouts)
#include "tst_view_layouts.moc"
