// congestion_tree: ports whose PortXmitWait covers much of the interval, joined into the tree that
// points at the over-subscribed receiver. Traps: a short blip, a low share, a saturated 32-bit
// counter, and a tick length that makes the same ticks harmless.
#include "analysis_fixture.h"

#include <tuple>

using namespace atest;

namespace {

// dgx001 -> leaf01 p9 -> spine01 p2 -> leaf02 p1 -> dgx003: an incast into dgx003.
Fabric fabric(int dgx003Width = 4) {
    MiniFabric m;
    const NodeId l1 = m.sw("leaf01"), l2 = m.sw("leaf02"), s1 = m.sw("spine01");
    const NodeId h1 = m.host("dgx001 mlx5_0"), h2 = m.host("dgx002 mlx5_0"), h3 = m.host("dgx003 mlx5_0"),
                 h4 = m.host("dgx004 mlx5_0");
    m.link(l1, 1, h1, 1);
    m.link(l1, 2, h2, 1);
    m.link(l2, 1, h3, 1, dgx003Width);
    m.link(l2, 2, h4, 1);
    m.link(l1, 9, s1, 1);
    m.link(l2, 9, s1, 2);
    return m.build();
}

// Ticks per 10 s interval for a wait share at the default 4 ns tick.
double ticks(double share) { return share * 10 / 4e-9; }

std::vector<double> waits(const std::vector<double>& shares) {
    std::vector<double> d;
    for (double s : shares) d.push_back(ticks(s));
    return cumulative(d);
}

const std::vector<double> kQuiet(12, 0.01);
const std::vector<double> kCongested{0.01, 0.01, 0.5, 0.6, 0.7, 0.6, 0.55, 0.5, 0.01, 0.01, 0.01, 0.01};
const std::vector<double> kSpread{0.01, 0.01, 0.4, 0.45, 0.4, 0.35, 0.4, 0.4, 0.01, 0.01, 0.01, 0.01};

std::string quietElsewhere() {
    return rows("leaf01", 1, "xmit_wait", waits(kQuiet)) + rows("leaf01", 2, "xmit_wait", waits(kQuiet)) +
           rows("leaf02", 2, "xmit_wait", waits(kQuiet)) + rows("leaf02", 9, "xmit_wait", waits(kQuiet)) +
           rows("spine01", 1, "xmit_wait", waits(kQuiet)) + rows("dgx003 mlx5_0", 1, "xmit_wait", waits(kQuiet));
}

} // namespace

