// pfc_storm: a host NIC that stops draining sends pauses; the pauses spread upstream through the
// leaf and the spine. The origin is the port that sends pauses without receiving any. Traps: a
// one-sample blip, a low steady pause share, a handful of pause frames.
#include "analysis_fixture.h"
#include "core/tiers.h"
#include "core/timeseries/link_series.h"

#include <array>

using namespace atest;

namespace {

Fabric fabric(int dgx004Width = 4) {
    MiniFabric m;
    const NodeId l1 = m.sw("leaf01"), l2 = m.sw("leaf02"), s1 = m.sw("spine01");
    const NodeId h1 = m.host("dgx001 mlx5_0"), h2 = m.host("dgx002 mlx5_0"), h3 = m.host("dgx003 mlx5_0"),
                 h4 = m.host("dgx004 mlx5_0");
    m.link(l1, 1, h1, 1);
    m.link(l1, 2, h2, 1);
    m.link(l2, 1, h3, 1);
    m.link(l2, 2, h4, 1, dgx004Width);
    m.link(l1, 9, s1, 1);
    m.link(l2, 9, s1, 2);
    return m.build();
}

// Cumulative pause microseconds from per-10 s-interval paused shares.
std::vector<double> pausedUs(const std::vector<double>& shares) {
    std::vector<double> d;
    for (double s : shares) d.push_back(s * 10e6);
    return cumulative(d);
}

const std::vector<double> kNone(10, 0);
const std::vector<double> kStorm{0, 0.8, 0.9, 0.95, 0.9, 0.85, 0, 0, 0, 0};
const std::vector<double> kSpread{0, 0.6, 0.7, 0.7, 0.6, 0.6, 0, 0, 0, 0};

std::string tx(const std::string& node, int port, const std::vector<double>& shares) {
    return rows(node, port, "pfc_tx_pause_us_prio3", pausedUs(shares));
}

std::string quiet() {
    return tx("leaf01", 9, kNone) + tx("leaf02", 1, kNone) + tx("leaf02", 2, kNone) + tx("spine01", 2, kNone) +
           tx("dgx001 mlx5_0", 1, kNone) + rows("dgx003 mlx5_0", 1, "pfc_rx_pause_us_prio3", pausedUs(kNone));
}

// A RoCE leaf-spine as per-device `lldpctl -f json` files (lldpd 1.0 shape): gpu1/gpu2 NICs eth2
// on leaf01/leaf02 Ethernet0, leaves' Ethernet48 to spine01 Ethernet0/Ethernet4.
std::string lldpFile(const std::vector<std::array<std::string, 3>>& neighbours) {  // local if, system, remote port
    std::string s = "{\n  \"lldp\": {\n    \"interface\": [\n";
    bool first = true;
    for (const auto& [ifname, sys, port] : neighbours) {
        // One MAC per system, the same in every file: its name's length and last character.
        const std::string mac = "0c:42:a1:00:" + std::to_string(10 + sys.size()) + ":" + std::to_string(10 + sys.back() % 80);
        s += std::string(first ? "" : ",\n") + R"({")" + ifname + R"(": {"via": "LLDP", "rid": "1", "age": "0 day, 01:00:00",
      "chassis": {")" + sys + R"(": {"id": {"type": "mac", "value": ")" + mac + R"("},
        "descr": "SONiC Software Version: SONiC.202305", "mgmt-ip": "10.0.0.1",
        "capability": [{"type": "Bridge", "enabled": true}, {"type": "Router", "enabled": true}]}},
      "port": {"id": {"type": "ifname", "value": ")" + port + R"("}, "descr": "etp", "ttl": "120"}}})";
        first = false;
    }
    return s + "\n    ]\n  }\n}\n";
}

std::string roceStore(Stores& stores, const std::string& csv) {
    const std::string dir = stores.path("roce" + std::to_string(csv.size()));
    std::filesystem::create_directories(dir + "/lldp");
    std::ofstream(dir + "/lldp/gpu1.json") << lldpFile({{"eth2", "leaf01", "Ethernet0"}});
    std::ofstream(dir + "/lldp/gpu2.json") << lldpFile({{"eth2", "leaf02", "Ethernet0"}});
    std::ofstream(dir + "/lldp/leaf01.json") << lldpFile({{"Ethernet0", "gpu1", "eth2"}, {"Ethernet48", "spine01", "Ethernet0"}});
    std::ofstream(dir + "/lldp/leaf02.json") << lldpFile({{"Ethernet0", "gpu2", "eth2"}, {"Ethernet48", "spine01", "Ethernet4"}});
    std::ofstream(dir + "/lldp/spine01.json") << lldpFile({{"Ethernet0", "leaf01", "Ethernet48"}, {"Ethernet4", "leaf02", "Ethernet48"}});
    std::ofstream(dir + "/counters.csv") << "timestamp,node,port,counter,value\n" << csv;
    const std::string db = dir + ".sqlite";
    Store store(db);
    ImporterRegistry registry;
    for (const std::string& p : {dir + "/lldp", dir + "/counters.csv"}) {
        const auto summary = ImportRunner(store, registry).run({p}, {});
        for (const auto& d : summary.diagnostics) qWarning("%s", d.format().c_str());
        if (summary.anyFailed()) throw std::runtime_error("import failed: " + p);
    }
    return db;
}

