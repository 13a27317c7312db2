// The RoCE leaf-spine of the PFC tests (per-device lldpctl json, ethtool -S, SAI counters) in the
// fabric view (#23): every switch in the tier of its role and the storming NIC's link drawn in the
// PFC pause share it was held at. gpu5's NIC stops draining and pauses leaf03 95 % of the time, as
// in tst_analysis_roce_pfc's classic storm.
#include "screenshot.h"
#include "roce_pfc_fixture.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

using namespace rocetest;

class TestViewRoceStorm : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void stormFabricInTiersWithTheStormDrawnHot() {
        RoceFabric f;
        f.pauses("gpu5", "eth2", during(0.95));
        for (const std::string p : {"Ethernet48", "Ethernet52"}) f.pauses("leaf03", p, during(0.75));
        for (const std::string p : {"Ethernet4", "Ethernet8"}) f.pauses("leaf03", p, during(0.6));
        f.pauses("spine01", "Ethernet0", during(0.6, 2, 8));
        f.bytes("leaf01", "Ethernet48", during(0.9));
        const auto snap = fabscope::loadStoreSnapshot(f.store(stores_, "storm"));
        QVERIFY(snap);
        const auto& fab = snap->fabric;
        QCOMPARE(fab.nodes.size(), std::size_t(12));  // 2 spines, 3 leaves, 7 hosts
        for (std::size_t i = 0; i < fab.nodes.size(); ++i) {
            const std::string& d = fab.nodes[i].description;
            const int role = d.starts_with("spine") ? 2 : d.starts_with("leaf") ? 1 : 0;
            QVERIFY2(snap->tiers[i] == role, d.c_str());
        }

        fabscope::FabricView view;
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(snap);
        view.setMetric(fabscope::LinkMetric::PfcPauseMax);
        view.setTime(static_cast<double>(kT0) + 35);  // inside the storm
        view.renderFrame();
        int storm = -1;
        for (std::size_t l = 0; l < fab.links.size(); ++l) {
            const auto& a = fab.nodes[fab.port(fab.links[l].a).node.value()].description;
            const auto& b = fab.nodes[fab.port(fab.links[l].b).node.value()].description;
            if ((a == "gpu5" && b == "leaf03") || (a == "leaf03" && b == "gpu5")) storm = static_cast<int>(l);
        }
        QVERIFY(storm >= 0);
        const float share = view.linkValue(storm);
        QVERIFY2(share > 94 && share < 96, qPrintable(QString::number(share)));
        const auto px = view.pixelOfLink(storm);
        QVERIFY(px);
        const QImage shot = view.grab().toImage();
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-roce-pfc-storm.png")));
        QCOMPARE(shot.pixel(*px) & 0xFFFFFFu, view.colourScale().rgb(95) & 0xFFFFFFu);
        QVERIFY(view.bundleLegend().isEmpty());  // 3 leaves, 2 spines: every link drawn alone
    }
};

QTEST_MAIN(TestViewRoceStorm)
#include "tst_view_roce_storm.moc"
