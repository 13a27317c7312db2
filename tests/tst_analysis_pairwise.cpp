// Pairwise benchmarks on a fabric (issue 18): with the topology imported, runs are compared only
// with runs at the same distance, each class states what the hosts' NICs allow, a leaf whose
// uplink runs at half speed is blamed as a link (its hosts are not slow hosts: their runs below
// their own leaf are fine), and the half-speed host stays the one slow host.
#include "analysis_fixture.h"
#include "core/analysis/pair_benchmarks.h"
#include "pair_bench_fixture.h"

using namespace atest;

class TestAnalysisPairwise : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    pairbench::Sweep sweep_;
    std::string db_;

    // 8 leaves of 2 hosts (node-01 and 02 on leaf01, ...), one 4xHDR NIC each, one spine.
    static Fabric fabric() {
        MiniFabric m;
        const NodeId spine = m.sw("spine01");
        for (int l = 0; l < 8; ++l) {
            const NodeId leaf = m.sw("leaf0" + std::to_string(l + 1));
            m.link(leaf, 20, spine, l + 1);
            for (int h = 0; h < 2; ++h) {
                char name[32];
                std::snprintf(name, sizeof name, "node-%02d mlx5_0", l * 2 + h + 1);
                m.link(leaf, h + 1, m.host(name), 1);
            }
        }
        return m.build();
    }

private Q_SLOTS:
    void initTestCase() {
        sweep_.hosts = 16;
        sweep_.behindSlowUplink = {"node-15", "node-16"};  // leaf08's uplink at half speed
        Stores stores(dir_);
        db_ = stores.make(fabric(), "");
        const std::string logs = stores.path("sweep");
        QCOMPARE(sweep_.write(logs), 360);
        Store store(db_);
        ImporterRegistry registry;
        const auto summary = ImportRunner(store, registry).run({logs}, ImportOptions{});
        QVERIFY(!summary.anyFailed());
    }

    void classesByDistanceWithWhatTheNicsAllow() {
        const Store store(db_, Store::Mode::ReadOnly);
        const auto snap = store.latestSnapshot();
        QVERIFY(snap);
        const PairBenchmarks pb = judgePairBenchmarks(loadCollectiveRuns(store), store.loadFabric(snap->id), AnalysisConfig{}.pairBenchmark);
        QCOMPARE(pb.classes.size(), std::size_t{18});  // 3 benchmarks x 3 GPU counts x 2 distances
        const PairClass* sendrecv = nullptr;
        for (const PairClass& c : pb.classes)
            if (c.tool == "sendrecv_perf" && c.gpusPerNode == 1 && c.distance == PairDistance::SameLeaf) sendrecv = &c;
        QVERIFY(sendrecv);
        QCOMPARE(sendrecv->runs.size(), std::size_t{8});  // one pair per leaf
        QCOMPARE(sendrecv->nicsPerHost, 1);
        QCOMPARE(*sendrecv->nicGbps, 200.0);             // 4xHDR
        QCOMPARE(*sendrecv->expectedGBs, 200.0 / 8 * 0.92);  // one NIC's line rate less 8 % protocol
        QVERIFY(std::abs(*sendrecv->medianGBs - 22.5) < 0.5);  // the sweep's healthy sendrecv figure
        // Hosts ordered by leaf: leaf01's two first.
        QCOMPARE(pb.hosts.front(), std::string("node-01"));
        QCOMPARE(pb.hosts[2], std::string("node-03"));
    }

    void slowUplinkIsBlamedAndItsHostsAreNotSlowHosts() {
        const FindingsReport r = analyzeStore(db_);
        std::set<std::string> hosts;
        for (const Finding& f : ofKind(r, FindingKind::SlowHost)) hosts.insert(metricText(f, "host"));
        std::string all;
        for (const auto& h : hosts) all += h + " ";
        QVERIFY2(hosts == std::set<std::string>{"node-07"}, all.c_str());
        std::vector<Finding> links;
        for (const Finding& f : ofKind(r, FindingKind::LossyLink))
            if (metricText(f, "source") == "benchmarks") links.push_back(f);
        QCOMPARE(links.size(), std::size_t{1});
        QCOMPARE(labels(links[0].ports), (std::vector<std::string>{"leaf08:20", "spine01:8"}));
        QCOMPARE(metricText(links[0], "reason"), std::string("bandwidth"));
        // Every pair across leaf08's uplink is named, explained by the link and in its incident.
        std::set<std::string> named;
        for (const Finding& f : ofKind(r, FindingKind::SlowPair)) {
            std::string a = metricText(f, "src"), b = metricText(f, "dst");
            named.insert(a + "|" + b);
            const bool across = sweep_.behindSlowUplink.count(a) != sweep_.behindSlowUplink.count(b);
            if (across && a != sweep_.halfSpeedHost && b != sweep_.halfSpeedHost) {
                QCOMPARE(metricText(f, "blamed_link"), std::string("leaf08 p20 <-> spine01 p8"));
                QCOMPARE(f.incident, links[0].incident);
            }
        }
        QCOMPARE(named, sweep_.badPairs());
    }
};

QTEST_GUILESS_MAIN(TestAnalysisPairwise)
#include "tst_analysis_pairwise.moc"