// Long-CSV rows for an Ethernet interface.
std::string ethRows(const std::string& node, const std::string& port, const std::string& counter, const std::vector<double>& v) {
    std::ostringstream s;
    for (std::size_t i = 0; i < v.size(); ++i) s << kT0 + static_cast<std::int64_t>(i) * 10 << ',' << node << ',' << port << ',' << counter << ',' << v[i] << '\n';
    return s.str();
}

} // namespace

class TestPfcStorm : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void stormIsTracedBackToTheNic() {
        const std::string db = stores_.make(fabric(), quiet() + tx("dgx003 mlx5_0", 1, kStorm) + tx("leaf02", 9, kSpread) +
                                                          tx("spine01", 1, kSpread) + tx("leaf01", 1, kSpread));
        const auto fs = ofKind(analyzeStore(db), FindingKind::PfcStorm);
        QCOMPARE(fs.size(), std::size_t{1});
        const Finding& f = fs[0];
        QVERIFY(f.origin);
        QCOMPARE(label(*f.origin), std::string("dgx003 mlx5_0:1"));
        QCOMPARE(labels(f.ports), (std::vector<std::string>{"dgx003 mlx5_0:1", "leaf02:9", "spine01:1", "leaf01:1"}));
        QCOMPARE(sev(f), std::string("critical"));
        QCOMPARE(f.start, static_cast<double>(kT0 + 10));
        QCOMPARE(f.end, static_cast<double>(kT0 + 60));
        QCOMPARE(metricText(f, "priorities"), std::string("3"));
        QCOMPARE(metricText(f, "measured_as"), std::string("duration"));
        QCOMPARE(metric(f, "spread_ports"), 3.0);
        QCOMPARE(metric(f, "origin_peak_pause_share"), 0.95);
    }

    void roceStormFromLldpFabric() {
        // gpu2's NIC stops draining: it pauses leaf02, leaf02 pauses the spine, the spine leaf01.
        const std::string csv = ethRows("gpu2", "eth2", "pfc_tx_pause_us_prio3", pausedUs(kStorm)) +
                                ethRows("leaf02", "Ethernet48", "pfc_tx_pause_us_prio3", pausedUs(kSpread)) +
                                ethRows("spine01", "Ethernet0", "pfc_tx_pause_us_prio3", pausedUs(kSpread)) +
                                ethRows("leaf01", "Ethernet0", "pfc_tx_pause_us_prio3", pausedUs(kNone)) +
                                ethRows("gpu1", "eth2", "pfc_tx_pause_us_prio3", pausedUs(kNone));
        const auto fs = ofKind(analyzeStore(roceStore(stores_, csv)), FindingKind::PfcStorm);
        QCOMPARE(fs.size(), std::size_t{1});
        QVERIFY(fs[0].origin);
        QCOMPARE(label(*fs[0].origin), std::string("gpu2:eth2"));
        QCOMPARE(labels(fs[0].ports), (std::vector<std::string>{"gpu2:eth2", "leaf02:Ethernet48", "spine01:Ethernet0"}));
        QVERIFY(fs[0].origin->guid.empty());  // Ethernet: no GUID, omitted from the JSON
    }

    void pauseFramesAreConvertedToTime() {
        // 4xHDR (200 Gb/s): one frame of 65535 quanta pauses 167.8 us, and a port kept paused
        // refreshes XOFF twice per quanta time: 80000 frames in 10 s = 67% paused.
        const std::vector<double> frames = cumulative({0, 80000, 80000, 80000, 80000, 0, 0});
        const std::string db = stores_.make(fabric(), rows("dgx004 mlx5_0", 1, "pfc_tx_pause_prio0", frames));
        const auto fs = ofKind(analyzeStore(db), FindingKind::PfcStorm);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(label(*fs[0].origin), std::string("dgx004 mlx5_0:1"));
        QCOMPARE(fs[0].ports.size(), std::size_t{1});
        QCOMPARE(metricText(fs[0], "measured_as"), std::string("frames"));
        QCOMPARE(sev(fs[0]), std::string("warning"));  // no spread, peak below 90%

        // A few thousand frames (1.7-8%) are ordinary flow control, not a storm.
        const std::vector<double> few = cumulative({0, 1000, 5000, 2000, 4000, 0, 0});
        QVERIFY(ofKind(analyzeStore(stores_.make(fabric(), rows("dgx004 mlx5_0", 1, "pfc_tx_pause_prio0", few))), FindingKind::PfcStorm).empty());
    }

    void pauseFramesAreTimedAtTheSpeedThen() {
        // 20000 frames per 10 s hold a 4xHDR (200 Gb/s) link 17 % of the time, a 1x (50 Gb/s) one
        // 67 %: the frames count at the speed in force when they were sent, not the latest one.
        const std::vector<double> frames = cumulative({0, 20000, 20000, 20000, 20000, 0, 0});
        const std::string csv = rows("dgx004 mlx5_0", 1, "pfc_tx_pause_prio0", frames);
        const std::string fastThenSlow = stores_.make(fabric(4), csv);
        stores_.addSnapshot(fastThenSlow, fabric(1), "B", kT0 + 3600);  // after the pauses: the cable swapped
        QVERIFY(ofKind(analyzeStore(fastThenSlow), FindingKind::PfcStorm).empty());
        const std::string slowThenFast = stores_.make(fabric(1), csv);
        stores_.addSnapshot(slowThenFast, fabric(4), "B", kT0 + 3600);
        const auto fs = ofKind(analyzeStore(slowThenFast), FindingKind::PfcStorm);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(label(*fs[0].origin), std::string("dgx004 mlx5_0:1"));

        // The views' pause share of the leaf -> dgx004 direction says the same.
        for (const auto& [db, want] : {std::pair{fastThenSlow, 16.8}, std::pair{slowThenFast, 67.1}}) {
            const Store store(db, Store::Mode::ReadOnly);
            const auto snap = store.latestSnapshot();
            QVERIFY(snap);
            const Fabric f = store.loadFabric(snap->id);
            const LinkTimeSeries ts = loadLinkTimeSeries(store, snap->id, f, computeTiers(f));
            std::optional<std::size_t> link;
            for (std::size_t l = 0; l < f.links.size(); ++l)
                for (PortId p : {f.links[l].a, f.links[l].b})
                    if (f.node(f.port(p).node).description == "dgx004 mlx5_0") link = l;
            QVERIFY(link);
            const double peak = static_cast<double>(ts.peak(LinkMetric::PfcPauseMax, *link));
            QVERIFY2(std::abs(peak - want) < 1.0, std::to_string(peak).c_str());
        }
    }

    void oneSampleBlipIsNotAStorm() {
        const std::vector<double> blip{0, 1, 0, 0, 1, 1, 0, 0, 0, 0};
        const std::string db = stores_.make(fabric(), quiet() + tx("dgx003 mlx5_0", 1, blip));
        QVERIFY(ofKind(analyzeStore(db), FindingKind::PfcStorm).empty());
        // min_samples is read: two consecutive full intervals pass at 2.
        QCOMPARE(ofKind(analyzeStore(db, parseAnalysisConfig(R"({"pfc_storm": {"min_samples": 2}})")), FindingKind::PfcStorm).size(),
                 std::size_t{1});
    }

    void steadyLowPausingIsNotAStorm() {
        const std::vector<double> low(10, 0.3);
        const std::string db = stores_.make(fabric(), quiet() + tx("dgx003 mlx5_0", 1, low) + tx("leaf02", 9, low));
        QVERIFY(ofKind(analyzeStore(db), FindingKind::PfcStorm).empty());
    }

    void aNicAndItsLeafPausingEachOtherIsNoDeadlock() {
        // The NIC and its leaf port pause each other at similar shares: neither sends pauses
        // without receiving them, and one switch is no PFC deadlock (that needs a cycle across
        // two switches): no finding, rather than a one-link "cycle".
        const std::string db = stores_.make(fabric(), tx("dgx003 mlx5_0", 1, kStorm) + tx("leaf02", 1, kSpread));
        QVERIFY(ofKind(analyzeStore(db), FindingKind::PfcStorm).empty());
        // origin_rx_ratio is read: at 0.8 the NIC, receiving 0.64 for 0.88 sent, is the origin.
        const auto fs = ofKind(analyzeStore(db, parseAnalysisConfig(R"({"pfc_storm": {"origin_rx_ratio": 0.8}})")), FindingKind::PfcStorm);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(label(*fs[0].origin), std::string("dgx003 mlx5_0:1"));
    }

    void receivedPausesDisqualifyAnOrigin() {
        // Alone the NIC would be the origin; its own rx counters say it is paused as much.
        const std::string db = stores_.make(fabric(), tx("dgx003 mlx5_0", 1, kStorm) +
                                                          rows("dgx003 mlx5_0", 1, "pfc_rx_pause_us_prio3", pausedUs(kSpread)));
        for (const auto& f : ofKind(analyzeStore(db), FindingKind::PfcStorm)) QVERIFY(!f.origin);
    }
};

QTEST_GUILESS_MAIN(TestPfcStorm)
#include "tst_analysis_pfc.moc"
