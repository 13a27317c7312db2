// The analysis finds the demo's known faults and nothing else, and does not fall for the classic
// traps of counter data: resets, saturated legacy counters, short spikes.
#include "app/cli_analyze.h"
#include "core/analysis/analyze.h"
#include "core/analysis/rates.h"
#include "core/demo_fabric.h"
#include "core/fabric_builder.h"
#include "core/store/sqlite_stmt.h"
#include "importers/import_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

using namespace fabscope;

namespace {

constexpr std::int64_t kT0 = 1700000000;

// Two switches joined port 1 <-> port 1; `spec` such as "4xSDR" (10 Gb/s).
Fabric twoSwitches(int width, const std::string& speed) {
    FabricBuilder b;
    Node n;
    n.type = NodeType::Switch;
    n.numPorts = 8;
    n.guid = "0x1001";
    n.description = "swA";
    n.lid = 1;
    const NodeId a = b.node(n);
    n.guid = "0x1002";
    n.description = "swB";
    n.lid = 2;
    const NodeId c = b.node(n);
    const PortId pa = b.port(a, "1", 1), pc = b.port(c, "1", 1);
    b.link(pa, pc, width, speed);
    b.link(pc, pa, width, speed);
    return b.take();
}

// CSV rows for one counter of one port, one sample per second from kT0.
std::string rows(const std::string& node, const std::string& counter, const std::vector<double>& values) {
    std::ostringstream s;
    s.precision(17);
    for (std::size_t i = 0; i < values.size(); ++i)
        s << kT0 + static_cast<std::int64_t>(i) << ',' << node << ",1," << counter << ',' << values[i] << '\n';
    return s.str();
}

// Cumulative byte counter of a 4xSDR (10 Gb/s) port from per-second utilisations.
// CSV rows of a cumulative counter from its per-interval increments, one sample every `step` s.
std::string stepRows(const std::string& node, const std::string& counter, const std::vector<double>& increments, int step) {
    std::ostringstream s;
    s.precision(17);
    double v = 0;
    for (std::size_t i = 0; i <= increments.size(); ++i) {
        s << kT0 + static_cast<std::int64_t>(i) * step << ',' << node << ",1," << counter << ',' << v << '\n';
        if (i < increments.size()) v += increments[i];
    }
    return s.str();
}

double metricOf(const Finding& f, const std::string& key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key && std::holds_alternative<double>(v)) return std::get<double>(v);
    return -1;
}

std::vector<double> bytesFromUtil(const std::vector<double>& util) {
    std::vector<double> v{0};
    for (double u : util) v.push_back(v.back() + u * 10e9 / 8);
    return v;
}

using PortKey = std::tuple<FindingKind, std::string, std::string, std::string, std::string>;  // kind, node, port, peer, port

std::string sev(const Finding& f) { return std::string(toString(f.severity)); }

