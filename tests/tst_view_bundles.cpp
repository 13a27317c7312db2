// Bundles at low zoom (#23): on a generated 3-tier fat tree (16 pods of 8 leaves and 8 spines, 64
// cores, 512 hosts; 2,048 switch links) the links between two tiers are too many to tell apart at
// fit, so each pair of switch groups is drawn as one band coloured by its worst link; zoomed in,
// the links are drawn one by one again.
#include "screenshot.h"
#include "core/demo_fabric.h"
#include "core/fabric_builder.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace fabscope;

namespace {

constexpr int kPods = 16, kLeaves = 8, kSpines = 8, kCores = 64, kHosts = 4;
constexpr double kHdrBytesPer10s = 200e9 / 8 * 10;  // a 4xHDR port sending flat out for one 10 s interval

std::string guid(int kind, int i) { return "0x" + std::to_string(kind) + "00000" + std::to_string(100000 + i); }
std::string leafName(int pod, int l) { return "pod" + std::to_string(pod) + "-leaf" + std::to_string(l); }
std::string spineName(int pod, int s) { return "pod" + std::to_string(pod) + "-spine" + std::to_string(s); }

// Pods of kLeaves leaves under kSpines spines; spine s of every pod links to cores (s-1)*8+1 .. s*8.
// A leaf's uplink to spine s is its port kHosts + s.
Fabric generatedFatTree() {
    FabricBuilder b;
    int nodes = 0;
    auto add = [&](NodeType type, const std::string& name, int ports) {
        Node n;
        n.type = type;
        n.guid = guid(type == NodeType::Switch ? 1 : 2, ++nodes);
        n.description = name;
        n.numPorts = ports;
        n.lid = nodes;
        return b.node(n);
    };
    auto connect = [&](NodeId x, int px, NodeId y, int py) {
        const PortId a = b.port(x, std::to_string(px), px), c = b.port(y, std::to_string(py), py);
        b.link(a, c, 4, "HDR");
    };
    std::vector<NodeId> cores;
    for (int c = 1; c <= kCores; ++c) cores.push_back(add(NodeType::Switch, "core" + std::to_string(c), 40));
    int host = 0;
    for (int p = 1; p <= kPods; ++p) {
        std::vector<NodeId> spines;
        for (int s = 1; s <= kSpines; ++s) {
            spines.push_back(add(NodeType::Switch, spineName(p, s), 40));
            for (int k = 0; k < kCores / kSpines; ++k) connect(spines.back(), kLeaves + k + 1, cores[static_cast<std::size_t>((s - 1) * (kCores / kSpines) + k)], p);
        }
        for (int l = 1; l <= kLeaves; ++l) {
            const NodeId leaf = add(NodeType::Switch, leafName(p, l), 40);
            for (int s = 1; s <= kSpines; ++s) connect(leaf, kHosts + s, spines[static_cast<std::size_t>(s - 1)], l);
            for (int h = 1; h <= kHosts; ++h) {
                const NodeId hca = add(NodeType::Ca, "gpu" + std::to_string(++host) + " mlx5_0", 1);
                connect(leaf, h, hca, 1);
                b.portRef(b.port(hca, "1", 1)).portGuid = guid(3, host);
            }
        }
    }
    Fabric f = b.take();
    for (auto& port : f.ports) port.lid = f.nodes[port.node.value()].lid;
    return f;
}

int linkBetween(const Fabric& f, const std::string& a, const std::string& b) {
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const auto& x = f.nodes[f.port(f.links[i].a).node.value()].description;
        const auto& y = f.nodes[f.port(f.links[i].b).node.value()].description;
        if ((x == a && y == b) || (x == b && y == a)) return static_cast<int>(i);
    }
    return -1;
}

} // namespace

class TestViewBundles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<const StoreSnapshot> snap_;
    int hot_ = -1, cool_ = -1;

