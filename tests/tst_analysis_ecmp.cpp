// ecmp_imbalance: one of a leaf's up-links carries far more than its siblings. Traps: low-load
// noise, a two-sample imbalance, balanced load, down-links, a counter reset inside the run, and a
// busiest link that is already a hot link (left to hot_link unless skip_hot is off).
#include "analysis_fixture.h"

#include <set>

using namespace atest;

namespace {

// leaf01 and leaf02, each with one host and an up-link to each of four spines.
Fabric fabric() {
    MiniFabric m;
    const NodeId l1 = m.sw("leaf01"), l2 = m.sw("leaf02");
    std::vector<NodeId> spines;
    for (int s = 1; s <= 4; ++s) spines.push_back(m.sw("spine0" + std::to_string(s)));
    m.link(l1, 1, m.host("dgx001 mlx5_0"), 1);
    m.link(l2, 1, m.host("dgx002 mlx5_0"), 1);
    for (int s = 0; s < 4; ++s) {
        m.link(l1, 9 + s, spines[static_cast<std::size_t>(s)], 1);
        m.link(l2, 9 + s, spines[static_cast<std::size_t>(s)], 2);
    }
    return m.build();
}

// leaf01's four up-links: port 9 follows `busy`, the others `rest`.
std::string uplinks(const std::vector<double>& busy, const std::vector<double>& rest) {
    std::string s = rows("leaf01", 9, "xmit_bytes", hdrBytes(busy));
    for (int p = 10; p <= 12; ++p) s += rows("leaf01", p, "xmit_bytes", hdrBytes(rest));
    return s;
}

const std::vector<double> kBusy{0.3, 0.3, 0.6, 0.65, 0.6, 0.7, 0.6, 0.6, 0.3, 0.3};
const std::vector<double> kRest{0.3, 0.3, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3};

} // namespace

