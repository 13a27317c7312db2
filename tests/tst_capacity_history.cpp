// A store with two topology snapshots whose uplink leaf03 p21 -> spine02 p3 ran at 4xHDR (200 Gb/s)
// in the good run and at 1xHDR (50 Gb/s) in the bad one (tests/compare_fixture.h): its good-run
// load of 45 % must read 45 % of 200 Gb/s, not 180 % of the latest snapshot's 50 Gb/s, in the
// findings and in the views' time series alike.
#include "compare_fixture.h"

#include "core/analysis/analyze.h"
#include "core/analysis/capacity_history.h"
#include "core/analysis/context.h"
#include "core/analysis/port_load.h"
#include "core/port_links.h"
#include "core/report/benchmarks.h"
#include "core/report/report_data.h"
#include "core/report/utilisation.h"
#include "core/tiers.h"
#include "core/timeseries/link_series.h"

#include <QtTest>

using namespace fabscope;

class TestCapacityHistory : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    cmpfix::Stores2 stores_;

    static PortId portOf(const Fabric& f, const std::string& node, const std::string& port) {
        for (std::size_t i = 0; i < f.ports.size(); ++i)
            if (f.node(f.ports[i].node).description == node && f.ports[i].name == port) return PortId(i);
        throw std::runtime_error("no port " + node + " " + port);
    }
    static double metric(const Finding& f, const std::string& key) {
        for (const auto& [k, v] : f.metrics)
            if (k == key) return std::get<double>(v);
        return -1;
    }

