// RoCE diagnosis on a leaf-spine imported the usual way: per-device `lldpctl -f json` files whose
// neighbour entries state the port speed as lldpd's MAU type, host NIC counters as `ethtool -S`
// of mlx5 (`tx_prio3_pause_duration`, `rx_prio3_pause`), switch counters by SAI name
// (`SAI_PORT_STAT_PFC_3_TX_PKTS`, `SAI_PORT_STAT_IF_OUT_OCTETS`) in the long CSV. Scenarios: the
// classic NIC PFC storm, a victim-only fabric, a true cyclic dependency, a one-interval blip.
#include "roce_pfc_fixture.h"
#include "core/linkrate.h"

#include <map>

using namespace atest;
using namespace rocetest;

namespace {

std::vector<std::string> portLabels(const Finding& f) {
    std::vector<std::string> out;
    for (const auto& p : f.ports) out.push_back(label(p));
    return out;
}

bool mentionsDeadlock(const Finding& f) { return f.summary.find("deadlock") != std::string::npos; }

}  // namespace

class TestRocePfc : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void nicStormHasTheNicAsOrigin() {
        // gpu5's NIC stops draining: it pauses leaf03 95% of the time and receives nothing; leaf03
        // pauses both spines and its two other hosts; spine01 pauses leaf01 part of the time.
        RoceFabric f;
        f.pauses("gpu5", "eth2", during(0.95));
        for (const std::string p : {"Ethernet48", "Ethernet52"}) f.pauses("leaf03", p, during(0.75));
        for (const std::string p : {"Ethernet4", "Ethernet8"}) f.pauses("leaf03", p, during(0.6));
        f.pauses("spine01", "Ethernet0", during(0.6, 2, 8));
        f.pauses("spine02", "Ethernet4", during(0.35, 2, 8));
        // leaf01's uplink to spine01 ran at 90-98 % of 400 Gb/s for 100 s.
        f.bytes("leaf01", "Ethernet48", {0.1, 0.92, 0.95, 0.98, 0.9, 0.93, 0.96, 0.97, 0.91, 0.94, 0.95});
        const auto report = analyzeStore(f.store(stores_, "storm"));

        const auto storms = ofKind(report, FindingKind::PfcStorm);
        QCOMPARE(storms.size(), std::size_t{1});
        const Finding& s = storms[0];
        QVERIFY(s.origin);
        QCOMPARE(label(*s.origin), std::string("gpu5:eth2"));
        QVERIFY(!mentionsDeadlock(s));
        const auto ports = portLabels(s);
        QCOMPARE(ports.front(), std::string("gpu5:eth2"));
        for (const std::string p : {"leaf03:Ethernet48", "leaf03:Ethernet52", "leaf03:Ethernet4", "leaf03:Ethernet8", "spine01:Ethernet0"})
            QVERIFY2(std::find(ports.begin(), ports.end(), p) != ports.end(), p.c_str());
        QCOMPARE(ports.size(), std::size_t{6});  // spine02 at 35 % does not storm
        QCOMPARE(metricText(s, "hop_pause_shares").substr(0, 5), std::string("0.95,"));
        QCOMPARE(metric(s, "origin_received_share"), 0.0);
        QCOMPARE(metricText(s, "measured_as"), std::string("duration"));  // the NIC's pause durations
        QCOMPARE(sev(s), std::string("critical"));

