// A RoCE capture without port speeds (LLDP with no MAU type) still has byte counters: the window
// must colour the fabric by throughput in Gb/s, not paint it all "no data" grey, and say what it
// does; the inspector, the chart header and the tooltip say "unknown" instead of "?????", "0 Gb/s"
// or "0.0 %". Zero errors are drawn apart from a few errors/s.
#include "gui_fixture.h"
#include "screenshot.h"
#include "core/counters.h"
#include "core/store/sample_writer.h"
#include "views/colour_scale.h"
#include "views/fabric_view.h"
#include "views/inspector_panel.h"
#include "views/link_charts_panel.h"
#include "views/time_chart_view.h"
#include "views/selection.h"
#include "views/time_controller.h"

#include <QComboBox>
#include <QLabel>
#include <QStatusBar>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace fabscope;

namespace {

// leaf1 with gpu1 and gpu2 on Ethernet0/4; no speed anywhere. gpu1 sends 40 Gb/s, gpu2 4 Gb/s.
QString makeStore(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("roce.sqlite"));
    Fabric f;
    auto node = [&](NodeType t, const char* name) {
        f.nodes.push_back({t, "", name, name, 1, 0});
        return NodeId(static_cast<std::uint32_t>(f.nodes.size() - 1));
    };
    auto port = [&](NodeId n, const char* name) {
        Port p;
        p.node = n;
        p.name = name;
        p.speed = "???";
        f.ports.push_back(p);
        return PortId(static_cast<std::uint32_t>(f.ports.size() - 1));
    };
    const NodeId leaf = node(NodeType::Switch, "leaf1"), gpu1 = node(NodeType::Ca, "gpu1"), gpu2 = node(NodeType::Ca, "gpu2");
    const PortId l0 = port(leaf, "Ethernet0"), l4 = port(leaf, "Ethernet4"), g1 = port(gpu1, "ens1f0np0"), g2 = port(gpu2, "ens1f0np0");
    f.links.push_back({g1, l0, std::nullopt, "???", 0, true});
    f.links.push_back({g2, l4, std::nullopt, "???", 0, true});
    Store s(path.toStdString());
    Store::Transaction tx(s);
    s.writeSnapshot(f, "roce", 1767225600);  // 2026-01-01 00:00:00 UTC
    SampleWriter w(s);
    const CounterInfo xmit = *canonicalCounter("xmit_bytes");
    const CounterInfo errors = *canonicalCounter("rcv_errors");
    const auto a = w.series("gpu1", "ens1f0np0", xmit), b = w.series("gpu2", "ens1f0np0", xmit);
    const auto e1 = w.series("gpu1", "ens1f0np0", errors), e2 = w.series("gpu2", "ens1f0np0", errors);
    for (int i = 0; i < 30; ++i) {
        const std::int64_t t = (1767225600LL + 10 * i) * 1000;
        w.add(a, t, 40e9 / 8 * 10 * i);
        w.add(b, t, 4e9 / 8 * 10 * i);
        w.add(e1, t, 0);       // clean
        w.add(e2, t, 20 * i);  // 2 errors/s
    }
    w.flush();
    s.recordImport("synthetic", "sha-roce-no-speed", "test", w.samples());
    tx.commit();
    return path;
}

} // namespace