class TestEcmpImbalance : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void busiestUplinkIsFound() {
        const auto fs = ofKind(analyzeStore(stores_.make(fabric(), uplinks(kBusy, kRest))), FindingKind::EcmpImbalance);
        QCOMPARE(fs.size(), std::size_t{1});
        const Finding& f = fs[0];
        QCOMPARE(labels(f.ports), (std::vector<std::string>{"leaf01:9", "spine01:1", "leaf01:10", "leaf01:11", "leaf01:12"}));
        QCOMPARE(sev(f), std::string("warning"));
        QCOMPARE(f.start, static_cast<double>(kT0 + 20));
        QCOMPARE(f.end, static_cast<double>(kT0 + 80));
        QCOMPARE(metric(f, "samples"), 6.0);
        QCOMPARE(metric(f, "group_size"), 4.0);
        // 0.7 against a mean of (0.7 + 3 x 0.2) / 4 = 0.325.
        QCOMPARE(metric(f, "peak_ratio"), 2.154);
    }

    void lowLoadNoiseIsNotImbalance() {
        const std::vector<double> busy(10, 0.12), rest(10, 0.03);  // 2.3x, but the mean is 5%
        QVERIFY(ofKind(analyzeStore(stores_.make(fabric(), uplinks(busy, rest))), FindingKind::EcmpImbalance).empty());
    }

    void twoSamplesAreNotImbalance() {
        const std::vector<double> busy{0.3, 0.6, 0.6, 0.3, 0.6, 0.6, 0.3, 0.3, 0.3, 0.3};
        const std::vector<double> rest(10, 0.2);
        const std::string db = stores_.make(fabric(), uplinks(busy, rest));
        QVERIFY(ofKind(analyzeStore(db), FindingKind::EcmpImbalance).empty());
        QCOMPARE(ofKind(analyzeStore(db, parseAnalysisConfig(R"({"ecmp_imbalance": {"min_samples": 2}})")), FindingKind::EcmpImbalance).size(),
                 std::size_t{2});
    }

    void balancedLoadIsQuiet() {
        const std::vector<double> even(10, 0.6);
        QVERIFY(ofKind(analyzeStore(stores_.make(fabric(), uplinks(even, even))), FindingKind::EcmpImbalance).empty());
    }

    void downLinksAreNotAnEcmpGroup() {
        // spine01 sends far more to leaf01 than to leaf02: down-links, not equal-cost next hops.
        const std::string csv = rows("spine01", 1, "xmit_bytes", hdrBytes(std::vector<double>(10, 0.7))) +
                                rows("spine01", 2, "xmit_bytes", hdrBytes(std::vector<double>(10, 0.1)));
        QVERIFY(ofKind(analyzeStore(stores_.make(fabric(), csv)), FindingKind::EcmpImbalance).empty());
    }

    void resetInsideTheRunBreaksIt() {
        // Port 10 reboots in the middle of a 4-interval imbalance: the interval across the reset
        // has no rate, so the run splits into 1 + 2 intervals, each too short.
        const std::vector<double> busy{0.3, 0.6, 0.6, 0.6, 0.6, 0.3, 0.3}, rest{0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3};
        std::string csv = rows("leaf01", 9, "xmit_bytes", hdrBytes(busy));
        for (int p = 11; p <= 12; ++p) csv += rows("leaf01", p, "xmit_bytes", hdrBytes(rest));
        // Control: without the reset the same data is an imbalance.
        QCOMPARE(ofKind(analyzeStore(stores_.make(fabric(), csv + rows("leaf01", 10, "xmit_bytes", hdrBytes(rest)))), FindingKind::EcmpImbalance).size(),
                 std::size_t{1});
        std::vector<double> v = hdrBytes(rest);
        const double drop = v[3] - 1000;
        for (std::size_t i = 3; i < v.size(); ++i) v[i] -= drop;  // reads ~0 at sample 3
        QVERIFY(ofKind(analyzeStore(stores_.make(fabric(), csv + rows("leaf01", 10, "xmit_bytes", v))), FindingKind::EcmpImbalance).empty());
    }

    void hotBusiestLinkIsLeftToHotLink() {
        const std::vector<double> hot{0.3, 0.9, 0.9, 0.9, 0.9, 0.3}, rest{0.3, 0.3, 0.3, 0.3, 0.3, 0.3};
        const std::string db = stores_.make(fabric(), uplinks(hot, rest));
        const FindingsReport r = analyzeStore(db);
        QVERIFY(ofKind(r, FindingKind::EcmpImbalance).empty());
        QCOMPARE(ofKind(r, FindingKind::HotLink).size(), std::size_t{1});
        const auto fs = ofKind(analyzeStore(db, parseAnalysisConfig(R"({"ecmp_imbalance": {"skip_hot": false}})")), FindingKind::EcmpImbalance);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(label(fs[0].ports[0]), std::string("leaf01:9"));
    }

    // A fabric large enough that the up-link groups (260 leaves) and the 2,080 xmit_wait series
    // are read on worker threads: every 13th leaf is imbalanced on port 9 and congested on port
    // 10; three threads name exactly those, with one connection's findings in its order.
    void largeFabricGivesOneConnectionsFindingsOnThreads() {
        MiniFabric m;
        std::vector<NodeId> spines;
        for (int s = 1; s <= 8; ++s) spines.push_back(m.sw("spine" + std::to_string(s), 260));
        std::string csv;
        std::set<std::string> imbalanced, congested;
        std::vector<double> waits{0};
        for (double share : {0.01, 0.01, 0.5, 0.6, 0.7, 0.6, 0.55, 0.5, 0.01, 0.01}) waits.push_back(waits.back() + share * 10 / 4e-9);
        const std::vector<double> quiet(waits.size(), 0);
        for (int l = 1; l <= 260; ++l) {
            const std::string leaf = "leaf" + std::to_string(1000 + l);
            const NodeId n = m.sw(leaf);
            m.link(n, 1, m.host("h" + std::to_string(1000 + l) + " mlx5_0"), 1);
            const bool odd = l % 13 == 0;
            if (odd) {
                imbalanced.insert(leaf + ":9");
                congested.insert(leaf + ":10");
            }
            for (int s = 0; s < 8; ++s) {
                m.link(n, 9 + s, spines[static_cast<std::size_t>(s)], l);
                csv += rows(leaf, 9 + s, "xmit_bytes", hdrBytes(odd && s == 0 ? kBusy : kRest));
                csv += rows(leaf, 9 + s, "xmit_wait", odd && s == 1 ? waits : quiet);
            }
        }
        const std::string db = stores_.make(m.build(), csv);
        FindingsReport one;
        {
            const Store rw(db);  // read-write: one connection, one pass
            one = analyze(rw, AnalysisWindow{}, AnalysisConfig{});
        }
        qputenv("FABSCOPE_THREADS", "3");
        const FindingsReport threads = analyzeStore(db);
        qunsetenv("FABSCOPE_THREADS");
        std::set<std::string> named, roots;
        for (const Finding& f : ofKind(threads, FindingKind::EcmpImbalance)) named.insert(label(f.ports[0]));
        for (const Finding& f : ofKind(threads, FindingKind::CongestionTree)) roots.insert(label(*f.origin));
        QCOMPARE(named, imbalanced);
        QCOMPARE(roots, congested);
        QCOMPARE(threads.findings.size(), one.findings.size());
        for (std::size_t i = 0; i < threads.findings.size(); ++i) {
            QCOMPARE(threads.findings[i].id, one.findings[i].id);
            QCOMPARE(threads.findings[i].summary, one.findings[i].summary);
        }
    }
};

QTEST_GUILESS_MAIN(TestEcmpImbalance)
#include "tst_analysis_ecmp.moc"