        // The hot uplink, with the capacity LLDP stated.
        const auto hot = ofKind(report, FindingKind::HotLink);
        QCOMPARE(hot.size(), std::size_t{1});
        QCOMPARE(portLabels(hot[0]), (std::vector<std::string>{"leaf01:Ethernet48", "spine01:Ethernet0"}));
        QVERIFY2(hot[0].summary.find("400 Gb/s") != std::string::npos, hot[0].summary.c_str());
    }

    void victimOnlyFabricIsNoStorm() {
        // gpu5 is a slow receiver that does drain: it pauses 35 % of the time; its leaf and the
        // spines pass the back-pressure upstream at higher shares. Every storming port receives
        // pauses itself: victims, no origin, and no cycle.
        RoceFabric f;
        f.pauses("gpu5", "eth2", during(0.35));
        for (const std::string p : {"Ethernet48", "Ethernet52", "Ethernet4", "Ethernet8"}) f.pauses("leaf03", p, during(0.6));
        f.pauses("spine01", "Ethernet0", during(0.55));
        const auto storms = ofKind(analyzeStore(f.store(stores_, "victims")), FindingKind::PfcStorm);
        QVERIFY2(storms.empty(), storms.empty() ? "" : storms[0].summary.c_str());
    }

    void cyclicDependencyAcrossSwitchesIsADeadlock() {
        // leaf01 pauses spine02, spine02 pauses leaf02, leaf02 pauses spine01, spine01 pauses
        // leaf01: each is paused by the previous one, and no host started it.
        RoceFabric f;
        f.pauses("leaf01", "Ethernet52", during(0.7));
        f.pauses("spine02", "Ethernet4", during(0.7));
        f.pauses("leaf02", "Ethernet48", during(0.7));
        f.pauses("spine01", "Ethernet0", during(0.7));
        const auto storms = ofKind(analyzeStore(f.store(stores_, "cycle")), FindingKind::PfcStorm);
        QCOMPARE(storms.size(), std::size_t{1});
        QVERIFY(!storms[0].origin);
        QVERIFY(mentionsDeadlock(storms[0]));
        auto ports = portLabels(storms[0]);
        std::sort(ports.begin(), ports.end());
        QCOMPARE(ports, (std::vector<std::string>{"leaf01:Ethernet52", "leaf02:Ethernet48", "spine01:Ethernet0", "spine02:Ethernet4"}));
        QCOMPARE(metric(storms[0], "cycle_switches"), 4.0);

        // Held for only two intervals, the same cycle is no deadlock.
        RoceFabric brief;
        for (const auto& [n, p] : std::vector<std::pair<std::string, std::string>>{
                 {"leaf01", "Ethernet52"}, {"spine02", "Ethernet4"}, {"leaf02", "Ethernet48"}, {"spine01", "Ethernet0"}})
            brief.pauses(n, p, during(0.7, 3, 5));
        const auto cfg = parseAnalysisConfig(R"({"pfc_storm": {"min_samples": 2}})");
        QVERIFY(ofKind(analyzeStore(brief.store(stores_, "brief"), cfg), FindingKind::PfcStorm).empty());
    }

    void ethernetSpeedsFromWhatToolsWrite() {
        const std::vector<std::pair<std::string, std::string>> cases{
            {"400GbaseR - 400GBASE-R PCS/PMA over undefined PHY", "400GbE"},  // lldpd JSON / keyvalue "current"
            {"100GbaseCR4 - 100GBASE-R PCS/PMA over 4 lane shielded copper", "100GbE"},
            {"10GigBaseR - 10GBASE-R PCS/PMA", "10GbE"},
            {"2p5GigT - 2.5GBASE-T", "2.5GbE"},
            {"1000BaseTFD - Four-pair Category 5 UTP, full duplex mode", "1GbE"},
            {"400GBASE-SR8", "400GbE"},
            {"Speed: 400000Mb/s", "400GbE"},  // ethtool
            {"800G", "800GbE"},              // SONiC show interfaces status
        };
        for (const auto& [text, want] : cases) {
            const auto got = ethernetSpeed(text);
            QVERIFY2(got, text.c_str());
            QCOMPARE(*got, want);
        }
        QVERIFY(!ethernetSpeed("unknown"));
        QVERIFY(!ethernetSpeed("Other or unknown"));
        QCOMPARE(capacityBps(1, "400GbE"), std::uint64_t{400'000'000'000});
        QCOMPARE(widthSpeedLabel(1, "400GbE"), std::string("400GbE"));
    }

    void roceJobStragglerIsAGuessAmongTheEcmpRoutes() {
        // A 7-rank job, one rank per host, as a ring in rank order: only rank 1 (gpu2, leaf01) ->
        // rank 2 (gpu3, leaf02) leaves leaf01, whose two uplinks run at 98 % and 90 %. No
        // forwarding tables on Ethernet: the pair is weighed over both equal-cost routes.
        RoceFabric f;
        f.bytes("leaf01", "Ethernet48", during(0.98, 0));
        f.bytes("leaf01", "Ethernet52", during(0.90, 0));
        f.job("# job: moe-a2a\nrank,host,device\n0,gpu1,eth2\n1,gpu2,eth2\n2,gpu3,eth2\n3,gpu4,eth2\n4,gpu5,eth2\n5,gpu6,eth2\n"
              "6,gpu7,eth2\n");
        AnalysisConfig cfg;
        cfg.stragglerPath.ringAbove = 2;  // a ring, as NCCL builds it for more ranks than this
        const auto report = analyzeStore(f.store(stores_, "roce-job"), cfg);
        const auto s = ofKind(report, FindingKind::StragglerPath);
        QCOMPARE(s.size(), std::size_t{1});
        QCOMPARE(metric(s[0], "src_rank"), 1.0);
        QCOMPARE(metric(s[0], "dst_rank"), 2.0);
        QCOMPARE(metricText(s[0], "routed_by"), std::string("equal_cost"));
        QCOMPARE(metric(s[0], "routes"), 2.0);
        QCOMPARE(metric(s[0], "pair_headroom"), 0.06);  // (2 % + 10 %) / 2
        QCOMPARE(portLabels(s[0]), (std::vector<std::string>{"leaf01:Ethernet48", "spine01:Ethernet0"}));
        QCOMPARE(metric(s[0], "bottleneck_headroom_gbps"), 8.0);  // 2 % of the 400 Gb/s LLDP stated
        QCOMPARE(metric(s[0], "job_bound_without_gbps"), 400.0);
        std::vector<std::string> path;
        for (const auto& p : s[0].path) path.push_back(label(p));
        QCOMPARE(path, (std::vector<std::string>{"gpu2:eth2", "leaf01:Ethernet4", "leaf01:Ethernet48", "spine01:Ethernet0",
                                                 "spine01:Ethernet4", "leaf02:Ethernet48", "leaf02:Ethernet0", "gpu3:eth2"}));
        QVERIFY2(s[0].summary.find("one of 2 equal-cost routes") != std::string::npos, s[0].summary.c_str());
        // The job's other pairs are kept, scored, for the GUI and report.
        QCOMPARE(report.jobs.size(), std::size_t{1});
        QCOMPARE(report.jobs[0].pairs.size(), std::size_t{7});
        QCOMPARE(report.jobs[0].stragglerFinding, s[0].id);
    }

    void endsThatDisagreeAreNamed() {
        // gpu5's NIC says it held leaf03 paused 95 % of the time; leaf03's port counted 40 % received
        // from the 4th interval on (a counter or a cable to check). The storm still has its origin.
        RoceFabric f;
        f.pauses("gpu5", "eth2", during(0.95));
        std::vector<double> counted = during(0.95);
        for (std::size_t i = 4; i < counted.size(); ++i) counted[i] = 0.40;
        f.received("leaf03", "Ethernet0", counted);
        for (const std::string p : {"Ethernet48", "Ethernet52"}) f.pauses("leaf03", p, during(0.75));
        const auto storms = ofKind(analyzeStore(f.store(stores_, "disagree")), FindingKind::PfcStorm);
        QCOMPARE(storms.size(), std::size_t{1});
        QCOMPARE(label(*storms[0].origin), std::string("gpu5:eth2"));
        QCOMPARE(metricText(storms[0], "counters_disagree"), std::string("gpu5 eth2 sent 95% but leaf03 Ethernet0 received 40%"));
    }

    void oneIntervalBlipIsNothing() {
        RoceFabric f;
        f.pauses("gpu5", "eth2", during(0.95, 4, 5));
        f.pauses("leaf03", "Ethernet48", during(0.75, 4, 5));
        QVERIFY(ofKind(analyzeStore(f.store(stores_, "blip")), FindingKind::PfcStorm).empty());
    }
};

QTEST_GUILESS_MAIN(TestRocePfc)
#include "tst_analysis_roce_pfc.moc"