class TestCongestionTree : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void incastTreePointsAtTheReceiver() {
        const std::string db = stores_.make(
            fabric(), quietElsewhere() + rows("leaf02", 1, "xmit_wait", waits(kCongested)) +
                          rows("spine01", 2, "xmit_wait", waits(kSpread)) + rows("leaf01", 9, "xmit_wait", waits(kSpread)) +
                          rows("dgx001 mlx5_0", 1, "xmit_wait", waits(kSpread)));
        const auto fs = ofKind(analyzeStore(db), FindingKind::CongestionTree);
        QCOMPARE(fs.size(), std::size_t{1});
        const Finding& f = fs[0];
        QVERIFY(f.origin);
        QCOMPARE(label(*f.origin), std::string("leaf02:1"));
        QCOMPARE(labels(f.ports), (std::vector<std::string>{"leaf02:1", "dgx003 mlx5_0:1", "spine01:2", "leaf01:9",
                                                            "dgx001 mlx5_0:1"}));
        QCOMPARE(sev(f), std::string("critical"));  // root peaks at 70% >= 60%
        QCOMPARE(metric(f, "tree_ports"), 4.0);
        QCOMPARE(metric(f, "depth"), 3.0);
        QCOMPARE(metric(f, "root_peak_wait_share"), 0.7);
        QCOMPARE(f.start, static_cast<double>(kT0 + 20));
        QCOMPARE(f.end, static_cast<double>(kT0 + 80));
        QVERIFY(metricText(f, "spread").find("spine01 p2 -> leaf02 p1") != std::string::npos);
    }

    void lostGbpsAreOfTheSpeedThen() {
        // The root leaf02 p1 -> dgx003 waited 57.5 % of the time on a 4xHDR (200 Gb/s) link: ~115
        // Gb/s lost. A later snapshot finds the link at 1x (50 Gb/s); the loss stays of 200 Gb/s.
        const std::string csv = quietElsewhere() + rows("leaf02", 1, "xmit_wait", waits(kCongested));
        for (const auto& [before, after, want] : {std::tuple{4, 1, 115.0}, std::tuple{1, 4, 28.75}}) {
            const std::string db = stores_.make(fabric(before), csv);
            stores_.addSnapshot(db, fabric(after), "B", kT0 + 3600);
            const auto fs = ofKind(analyzeStore(db), FindingKind::CongestionTree);
            QCOMPARE(fs.size(), std::size_t{1});
            QVERIFY2(std::abs(metric(fs[0], "root_lost_gbps_est") - want) < 1, std::to_string(metric(fs[0], "root_lost_gbps_est")).c_str());
        }
    }

    void mildRootIsAWarning() {
        const std::string db = stores_.make(fabric(), quietElsewhere() + rows("leaf02", 1, "xmit_wait", waits(kSpread)));
        const auto fs = ofKind(analyzeStore(db), FindingKind::CongestionTree);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(sev(fs[0]), std::string("warning"));
        QCOMPARE(labels(fs[0].ports), (std::vector<std::string>{"leaf02:1", "dgx003 mlx5_0:1"}));
    }

    void shortBlipIsNotCongestion() {
        const std::vector<double> blip{0.01, 0.01, 0.9, 0.9, 0.01, 0.01, 0.9, 0.01, 0.01, 0.01, 0.01, 0.01};
        const std::string db = stores_.make(fabric(), quietElsewhere() + rows("leaf02", 1, "xmit_wait", waits(blip)));
        QVERIFY(ofKind(analyzeStore(db), FindingKind::CongestionTree).empty());
    }

    void lowShareIsNotCongestion() {
        const std::vector<double> low(12, 0.2);
        const std::string db = stores_.make(fabric(), quietElsewhere() + rows("leaf02", 1, "xmit_wait", waits(low)));
        QVERIFY(ofKind(analyzeStore(db), FindingKind::CongestionTree).empty());
        // The same data with the threshold lowered: the share key is read.
        QCOMPARE(ofKind(analyzeStore(db, parseAnalysisConfig(R"({"congestion_tree": {"share": 0.15}})")), FindingKind::CongestionTree).size(),
                 std::size_t{1});
    }

    void tickLengthIsConfigurable() {
        const std::string db = stores_.make(fabric(), quietElsewhere() + rows("leaf02", 1, "xmit_wait", waits(kCongested)));
        QCOMPARE(ofKind(analyzeStore(db), FindingKind::CongestionTree).size(), std::size_t{1});
        // Same ticks at 1 ns each are a quarter of the time: below 30%.
        QVERIFY(ofKind(analyzeStore(db, parseAnalysisConfig(R"({"congestion_tree": {"tick_ns": 1}})")), FindingKind::CongestionTree).empty());
    }

    void saturatedCounterIsNotCongestion() {
        // A legacy 32-bit PortXmitWait stuck at its ceiling: no interval has a rate.
        std::vector<double> v{0, 1e6, 2e6};
        while (v.size() < 13) v.push_back(4294967295.0);
        const std::string db = stores_.make(fabric(), quietElsewhere() + rows("leaf02", 1, "xmit_wait", v));
        AnalysisConfig one;
        one.congestionTree.minSamples = 1;
        QVERIFY(ofKind(analyzeStore(db, one), FindingKind::CongestionTree).empty());
    }
};

QTEST_GUILESS_MAIN(TestCongestionTree)
#include "tst_analysis_congestion.moc"