private Q_SLOTS:
    void initTestCase() {
        const std::string topo = dir_.filePath(QStringLiteral("fabric.ibnetdiscover")).toStdString();
        const std::string csv = dir_.filePath(QStringLiteral("counters.csv")).toStdString();
        {
            std::ofstream out(topo);
            writeIbnetdiscover(generatedFatTree(), out, 1700000000);
        }
        {
            // Two uplinks of pod 3: pod3-leaf5 -> spine2 at 95 %, pod3-leaf1 -> spine1 at 10 %; no
            // other link has counters.
            std::ofstream out(csv);
            out << "timestamp,node,port,counter,value\n";
            for (auto [node, port, share] : {std::tuple{leafName(3, 5), kHosts + 2, 0.95}, std::tuple{leafName(3, 1), kHosts + 1, 0.10}})
                for (int t = 0; t <= 6; ++t)
                    out << 1700000000 + 10 * t << ',' << node << ',' << port << ",xmit_bytes,"
                        << static_cast<std::uint64_t>(share * kHdrBytesPer10s * t) << '\n';
        }
        const std::string store = dir_.filePath(QStringLiteral("tree.sqlite")).toStdString();
        {
            Store s(store);
            ImporterRegistry reg;
            QVERIFY(!ImportRunner(s, reg).run({topo, csv}, {}).anyFailed());
        }
        snap_ = loadStoreSnapshot(store);
        QVERIFY(snap_);
        QCOMPARE(snap_->fabric.count(NodeType::Switch), std::size_t(kPods * (kLeaves + kSpines) + kCores));
        hot_ = linkBetween(snap_->fabric, leafName(3, 5), spineName(3, 2));
        cool_ = linkBetween(snap_->fabric, leafName(3, 1), spineName(3, 1));
        QVERIFY(hot_ >= 0 && cool_ >= 0);
    }

    // One group per pod's leaves and per pod's spines; the cores by plane (the 8 cores over spine s
    // of every pod): 16 leaf-spine bundles of 8 x 8 links, and a bundle of 8 links from every pod's
    // spines to each plane.
    void groupsArePodsAndRuns() {
        const FabricLayout L = layoutFatTree(snap_->fabric, snap_->tiers);
        QCOMPARE(L.maxTier, 3);
        const auto& bundles = L.bundlesFolded.bundles;
        int leafSpine = 0, spineCore = 0;
        std::uint32_t links = 0;
        for (const auto& b : bundles) {
            links += b.links;
            if (b.tierLow == 1) {
                ++leafSpine;
                QCOMPARE(b.links, std::uint32_t(kLeaves * kSpines));
            } else if (b.tierLow == 2) {
                ++spineCore;
                QCOMPARE(b.links, std::uint32_t(kCores / kSpines));
            }
        }
        QCOMPARE(leafSpine, kPods);
        QCOMPARE(spineCore, kPods * kSpines);
        QCOMPARE(links, std::uint32_t(kPods * kLeaves * kSpines + kCores * kPods));
    }

    void aHotLinkMakesItsBandHotAndZoomShowsEachLink() {
        FabricView view;
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(snap_);
        view.setMetric(LinkMetric::UtilUp);
        view.setTime(1700000000 + 25);
        view.renderFrame();
        const float hot = view.linkValue(hot_), cool = view.linkValue(cool_);
        QVERIFY2(hot > 85 && hot <= 100, qPrintable(QString::number(hot)));  // 95 % of 4xHDR
        QVERIFY2(cool > 5 && cool < 15, qPrintable(QString::number(cool)));
        const QRgb hotColour = view.colourScale().rgb(hot), coolColour = view.colourScale().rgb(cool);
        QVERIFY(hotColour != coolColour);

        // Fit: the cool uplink is drawn inside its pod's band, in the hot link's colour.
        QVERIFY(view.bundleLegend().contains(QStringLiteral("bundle: worst")));
        const auto band = view.pixelOfLink(cool_);
        QVERIFY(band);
        QImage shot = view.grab().toImage();
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-bundles-fit.png")));
        QCOMPARE(shot.pixel(*band) & 0xFFFFFFu, hotColour & 0xFFFFFFu);
        QCOMPARE(view.linkColour(cool_), hotColour);
        // A band is thick: pixels of the hot colour on both sides of the point across the row.
        int wide = 0;
        for (int dx = -6; dx <= 6; ++dx)
            wide += (shot.pixel(band->x() + dx, band->y()) & 0xFFFFFFu) == (hotColour & 0xFFFFFFu);
        QVERIFY2(wide >= 5, qPrintable(QString::number(wide)));
        // Hover names the count and the worst link; a click selects the worst link.
        const QString tip = view.tooltipAt(*band);
        qInfo("band tooltip: %s", qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Bundle of %1 links").arg(kLeaves * kSpines)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("worst: ")) && tip.contains(QString::fromStdString(leafName(3, 5))), qPrintable(tip));
        QSignalSpy clicked(&view, &FabricView::linkClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, *band);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), hot_);

        // Zoomed in on pod 3's leaves: each of their links in its own colour. (The spine-core links,
        // which run across the whole fabric and lie flat when zoomed, stay bands.)
        std::vector<std::uint32_t> pod3;
        for (std::size_t i = 0; i < snap_->fabric.nodes.size(); ++i)
            if (QString::fromStdString(snap_->fabric.nodes[i].description).startsWith(QStringLiteral("pod3-leaf")))
                pod3.push_back(static_cast<std::uint32_t>(i));
        view.frameNodes(pod3);
        view.renderFrame();
        QVERIFY2(view.zoom() > 6, qPrintable(QString::number(view.zoom())));
        shot = view.grab().toImage();
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-bundles-zoomed.png")));
        const auto coolPx = view.pixelOfLink(cool_), hotPx = view.pixelOfLink(hot_);
        QVERIFY(coolPx && hotPx);
        QCOMPARE(shot.pixel(*coolPx) & 0xFFFFFFu, coolColour & 0xFFFFFFu);
        QCOMPARE(shot.pixel(*hotPx) & 0xFFFFFFu, hotColour & 0xFFFFFFu);
        QVERIFY2(!view.tooltipAt(*coolPx).contains(QStringLiteral("Bundle")), qPrintable(view.tooltipAt(*coolPx)));
    }

    // The demo's large fat tree (k = 48: 48 pods of 24 leaves and 24 spines, 576 cores in 24
    // planes, 27,648 hosts): at fit every pod is one leaf-spine band of 24 x 24 links. Pods x
    // planes would be 1,152 spine-core bands, over the 256 two tiers get: three pods and three
    // planes merge, 16 x 8 bands of 3 x 3 x 24 links.
    void demoLargeFatTreeIsDrawnInBands() {
        constexpr int k = 48, half = k / 2;
        const std::string topo = dir_.filePath(QStringLiteral("demo-large.ibnetdiscover")).toStdString();
        {
            std::ofstream out(topo);
            writeIbnetdiscover(demoFabric(DemoOptions::Scale::Large), out, 1700000000);
        }
        const std::string store = dir_.filePath(QStringLiteral("demo-large.sqlite")).toStdString();
        {
            Store s(store);
            ImporterRegistry reg;
            QVERIFY(!ImportRunner(s, reg).run({topo}, {}).anyFailed());
        }
        const auto snap = loadStoreSnapshot(store);
        QVERIFY(snap);
        FabricView view;
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSnapshot(snap);
        view.renderFrame();
        QVERIFY(saveScreenshot(view.grab(), QStringLiteral("fabscope-bundles-demo-large.png")));
        const FabricLayout& L = *view.currentLayout();
        QCOMPARE(L.maxTier, 3);
        int leafSpine = 0, spineCore = 0;
        for (const auto& b : L.bundlesFolded.bundles) {
            if (b.tierLow == 1) {
                ++leafSpine;
                QCOMPARE(b.links, std::uint32_t(half * half));
            } else {
                ++spineCore;
                QCOMPARE(b.links, std::uint32_t(3 * 3 * half));
            }
        }
        QCOMPARE(leafSpine, k);
        QCOMPARE(spineCore, (k / 3) * (half / 3));
        QVERIFY(view.bundleLegend().contains(QStringLiteral("bundle: worst")));
        // A leaf's uplink is drawn in its pod's band: the tooltip there counts the pod's links.
        int uplink = -1;
        for (std::size_t i = 0; i < snap->fabric.links.size() && uplink < 0; ++i) {
            const auto& f = snap->fabric;
            const auto a = f.port(f.links[i].a).node.value(), b = f.port(f.links[i].b).node.value();
            if (snap->tiers[a] + snap->tiers[b] == 3) uplink = static_cast<int>(i);
        }
        const auto px = view.pixelOfLink(uplink);
        QVERIFY(px);
        QVERIFY2(view.tooltipAt(*px).contains(QStringLiteral("Bundle of %1 links").arg(half * half)), qPrintable(view.tooltipAt(*px)));
        qInfo("k=48 demo: %zu links, geometry %.1f ms", snap->fabric.links.size(), view.lastFrameCost().geometryMs);
    }
};

QTEST_MAIN(TestViewBundles)
#include "tst_view_bundles.moc"