class TestViewRoceThroughput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void aFabricWithoutSpeedsIsColouredByThroughput() {
        const QString store = makeStore(dir_);
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, store, false));
        auto* box = w.findChild<QComboBox*>(QStringLiteral("metricBox"));
        QVERIFY(box);
        QCOMPARE(static_cast<LinkMetric>(box->currentData().toInt()), LinkMetric::ThroughputMax);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("throughput (Gb/s)")), qPrintable(w.statusBar()->currentMessage()));

        // The rates the views colour: 40 and 4 Gb/s, not NaN.
        auto* fabric = w.findChild<FabricView*>();
        QVERIFY(fabric);
        w.timeController()->setTime(1767225600 + 150);
        const auto snapshot = fabric->snapshot();
        QVERIFY(snapshot);
        const auto& r = snapshot->rates;
        QCOMPARE(r.linksWithoutCapacity(), std::size_t{2});
        const int bin = r.binAt(1767225600 + 150);
        QVERIFY(std::isnan(r.value(LinkMetric::UtilMax, 0, static_cast<std::size_t>(bin))));
        QVERIFY2(std::abs(r.value(LinkMetric::ThroughputMax, 0, static_cast<std::size_t>(bin)) - 40.0f) < 0.5f,
                 qPrintable(QString::number(r.value(LinkMetric::ThroughputMax, 0, static_cast<std::size_t>(bin)))));
        QVERIFY(std::abs(r.value(LinkMetric::ThroughputMax, 1, static_cast<std::size_t>(bin)) - 4.0f) < 0.5f);

        // On screen: the two links in two different colours of the Gb/s scale, neither grey.
        const ColourScale scale(LinkMetric::ThroughputMax);
        const QRgb at40 = scale.rgb(40) & 0xffffff, at4 = scale.rgb(4) & 0xffffff;
        QVERIFY(at40 != at4);
        int hot = 0, cool = 0;
        auto count = [&] {
            const QImage shot = fabric->grab().toImage();
            hot = cool = 0;
            for (int y = 0; y < shot.height(); ++y)
                for (int x = 0; x < shot.width(); ++x) {
                    const QRgb c = shot.pixel(x, y) & 0xffffff;
                    hot += c == at40;
                    cool += c == at4;
                }
            return hot > 20 && cool > 20;
        };
        QTRY_VERIFY_WITH_TIMEOUT(count(), 10000);

        // Select the first link: the inspector and the chart say the capacity is unknown.
        w.findChild<SelectionController*>()->selectLink(0);
        auto* inspector = w.findChild<InspectorPanel*>();
        QVERIFY(inspector);
        QVERIFY2(inspector->text().contains(QStringLiteral("Width/speed: unknown")), qPrintable(inspector->text()));
        QVERIFY(!inspector->text().contains(QStringLiteral("???")));
        // Its rates at the cursor in Gb/s: gpu1 sends 40 Gb/s (up, towards the leaf).
        QTRY_VERIFY2(inspector->text().contains(QStringLiteral("Throughput up (towards the spine): 40")), qPrintable(inspector->text()));
        auto* charts = w.findChild<LinkChartsPanel*>();
        QVERIFY(charts);
        bool said = false;
        for (auto* label : charts->findChildren<QLabel*>())
            said = said || (label->text().contains(QStringLiteral("capacity unknown")) && label->text().contains(QStringLiteral("40.0 Gb/s")));
        QVERIFY(said);
        // The upper chart plots the link's throughput in Gb/s, not an empty utilisation.
        QVERIFY2(charts->utilisationTimeView()->emptyText().isEmpty(), qPrintable(charts->utilisationTimeView()->emptyText()));
        QCOMPARE(charts->utilisationView()->chart()->axes(Qt::Vertical).front()->titleText(), QStringLiteral("Gb/s"));
        double top = 0;
        for (int d = 0; d < 2; ++d)
            for (const QPointF& p : charts->utilisationSeries(d)->points()) top = std::max(top, p.y());
        QVERIFY2(std::abs(top - 40.0) < 0.5, qPrintable(QString::number(top)));
        QVERIFY(saveScreenshot(w.grab(), QStringLiteral("fabscope-roce-no-speed.png")));
    }

    void zeroErrorsAreDrawnApartFromFewErrors() {
        const ColourScale errors(LinkMetric::Errors);
        QCOMPARE(errors.rgb(0), ColourScale::zero());
        QVERIFY(errors.rgb(0.01f) != ColourScale::zero());
        QVERIFY(errors.rgb(0.01f) != ColourScale::noData());
        QCOMPARE(errors.format(0), QStringLiteral("0 errors/s"));
    }
};

QTEST_MAIN(TestViewRoceThroughput)
#include "tst_view_roce_throughput.moc"