PortKey keyOf(const Finding& f) {
    return {f.kind, f.ports.at(0).node, f.ports.at(0).port, f.ports.size() > 1 ? f.ports[1].node : "",
            f.ports.size() > 1 ? f.ports[1].port : ""};
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ImporterRegistry registry_;
    DemoManifest demo_;  // the demo store every demo test reads, made once in initTestCase
    int stores_ = 0;

    std::string p(const std::string& name) { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

    // A fresh store holding the two-switch fabric and the given CSV rows.
    // `topoTime`: when the topology file says it was generated (the snapshot's time).
    std::string smallStore(const std::string& csvRows, int width = 4, const std::string& speed = "SDR",
                           std::int64_t topoTime = kT0) {
        const std::string base = p("small" + std::to_string(++stores_));
        std::filesystem::create_directories(base);
        {
            std::ofstream topo(base + "/topology.ibnetdiscover");
            writeIbnetdiscover(twoSwitches(width, speed), topo, topoTime);
            std::ofstream(base + "/counters.csv") << "timestamp,node,port,counter,value\n" << csvRows;
        }
        const std::string db = base + ".sqlite";
        Store store(db);
        const auto summary = ImportRunner(store, registry_).run({base}, {});
        for (const auto& d : summary.diagnostics) qWarning("%s", d.format().c_str());
        if (summary.anyFailed()) throw std::runtime_error("import failed");
        return db;
    }

    // More counter rows into an existing store, as a second file (its own import).
    void importMore(const std::string& db, const std::string& csvRows) {
        const std::string file = p("more" + std::to_string(++stores_) + ".csv");
        std::ofstream(file) << "timestamp,node,port,counter,value\n" << csvRows;
        Store store(db);
        if (ImportRunner(store, registry_).run({file}, {}).anyFailed()) throw std::runtime_error("import failed");
    }

    static FindingsReport run(const std::string& db, const AnalysisConfig& cfg = {}) {
        const Store store(db, Store::Mode::ReadOnly);
        return analyze(store, {}, cfg);
    }

    static std::size_t count(const FindingsReport& r, FindingKind kind) {
        return static_cast<std::size_t>(std::count_if(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.kind == kind; }));
    }

private Q_SLOTS:
    void initTestCase() {
        demo_ = writeDemo(p("demo"), {});
        Store store(p("demo.sqlite"));
        QVERIFY(!ImportRunner(store, registry_).run({p("demo")}, {}).anyFailed());
    }

    void demoGivesExactlyTheKnownFaults() {
        const DemoManifest& manifest = demo_;
        const FindingsReport r = run(p("demo.sqlite"));
        std::set<PortKey> want, got;
        for (const auto& f : manifest.faults) want.insert({f.kind, f.node, f.port, f.peerNode, f.peerPort});
        for (const auto& f : r.findings) got.insert(keyOf(f));
        QCOMPARE(r.findings.size(), manifest.faults.size());
        QVERIFY(got == want);
        for (const auto& f : r.findings) {
            for (const auto& m : manifest.faults)
                if (f.kind == m.kind && f.kind != FindingKind::DegradedLink) {
                    QCOMPARE(f.start, static_cast<double>(m.start));
                    QCOMPARE(f.end, static_cast<double>(m.end));
                }
        }
        QCOMPARE(r.windowStart, static_cast<double>(kT0));
        QCOMPARE(r.windowEnd, static_cast<double>(kT0 + 590));
    }

    void demoJsonFollowsTheContract() {
        const FindingsReport r = run(p("demo.sqlite"));
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(findingsJson(r))).object();
        QCOMPARE(j["fabscope_findings"].toInt(), 1);
        QCOMPARE(j["window"].toObject()["start"].toInteger(), kT0);
        const QJsonArray fs = j["findings"].toArray();
        QCOMPARE(fs.size(), 3);
        int lastSeverity = 0;
        for (const auto& v : fs) {
            const QJsonObject f = v.toObject();
            QVERIFY(f["id"].toString().startsWith(f["kind"].toString() + "-"));
            const int rank = f["severity"].toString() == "critical" ? 0 : f["severity"].toString() == "warning" ? 1 : 2;
            QVERIFY(rank >= lastSeverity);  // sorted by severity
            lastSeverity = rank;
            const QJsonArray ports = f["ports"].toArray();
            QCOMPARE(ports.size(), 2);
            QVERIFY(ports[0].toObject()["port"].isDouble());  // InfiniBand port numbers are numbers
            QVERIFY(ports[0].toObject()["guid"].toString().startsWith("0x"));
            if (f["kind"] == "hot_link") {
                QVERIFY(f["metrics"].toObject()["peak_util"].toDouble() >= 0.9);
                QVERIFY(f["summary"].toString().contains("200 Gb/s"));
            }
            if (f["kind"] == "degraded_link") {
                QCOMPARE(f["metrics"].toObject()["capacity_lost_gbps"].toDouble(), 150.0);
                QCOMPARE(f["metrics"].toObject()["link_class"].toString(), QString("host links"));
                QVERIFY(f["summary"].toString().contains("most host links run 4xHDR (200 Gb/s)"));
            }
        }
    }

    void emptyStoreGivesEmptyFindings() {
        { Store s(p("empty.sqlite")); }
        const FindingsReport r = run(p("empty.sqlite"));
        QVERIFY(r.findings.empty());
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(findingsJson(r))).object();
        QVERIFY(j["findings"].isArray());
        QCOMPARE(j["findings"].toArray().size(), 0);
    }

    void sustainedLoadIsHot() {  // the positive control for the traps below
        const auto db = smallStore(rows("swA", "xmit_bytes", bytesFromUtil({0.2, 0.9, 0.9, 0.96, 0.9, 0.2})));
        const FindingsReport r = run(db);
        QCOMPARE(r.findings.size(), std::size_t{1});
        const Finding& f = r.findings[0];
        QCOMPARE(f.kind, FindingKind::HotLink);
        QCOMPARE(sev(f), std::string("critical"));
        QCOMPARE(f.ports[0].node, std::string("swA"));  // transmitting end first
        QCOMPARE(f.ports[1].node, std::string("swB"));
        QCOMPARE(f.start, static_cast<double>(kT0 + 1));
        QCOMPARE(f.end, static_cast<double>(kT0 + 5));
    }

    void receiveCountersStandInForMissingTransmit() {
        // Only swB's rcv_bytes exist: the direction swA -> swB is still judged.
        const auto db = smallStore(rows("swB", "rcv_bytes", bytesFromUtil({0.85, 0.85, 0.85, 0.85})));
        const FindingsReport r = run(db);
        QCOMPARE(r.findings.size(), std::size_t{1});
        QCOMPARE(sev(r.findings[0]), std::string("warning"));
        QCOMPARE(r.findings[0].ports[0].node, std::string("swA"));
    }

    void counterResetIsNotHot() {
        // A reboot zeroes the counter mid-series: no interval may bridge the drop.
        std::vector<double> v = bytesFromUtil({0.3, 0.3, 0.3});
        for (double x : bytesFromUtil({0.3, 0.3, 0.3})) v.push_back(x);
        AnalysisConfig one;
        one.hotLink.minSamples = 1;  // even one bogus interval would show
        QCOMPARE(run(smallStore(rows("swA", "xmit_bytes", v)), one).findings.size(), std::size_t{0});

        SeriesData d;
        for (std::size_t i = 0; i < v.size(); ++i) {
            d.timesMs.push_back(static_cast<std::int64_t>(i) * 1000);
            d.values.push_back(v[i]);
        }
        const RateSeries r = deriveRates(d, "xmit_bytes");
        QCOMPARE(r.flag[3], IntervalFlag::Reset);
        QCOMPARE(r.perSecond[3], 0.0);
        QCOMPARE(r.flag[4], IntervalFlag::Ok);
    }

    void saturatedLegacyCounterIsNotARate() {
        // A 32-bit counter stuck at 2^32-1 for one sample, then read back lower (cleared).
        const std::vector<double> v{0, 1e8, 2e8, 3e8, 4294967295.0, 1e8, 2e8};
        AnalysisConfig one;
        one.hotLink.minSamples = 1;
        const auto db = smallStore(rows("swA", "xmit_bytes", v));
        QCOMPARE(count(run(db, one), FindingKind::HotLink), std::size_t{0});

        SeriesData d;
        for (std::size_t i = 0; i < v.size(); ++i) {
            d.timesMs.push_back(static_cast<std::int64_t>(i) * 1000);
            d.values.push_back(v[i]);
        }
        const RateSeries r = deriveRates(d, "xmit_bytes");
        QCOMPARE(r.flag[3], IntervalFlag::Saturated);
        QCOMPARE(r.flag[4], IntervalFlag::Saturated);
        for (double x : r.perSecond) QVERIFY(x <= 1e8);
        QVERIFY(isSaturated("symbol_errors", 65535));
        QVERIFY(!isSaturated("xmit_bytes", 65535));
    }

    void gapIsNotAnInterval() {
        SeriesData d{{0, 1000, 2000, 10000, 11000}, {0, 10, 20, 30, 40}};
        const RateSeries r = deriveRates(d, "xmit_bytes");
        QCOMPARE(r.flag[2], IntervalFlag::Gap);
        QCOMPARE(r.flag[3], IntervalFlag::Ok);
        QCOMPARE(r.totalIncrease(), 30.0);
    }

    // An uneven scrape (one early sample, one late): gaps are judged against the median interval
    // (1 s here, so 3 s and more), not the shortest (0.3 s, which would call every second a gap).
    void gapsAreJudgedAgainstTheMedianInterval() {
        SeriesData d{{0, 300, 1300, 2300, 3300, 5300, 9000}, {0, 3, 13, 23, 33, 53, 90}};
        const RateSeries r = deriveRates(d, "xmit_bytes");
        for (std::size_t i = 0; i < 5; ++i) QCOMPARE(r.flag[i], IntervalFlag::Ok);
        QCOMPARE(r.flag[5], IntervalFlag::Gap);
        QCOMPARE(r.perSecond[4], 10.0);
    }

    // No interval of a series, nor of any window of it, rises faster than its peakRate(), which
    // each chunk stores and the detectors compare with their thresholds before loading a series.
    void peakRateBoundsEveryIntervalsRate() {
        std::mt19937 rng(7);
        for (int trial = 0; trial < 300; ++trial) {
            SeriesData d;
            const int n = 2 + static_cast<int>(rng() % 40);
            const bool regular = trial % 2 == 0;  // one interval length, or jitter, repeats and gaps
            std::int64_t t = 1000;
            double v = 0;
            for (int i = 0; i < n; ++i) {
                d.timesMs.push_back(t);
                d.values.push_back(v);
                t += regular ? 1000 : static_cast<std::int64_t>(rng() % 5000);  // 0: a repeated time
                v = rng() % 9 == 0 ? static_cast<double>(rng() % 100) : v + static_cast<double>(rng() % 1000);  // resets
            }
            const double peak = peakRate(d.timesMs, d.values);
            double highest = 0;
            for (int from = 0; from < n; ++from)  // every window is a run of consecutive samples
                for (int to = from + 1; to < n; ++to) {
                    SeriesData w;
                    w.timesMs.assign(d.timesMs.begin() + from, d.timesMs.begin() + to + 1);
                    w.values.assign(d.values.begin() + from, d.values.begin() + to + 1);
                    const RateSeries r = deriveRates(w, "xmit_bytes");
                    for (std::size_t i = 0; i < r.size(); ++i)
                        if (r.ok(i)) highest = std::max(highest, r.perSecond[i]);
                }
            QVERIFY2(highest <= peak, qPrintable(QStringLiteral("trial %1: %2 > %3").arg(trial).arg(highest).arg(peak)));
            if (regular) QCOMPARE(peak, highest);  // every interval counts there: the bound is the highest rate itself
        }
        QVERIFY(std::isnan(peakRate(std::vector<std::int64_t>{0, 1000}, std::vector<double>{0, std::nan("")})));
        // Times too far apart for an int64 difference (a damaged file): no rate, no peak, no overflow.
        const SeriesData far{{-9000000000000000000, 9000000000000000000}, {0, 5}};
        QVERIFY(!deriveRates(far, "xmit_bytes").ok(0));
        QCOMPARE(peakRate(far.timesMs, far.values), 0.0);
    }

    // The chunks' peaks let the detectors pass over series that cannot reach a threshold (a link
    // at 79 % of 80 %, error and flap counters that never rose, no wait). With every peak unknown,
    // as in a store written before schema 10, every series is loaded: the findings are the same.
    void chunkPeaksPassOverNothingThatIsFound() {
        std::vector<double> waits{0};  // swA p1 waits half of every second (4 ns ticks)
        for (int i = 0; i < 5; ++i) waits.push_back(waits.back() + 0.5e9 / 4);
        const auto db = smallStore(rows("swA", "xmit_bytes", bytesFromUtil({0.2, 0.9, 0.9, 0.96, 0.9})) +
                                   rows("swB", "xmit_bytes", bytesFromUtil({0.7, 0.79, 0.79, 0.79, 0.7})) +
                                   rows("swB", "symbol_errors", {0, 100, 200, 300, 400, 600}) +
                                   rows("swA", "symbol_errors", {0, 0, 0, 0, 0, 0}) + rows("swA", "link_downed", {0, 0, 1, 1, 2, 2}) +
                                   rows("swB", "link_downed", {4, 4, 4, 4, 4, 4}) + rows("swA", "xmit_wait", waits) +
                                   rows("swB", "xmit_wait", {0, 0, 0, 0, 0, 0}));
        const FindingsReport known = run(db);
        for (FindingKind k : {FindingKind::HotLink, FindingKind::ErrorLink, FindingKind::LinkFlap, FindingKind::CongestionTree})
            QVERIFY2(count(known, k) == 1, kindName(k).data());
        // A lower threshold reaches the link at 79 %: a peak is compared with the config's threshold.
        QCOMPARE(count(run(db, parseAnalysisConfig(R"({"hot_link": {"util": 0.75}})")), FindingKind::HotLink), std::size_t{2});
        {
            Store s(db);
            sql::exec(s.handle(), "UPDATE chunks SET peak=NULL");
        }
        QCOMPARE(findingsJson(run(db)), findingsJson(known));
    }

    // A capture imported as two files stores each series in two chunks; the interval from the
    // first file's last sample to the second's first is in neither chunk's peak, and the only hot
    // one here (a series in two chunks is read whole). With one sample enough it is a hot link.
    void intervalBetweenChunksIsNotPassedOver() {
        std::ostringstream second;  // the second file: the same counter from kT0 + 3 s, after the second at 90 %
        const std::vector<double> bytes = bytesFromUtil({0.2, 0.2, 0.9, 0.2, 0.2});
        for (std::size_t i = 3; i < bytes.size(); ++i) second << kT0 + static_cast<std::int64_t>(i) << ",swA,1,xmit_bytes," << bytes[i] << '\n';
        const std::string db = smallStore(rows("swA", "xmit_bytes", {bytes[0], bytes[1], bytes[2]}));
        importMore(db, second.str());
        {
            const Store s(db, Store::Mode::ReadOnly);
            sql::Stmt chunks(s.handle(), "SELECT count(*) FROM chunks");
            QVERIFY(chunks.step());
            QCOMPARE(chunks.integer(0), std::int64_t{2});
        }
        const AnalysisConfig one = parseAnalysisConfig(R"({"hot_link": {"min_samples": 1}})");
        const FindingsReport r = run(db, one);
        QCOMPARE(count(r, FindingKind::HotLink), std::size_t{1});
        QCOMPARE(r.findings[0].start, static_cast<double>(kT0 + 2));
        QCOMPARE(r.findings[0].end, static_cast<double>(kT0 + 3));
    }

    void twoHotSamplesAreNotHot() {
        const auto db = smallStore(rows("swA", "xmit_bytes", bytesFromUtil({0.2, 0.97, 0.97, 0.2, 0.97, 0.2})));
        QCOMPARE(run(db).findings.size(), std::size_t{0});
        // The same data under a config asking for 2 samples: the threshold really is read.
        const FindingsReport r = run(db, parseAnalysisConfig(R"({"hot_link": {"min_samples": 2}})"));
        QCOMPARE(count(r, FindingKind::HotLink), std::size_t{1});
    }

    void configThresholdsChangeTheResult() {
        const auto db = smallStore(rows("swA", "xmit_bytes", bytesFromUtil({0.6, 0.6, 0.6, 0.6})));
        QCOMPARE(run(db).findings.size(), std::size_t{0});
        const std::string cfgPath = p("lower.json");
        std::ofstream(cfgPath) << R"({"hot_link": {"util": 0.5, "critical_util": 0.99}})";
        const FindingsReport r = run(db, loadAnalysisConfig(cfgPath));
        QCOMPARE(count(r, FindingKind::HotLink), std::size_t{1});
        QCOMPARE(sev(r.findings[0]), std::string("warning"));

        // An expected width above what the link runs makes it degraded.
        const FindingsReport w = run(db, parseAnalysisConfig(R"({"degraded_link": {"expected_width": 8}})"));
        QCOMPARE(count(w, FindingKind::DegradedLink), std::size_t{1});
        std::string linkClass;
        for (const auto& [k, v] : w.findings[0].metrics)
            if (k == "link_class") linkClass = std::get<std::string>(v);
        QCOMPARE(linkClass, std::string("tier 1-1 switch links"));  // two switches, no hosts
    }

    void badConfigIsRejected() {
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseAnalysisConfig("{not json"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseAnalysisConfig(R"({"hot_link": {"utl": 0.5}})"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseAnalysisConfig(R"({"degraded_link": {"expected_speed": "FAST"}})"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, loadAnalysisConfig(p("no-such-config.json")));
        const auto c = parseAnalysisConfig(R"({"error_link": {"symbol_errors": {"per_s": 2}}})");
        QCOMPARE(c.errorLink.counters.at("symbol_errors").perSecond, 2.0);
        QCOMPARE(c.errorLink.counters.at("symbol_errors").minCount, 10.0);  // untouched keys keep defaults
    }

    // A store with more error series than one connection reads (2,600 ports): read on three
    // threads, it gives the findings one pass over it gives, in the same order, and each of the
    // ports that erred.
    void errorLinksOfALargeStoreAreTheSameOnThreads() {
        std::string csv;
        std::set<std::string> erring;
        for (int port = 1; port <= 2600; ++port) {
            const std::string node = port % 2 ? "swA" : "swB";
            const double step = port % 7 == 0 ? 50.0 + port : 0.0;  // every 7th port errs, each by its own amount
            if (step > 0) erring.insert(node + ":" + std::to_string(port));
            for (int i = 0; i < 6; ++i)
                csv += std::to_string(kT0 + i) + "," + node + "," + std::to_string(port) + ",symbol_errors," + std::to_string(step * i) + "\n";
        }
        const std::string db = smallStore(csv);
        FindingsReport oneConnection;
        {
            const Store rw(db);  // read-write: one connection, one pass
            oneConnection = analyze(rw, AnalysisWindow{}, AnalysisConfig{});
        }
        qputenv("FABSCOPE_THREADS", "3");
        const FindingsReport threads = run(db);
        qunsetenv("FABSCOPE_THREADS");
        QCOMPARE(count(threads, FindingKind::ErrorLink), erring.size());
        std::set<std::string> named;
        for (const Finding& f : threads.findings)
            if (f.kind == FindingKind::ErrorLink) named.insert(f.ports[0].node + ":" + f.ports[0].port);
        QVERIFY(named == erring);
        QCOMPARE(threads.findings.size(), oneConnection.findings.size());
        for (std::size_t i = 0; i < threads.findings.size(); ++i) {
            QCOMPARE(threads.findings[i].id, oneConnection.findings[i].id);
            QCOMPARE(threads.findings[i].summary, oneConnection.findings[i].summary);
        }
    }

    void errorsBelowThresholdAreQuiet() {
        // 5 symbol errors in 5 s is over 1/min but under min_count 10; 600 in 5 s is an error link.
        QCOMPARE(run(smallStore(rows("swB", "symbol_errors", {0, 1, 2, 3, 4, 5}))).findings.size(), std::size_t{0});
        const FindingsReport r = run(smallStore(rows("swB", "symbol_errors", {0, 100, 200, 300, 400, 600})));
        QCOMPARE(r.findings.size(), std::size_t{1});
        QCOMPARE(r.findings[0].kind, FindingKind::ErrorLink);
        QCOMPARE(r.findings[0].ports[0].node, std::string("swB"));  // the port that counted them
        QCOMPARE(r.findings[0].ports[1].node, std::string("swA"));
    }

    // A 200 s burst of receive errors inside a 1200 s window (10 s samples): the finding spans the
    // burst and tells the burst's own mean and peak rate, not the count averaged over the window.
    void errorBurstIsToldOverItsOwnSpan() {
        std::vector<double> inc(120, 0);  // 120 intervals of 10 s: kT0 .. kT0 + 1200
        for (std::size_t i = 40; i < 60; ++i) inc[i] = 40;  // kT0 + 400 .. kT0 + 600
        inc[50] = 1288;                                       // the peak: 128.8/s over 10 s
        const FindingsReport r = run(smallStore(stepRows("swB", "rcv_errors", inc, 10)));
        QCOMPARE(r.windowStart, static_cast<double>(kT0));
        QCOMPARE(r.windowEnd, static_cast<double>(kT0 + 1200));
        QCOMPARE(r.findings.size(), std::size_t{1});
        const Finding& f = r.findings[0];
        QCOMPARE(f.kind, FindingKind::ErrorLink);
        QCOMPARE(f.start, static_cast<double>(kT0 + 400));
        QCOMPARE(f.end, static_cast<double>(kT0 + 600));
        QCOMPARE(metricOf(f, "increase"), 2048.0);
        QCOMPARE(metricOf(f, "burst_seconds"), 200.0);
        QCOMPARE(metricOf(f, "burst_rate_per_s"), 10.24);
        QCOMPARE(metricOf(f, "peak_rate_per_s"), 128.8);
        QCOMPARE(metricOf(f, "peak_interval_s"), 10.0);
        QCOMPARE(metricOf(f, "bursts"), 1.0);
        QCOMPARE(metricOf(f, "rate_per_s"), 1.707);  // the window's mean, which the thresholds compare
        QCOMPARE(metricOf(f, "seconds"), 1200.0);
        QVERIFY2(f.summary.find(": 2048 rcv errors in 200 s from 2023-11-14 22:20:00 UTC (10.2/s mean, peak 129/s over 10 s; "
                                "1.71/s over the 1200 s window, threshold 1/min)") != std::string::npos,
                 f.summary.c_str());
        QVERIFY(f.severity == FindingSeverity::Critical);  // 1.71/s over the window >= 10 x 1/min
    }

    // A degraded link is a fact of a topology captured 11 months after the counters: the finding
    // spans the counters' window, and its text still names when the topology was captured.
    void topologyFindingSpansTheWindow() {
        const std::int64_t later = kT0 + 330LL * 86400;  // 2024-10-09 22:13:20 UTC
        const std::string db = smallStore(rows("swB", "symbol_errors", {0, 0, 0, 0, 0, 0}), 4, "SDR", later);
        {
            const Store store(db, Store::Mode::ReadOnly);
            QCOMPARE(store.latestSnapshot()->time, static_cast<double>(later));
        }
        const FindingsReport r = run(db, parseAnalysisConfig(R"({"degraded_link": {"expected_width": 8}})"));
        QCOMPARE(r.windowStart, static_cast<double>(kT0));
        QCOMPARE(r.windowEnd, static_cast<double>(kT0 + 5));
        QCOMPARE(r.findings.size(), std::size_t{1});
        const Finding& f = r.findings[0];
        QCOMPARE(f.kind, FindingKind::DegradedLink);
        QCOMPARE(f.start, r.windowStart);
        QCOMPARE(f.end, r.windowEnd);
        QVERIFY2(f.summary.find("seen in the topology captured 2024-10-09 22:13:20 UTC") != std::string::npos, f.summary.c_str());
        QCOMPARE(metricOf(f, "snapshot_time"), static_cast<double>(later));
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(findingsJson(r))).object();
        const QJsonObject jf = j[QStringLiteral("findings")].toArray()[0].toObject();
        QCOMPARE(jf[QStringLiteral("start")].toDouble(), static_cast<double>(kT0));
        QCOMPARE(jf[QStringLiteral("end")].toDouble(), static_cast<double>(kT0 + 5));
    }

    void flapSeenFromBothEndsIsOneFinding() {
        const auto db = smallStore(rows("swA", "link_downed", {0, 0, 1, 1, 2}) + rows("swB", "link_downed", {3, 3, 4, 4, 5}));
        const FindingsReport r = run(db);
        QCOMPARE(r.findings.size(), std::size_t{1});
        QCOMPARE(r.findings[0].kind, FindingKind::LinkFlap);
        QCOMPARE(r.findings[0].start, static_cast<double>(kT0 + 1));
        QCOMPARE(r.findings[0].end, static_cast<double>(kT0 + 4));
    }

    // One table of kind names (core/analysis/finding_kind.h): each name round-trips, and the table
    // holds exactly the kinds docs/FINDINGS.md lists under "`kind` is one of:".
    void findingKindsMatchTheDoc() {
        std::set<std::string> table;
        for (const FindingKindInfo& k : kFindingKinds) {
            QVERIFY(parseKind(kindName(k.kind)) == k.kind);
            QVERIFY(kindName(*parseKind(k.name)) == k.name);
            QVERIFY(!k.meaning.empty());
            table.emplace(k.name);
        }
        QCOMPARE(table.size(), kFindingKinds.size());
        QVERIFY(!parseKind("hot_links") && !parseKind(""));
        std::ifstream in(FABSCOPE_TEST_DATA "/../../docs/FINDINGS.md");
        QVERIFY(in);
        const std::string doc{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        const std::size_t from = doc.find("`kind` is one of:"), to = doc.find("\n- ", from);
        QVERIFY(from != std::string::npos && to != std::string::npos);
        std::set<std::string> listed;
        for (std::size_t a = doc.find('`', from + 6); a < to; a = doc.find('`', doc.find('`', a + 1) + 1))
            listed.insert(doc.substr(a + 1, doc.find('`', a + 1) - a - 1));
        for (const std::string& name : listed) QVERIFY2(parseKind(name), ("not in the kind table: " + name).c_str());
        QVERIFY2(listed == table, "a kind of the table is missing from docs/FINDINGS.md");
    }

    void cliExitCodes() {
        const std::string db = p("demo.sqlite");
        QCOMPARE(cli::cmdAnalyze({"analyze"}), 2);                                  // no --db
        QCOMPARE(cli::cmdAnalyze({"analyze", "--db", db, "--bogus"}), 2);
        QCOMPARE(cli::cmdAnalyze({"analyze", "--db", db, "--from", "yesterday"}), 2);
        QCOMPARE(cli::cmdAnalyze({"analyze", "--db", db, "--config", p("no-such.json")}), 1);
        std::ofstream(p("not-a-store")) << "hello, this is not SQLite\n";
        QCOMPARE(cli::cmdAnalyze({"analyze", "--db", p("not-a-store")}), 3);
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "test_analysis.moc"