private Q_SLOTS:
    void initTestCase() {
        atest::Stores stores(dir_);
        stores_ = cmpfix::make(stores);
    }

    void capacityInForceAtEachTime() {
        const Store store(stores_.one, Store::Mode::ReadOnly);
        const AnalysisContext ctx(store, cmpfix::kGoodFrom, cmpfix::kBadTo, AnalysisConfig{});
        const Fabric& f = ctx.fabric();  // snapshot "B", the latest
        const PortId swapped = portOf(f, "leaf03", "21"), steady = portOf(f, "leaf02", "21");
        const CapacityHistory& h = ctx.capacities();
        QVERIFY(h.varies(swapped));
        QVERIFY(!h.varies(steady));
        QCOMPARE(h.at(swapped, cmpfix::kT0 - 100, 50e9), 200e9);  // before the first snapshot: the first
        QCOMPARE(h.at(swapped, cmpfix::kGoodTo, 50e9), 200e9);
        QCOMPARE(h.at(swapped, cmpfix::kBadSnapshot, 50e9), 50e9);  // in force from its own time
        QCOMPARE(h.at(swapped, cmpfix::kBadTo, 50e9), 50e9);
        QCOMPARE(h.lowest(swapped, 50e9), 50e9);
        QCOMPARE(h.at(steady, cmpfix::kGoodFrom, 200e9), 200e9);

        // A store with one snapshot has no history to read.
        const Store good(stores_.good, Store::Mode::ReadOnly);
        const AnalysisContext goodCtx(good, cmpfix::kGoodFrom, cmpfix::kGoodTo, AnalysisConfig{});
        QVERIFY(goodCtx.capacities().empty());
    }

    void hotLinksJudgedAgainstTheSpeedThen() {
        const Store store(stores_.one, Store::Mode::ReadOnly);
        const FindingsReport report = analyze(store, AnalysisWindow{}, AnalysisConfig{});
        int badRunHot = 0;
        for (const Finding& f : report.findings) {
            if (f.kind != FindingKind::HotLink) continue;
            QVERIFY2(f.start >= cmpfix::kBadSnapshot, f.summary.c_str());  // the good run carried 45 % everywhere
            if (f.ports[0].node == "leaf03" && f.ports[0].port == "21") {
                ++badRunHot;
                QCOMPARE(metric(f, "capacity_gbps"), 50.0);
                QVERIFY2(std::abs(metric(f, "peak_util") - 0.97) < 0.03, f.summary.c_str());
            }
        }
        QCOMPARE(badRunHot, 1);

        // The uplink was degraded (1x) only from the bad run's snapshot on.
        int degraded = 0;
        for (const Finding& f : report.findings) {
            if (f.kind != FindingKind::DegradedLink) continue;
            ++degraded;
            QCOMPARE(f.start, cmpfix::kBadSnapshot);
            QCOMPARE(f.end, report.windowEnd);
            QVERIFY2(f.summary.find("since 2023-11-14 23:03:20 UTC, 200 Gb/s before") != std::string::npos, f.summary.c_str());
        }
        QCOMPARE(degraded, 1);
        const FindingsReport goodRun = analyze(store, AnalysisWindow{cmpfix::kGoodFrom, cmpfix::kGoodTo}, AnalysisConfig{});
        for (const Finding& f : goodRun.findings) QVERIFY2(f.kind != FindingKind::DegradedLink, f.summary.c_str());

        // ecmp_imbalance and the other detectors that read a direction's load see the same 45 %.
        const AnalysisContext ctx(store, cmpfix::kGoodFrom, cmpfix::kGoodTo, AnalysisConfig{});
        const Fabric& f = ctx.fabric();
        const auto load = directionLoad(ctx, portOf(f, "leaf03", "21"), portOf(f, "spine02", "3"));
        QVERIFY(load);
        QVERIFY2(std::abs(*load->meanUtil() - 0.45) < 0.02, std::to_string(*load->meanUtil()).c_str());
    }

    void reportUtilisationUsesTheSpeedThen() {
        const Store store(stores_.one, Store::Mode::ReadOnly);
        const AnalysisContext ctx(store, cmpfix::kGoodFrom, cmpfix::kBadTo, AnalysisConfig{});
        const UtilisationReport report = measureUtilisation(ctx, ctx.tiers(), 100, 100);
        bool seen = false;
        for (const LinkDirectionUtil& d : report.top) {
            QVERIFY2(d.stats.max < 1.0, (d.tx.node + " p" + d.tx.port + " " + std::to_string(d.stats.max)).c_str());
            if (d.tx.node != "leaf03" || d.tx.port != "21") continue;
            seen = true;
            QVERIFY(std::abs(d.stats.max - 0.97) < 0.03);  // the bad run's 95 % of 50 Gb/s
            for (std::size_t i = 0; i < d.t.size(); ++i)   // the charted good run: 45 % of 200 Gb/s
                if (d.t[i] <= cmpfix::kGoodTo && !std::isnan(d.u[i])) QVERIFY2(std::abs(d.u[i] - 0.45) < 0.03, std::to_string(d.u[i]).c_str());
        }
        QVERIFY(seen);
    }

    void viewsTimeSeriesUseTheSpeedThen() {
        const Store store(stores_.one, Store::Mode::ReadOnly);
        const auto snap = store.latestSnapshot();
        QVERIFY(snap);
        const Fabric f = store.loadFabric(snap->id);
        const LinkTimeSeries ts = loadLinkTimeSeries(store, snap->id, f, computeTiers(f));
        const auto linkOf = linkOfEachPort(f);
        const std::size_t link = linkOf[portOf(f, "leaf03", "21").value()]->value();
        const auto good = static_cast<std::size_t>(ts.binAt(cmpfix::kGoodFrom + 300));
        const auto bad = static_cast<std::size_t>(ts.binAt(cmpfix::kBadFrom + 300));
        const auto near = [](float v, double want, double tol) { return std::abs(static_cast<double>(v) - want) < tol; };
        QVERIFY2(near(ts.value(LinkMetric::UtilUp, link, good), 45, 3), std::to_string(ts.value(LinkMetric::UtilUp, link, good)).c_str());
        QVERIFY2(near(ts.value(LinkMetric::UtilUp, link, bad), 95, 3), std::to_string(ts.value(LinkMetric::UtilUp, link, bad)).c_str());
        // Throughput stays what the counters say, before and after the swap.
        QVERIFY2(near(ts.value(LinkMetric::ThroughputUp, link, good), 90, 6), std::to_string(ts.value(LinkMetric::ThroughputUp, link, good)).c_str());
        QVERIFY2(near(ts.value(LinkMetric::ThroughputUp, link, bad), 47.5, 3), std::to_string(ts.value(LinkMetric::ThroughputUp, link, bad)).c_str());
        // A link whose speed never changed reads as before.
        const std::size_t steady = linkOf[portOf(f, "leaf02", "21").value()]->value();
        QVERIFY(near(ts.value(LinkMetric::UtilUp, steady, good), 45, 3));
        QVERIFY(near(ts.value(LinkMetric::ThroughputUp, steady, good), 90, 6));
    }

    // An all_reduce_perf run between the two hosts of a leaf while dgx02's link ran at 4x (200 Gb/s);
    // an hour later a snapshot finds that link at 1x. The run's bottleneck is of 200 Gb/s then.
    void collectiveRunsAreJudgedAtTheSpeedThen() {
        const auto fabric = [](int width) {
            atest::MiniFabric m;
            const NodeId leaf = m.sw("leaf01");
            m.link(leaf, 1, m.host("dgx01 mlx5_0"), 1);
            m.link(leaf, 2, m.host("dgx02 mlx5_0"), 1, width);
            return m.build();
        };
        QTemporaryDir dir;  // apart from the fixture's stores
        atest::Stores stores(dir);
        const std::string db = stores.make(fabric(4), atest::rows("leaf01", 1, "xmit_bytes", {0, 1e9}));
        stores.addSnapshot(db, fabric(1), "B", atest::kT0 + 3600);
        const std::string out = stores.path("all_reduce_perf.txt");
        std::ofstream(out) << atest::kT0 + 60
                           << "\n# Using devices\n"
                              "#  Rank  0 Group  0 Pid  1 on dgx01 device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
                              "#  Rank  1 Group  0 Pid  2 on dgx02 device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
                              "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                              "     2097152        524288     float     sum      -1    180.2   11.64   11.64      0    179.9   11.66   11.66      0\n";
        cmpfix::importFile(db, out);
        const Store store(db, Store::Mode::ReadOnly);
        const auto snap = store.latestSnapshot();
        QVERIFY(snap);
        const Fabric shown = store.loadFabric(snap->id);
        const BenchmarkResults b = collectBenchmarks(store, shown, CapacityHistory(store, shown, snap->id));
        QCOMPARE(b.assessments.size(), std::size_t{1});
        const CollectiveAssessment& a = b.assessments[0];
        QVERIFY2(a.bottleneck, a.note.c_str());
        QCOMPARE(a.bottleneck->capacityGbps, 200.0);
        QCOMPARE(*a.efficiency, 11.64 * 8 / 200);
        // So does the report's Benchmarks section, with its analysis' history of speeds.
        ReportOptions options;
        options.stressSwitches = options.stressUplinkGroups = 0;
        const ReportData report = buildReportData(store, options);
        QCOMPARE(report.benchmarks.assessments.size(), std::size_t{1});
        QVERIFY2(report.benchmarks.assessments[0].bottleneck, report.benchmarks.assessments[0].note.c_str());
        QCOMPARE(report.benchmarks.assessments[0].bottleneck->capacityGbps, 200.0);
    }
};

QTEST_GUILESS_MAIN(TestCapacityHistory)
#include "tst_capacity_history.moc"
