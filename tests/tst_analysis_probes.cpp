// lossy_link and slow_pair on the real ibsim fat tree (tests/data/ibsim) with probe data from
// tests/data/probes/make-pingmesh.py: the cable leaf02 p1 <-> spine01 p2 drops 4% of what
// crosses it and host gpu008 answers ~20-30 us late. Without routes the probes cannot tell
// leaf02's two up-links apart (one finding names both); with forwarding tables or recorded paths
// exactly the planted cable is blamed. Traps: a healthy mesh with uniform jitter and one lost probe.
#include "analysis_fixture.h"

#include "core/analysis/probe_pairs.h"
#include "core/store/probes.h"

#include <map>
#include <set>

using namespace atest;

namespace {

const std::set<std::string> kPlanted{"leaf02:1", "spine01:2"};

std::string dataFile(const std::string& rel) { return std::string(FABSCOPE_TEST_DATA "/") + rel; }

std::string importAll(QTemporaryDir& dir, const std::string& name, const std::vector<std::string>& rel) {
    const std::string db = dir.filePath(QString::fromStdString(name + ".sqlite")).toStdString();
    Store store(db);
    std::vector<std::string> files;
    for (const auto& r : rel) files.push_back(dataFile(r));
    ImporterRegistry registry;
    const auto s = ImportRunner(store, registry).run(files, {});
    for (const auto& d : s.diagnostics) qWarning("%s", d.format().c_str());
    if (s.anyFailed()) qFatal("import failed");
    return db;
}

std::set<std::string> portSet(const Finding& f) {
    const auto l = labels(f.ports);
    return {l.begin(), l.end()};
}

// Links of the fabric that join `node` to a switch: the planted link's equal-cost alternatives.
std::set<std::string> upLinkEnds(const std::string& db, const std::string& node) {
    const Store store(db, Store::Mode::ReadOnly);
    const Fabric f = store.loadFabric(store.latestSnapshot()->id);
    std::set<std::string> out;
    for (const Link& l : f.links) {
        const Port &a = f.port(l.a), &b = f.port(l.b);
        const Node &na = f.node(a.node), &nb = f.node(b.node);
        if (na.type != NodeType::Switch || nb.type != NodeType::Switch) continue;
        if (na.description != node && nb.description != node) continue;
        out.insert(na.description + ":" + a.name);
        out.insert(nb.description + ":" + b.name);
    }
    return out;
}

// The forward routes the generator traced independently (path column), keyed "src>dst":
// egress port of every hop, then the destination's port.
std::map<std::string, std::vector<std::string>> tracedRoutes() {
    std::ifstream in(dataFile("probes/pingmesh-path.csv"));
    std::map<std::string, std::vector<std::string>> out;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream s(line);
        for (std::string x; std::getline(s, x, ',');) f.push_back(x);
        std::vector<std::string> hops;
        std::stringstream p(f.at(6));
        for (std::string h; std::getline(p, h, '>');) {
            const auto sp = h.rfind(" p");
            hops.push_back(h.substr(0, sp) + ":" + h.substr(sp + 2));
        }
        out[f[1] + ">" + f[2]] = hops;
    }
    return out;
}

// A path runs from the source host's port to the destination's, each hop a link of the fabric
// and each switch left by another port than the one entered.
void checkConnected(const Finding& f) {
    QVERIFY(f.path.size() >= 4 && f.path.size() % 2 == 0);
    QCOMPARE(label(f.path.front()), label(f.ports[0]));
    QCOMPARE(label(f.path.back()), label(f.ports[1]));
    for (std::size_t i = 1; i + 1 < f.path.size(); i += 2) QCOMPARE(f.path[i].node, f.path[i + 1].node);
}

std::vector<Finding> ofKinds(const FindingsReport& r) {
    std::vector<Finding> out;
    for (const auto& f : r.findings)
        if (f.kind == FindingKind::LossyLink || f.kind == FindingKind::SlowPair) out.push_back(f);
    return out;
}

} // namespace

class TestProbeAnalysis : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    void checkSlowPairs(const FindingsReport& r, bool routesKnown) {
        const auto slow = ofKind(r, FindingKind::SlowPair);
        // gpu008 against its 7 peers, both directions; the lossy pairs are explained by the link.
        QCOMPARE(slow.size(), std::size_t{14});
        const auto traced = tracedRoutes();
        for (const Finding& f : slow) {
            const std::string src = metricText(f, "src"), dst = metricText(f, "dst");
            QVERIFY2(src == "gpu008" || dst == "gpu008", f.summary.c_str());
            QCOMPARE(metricText(f, "slow_host"), std::string("gpu008"));
            QVERIFY(metricText(f, "reason").find("p99") != std::string::npos);
            QVERIFY(metric(f, "p99_us") > 20);
            checkConnected(f);
            if (!routesKnown) continue;
            const auto& hops = traced.at(src + ">" + dst);
            QCOMPARE(f.path.size(), 2 * (hops.size() - 1));
            for (std::size_t h = 0; h + 1 < hops.size(); ++h) QCOMPARE(label(f.path[2 * h]), hops[h]);
            QCOMPARE(label(f.path.back()), hops.back());
        }
    }

private Q_SLOTS:
    void noRoutesNamesTheTiedUpLinks() {
        const std::string db = importAll(dir_, "a", {"ibsim/ibnetdiscover.txt", "probes/pingmesh.csv"});
        const auto r = analyzeStore(db);
        const auto lossy = ofKind(r, FindingKind::LossyLink);
        QCOMPARE(lossy.size(), std::size_t{1});
        const Finding& f = lossy[0];
        const auto tied = upLinkEnds(db, "leaf02");
        QCOMPARE(tied.size(), std::size_t{4});
        QCOMPARE(portSet(f), tied);
        for (const auto& p : kPlanted) QVERIFY(tied.count(p));
        qInfo("%s", findingsJson({r.windowStart, r.windowEnd, lossy, {}}).c_str());
        QCOMPARE(metric(f, "candidates"), 2.0);
        QVERIFY2(f.summary.find("cannot tell apart") != std::string::npos, f.summary.c_str());
        QVERIFY(f.summary.find("no path recorded, no forwarding tables") != std::string::npos);
        QCOMPARE(metricText(f, "routes_from"), std::string("equal_cost"));
        QCOMPARE(metric(f, "bad_pairs"), 18.0);  // the pairs whose real route or reply crosses the cable
        QVERIFY(metric(f, "loss_rate") > 0.02 && metric(f, "loss_rate") < 0.1);
        checkSlowPairs(r, false);
    }

    void forwardingTablesBlameExactlyThePlantedLink() {
        const std::string db = importAll(dir_, "b", {"ibsim/ibnetdiscover.txt", "ibsim/dump_fts.txt", "probes/pingmesh.csv"});
        const auto r = analyzeStore(db);
        const auto lossy = ofKind(r, FindingKind::LossyLink);
        QCOMPARE(lossy.size(), std::size_t{1});
        QCOMPARE(labels(lossy[0].ports), (std::vector<std::string>{"leaf02:1", "spine01:2"}));
        qInfo("%s", findingsJson({r.windowStart, r.windowEnd, {lossy[0], ofKind(r, FindingKind::SlowPair).at(0)}, {}}).c_str());
        QCOMPARE(metric(lossy[0], "candidates"), 1.0);
        QCOMPARE(metric(lossy[0], "good_pairs"), 0.0);
        QCOMPARE(metric(lossy[0], "bad_pairs"), 18.0);
        QCOMPARE(metricText(lossy[0], "routes_from"), std::string("forwarding_tables"));
        checkSlowPairs(r, true);
    }

    void recordedPathsBlameExactlyThePlantedLink() {
        const std::string db = importAll(dir_, "c", {"ibsim/ibnetdiscover.txt", "probes/pingmesh-path.csv"});
        const auto r = analyzeStore(db);
        const auto lossy = ofKind(r, FindingKind::LossyLink);
        QCOMPARE(lossy.size(), std::size_t{1});
        QCOMPARE(portSet(lossy[0]), kPlanted);
        QCOMPARE(metric(lossy[0], "candidates"), 1.0);
        QCOMPARE(metricText(lossy[0], "routes_from"), std::string("recorded_path"));
        checkSlowPairs(r, true);
    }

    void healthyMeshGivesNoFindings() {
        for (const bool tables : {false, true}) {
            std::vector<std::string> files{"ibsim/ibnetdiscover.txt", "probes/pingmesh-healthy.csv"};
            if (tables) files.push_back("ibsim/dump_fts.txt");
            const std::string db = importAll(dir_, tables ? "h1" : "h0", files);
            const auto pairs = [&] {
                const Store store(db, Store::Mode::ReadOnly);
                return loadProbePairs(store, store.loadFabric(store.latestSnapshot()->id), 0, 2e9, 64);
            }();
            QCOMPARE(pairs.pairs.size(), std::size_t{56});
            QVERIFY(pairs.unknownHosts.empty());
            std::int64_t lost = 0;
            for (const auto& p : pairs.pairs) lost += p.lost;
            QCOMPARE(lost, std::int64_t{1});  // the trap: a single lost probe
            QVERIFY(ofKinds(analyzeStore(db)).empty());
        }
    }

    void distanceClassesFromTheTiers() {
        const std::string db = importAll(dir_, "d", {"ibsim/ibnetdiscover.txt", "probes/pingmesh-healthy.csv"});
        const Store store(db, Store::Mode::ReadOnly);
        const auto pairs = loadProbePairs(store, store.loadFabric(store.latestSnapshot()->id), 0, 2e9, 64).pairs;
        std::size_t sameLeaf = 0;
        for (const auto& p : pairs) {
            const bool neighbours = (p.src == "gpu001" && p.dst == "gpu002") || (p.src == "gpu007" && p.dst == "gpu008");
            if (neighbours) QVERIFY(p.distance == DistanceClass::SameLeaf);
            if (p.distance == DistanceClass::SameLeaf) ++sameLeaf;
            else QVERIFY(p.distance == DistanceClass::AcrossSpines);
            QVERIFY(*p.p50 <= *p.p99 && *p.p99 <= *p.p999);
        }
        QCOMPARE(sameLeaf, std::size_t{8});  // 4 leaves x 2 hosts, both directions
    }

    void thresholdsComeFromTheConfig() {
        const std::string db = importAll(dir_, "e", {"ibsim/ibnetdiscover.txt", "ibsim/dump_fts.txt", "probes/pingmesh.csv"});
        const auto r = analyzeStore(db, parseAnalysisConfig(R"({"lossy_link": {"pair_loss": 0.5}, "slow_pair": {"min_excess_us": 1000}})"));
        QVERIFY(ofKinds(r).empty());
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseAnalysisConfig(R"({"lossy_link": {"pair_los": 0.5}})"));
    }

    void perftestBandwidthOutlier() {
        // ib_write_bw between every pair of leaf-distinct hosts; gpu002 -> gpu005 runs at half rate.
        const std::string db = importAll(dir_, "f", {"ibsim/ibnetdiscover.txt"});
        {
            Store store(db);
            std::vector<ProbeResult> rows;
            for (int s = 1; s <= 8; ++s)
                for (int d = 1; d <= 8; ++d) {
                    if ((s - 1) / 2 == (d - 1) / 2) continue;
                    ProbeResult p;
                    p.tool = "ib_write_bw";
                    p.time = kT0;
                    p.src = "gpu00" + std::to_string(s);
                    p.dst = "gpu00" + std::to_string(d);
                    p.msgBytes = 65536;
                    p.stats = {{"bw_avg_gbps", s == 2 && d == 5 ? 96.0 : 190.0 + s * 0.5}};
                    rows.push_back(p);
                }
            Store::Transaction t(store);
            writeProbes(store, store.recordImport("bw.txt", "x", "perftest", static_cast<std::int64_t>(rows.size())), rows);
            t.commit();
        }
        const auto slow = ofKind(analyzeStore(db), FindingKind::SlowPair);
        QCOMPARE(slow.size(), std::size_t{1});
        QCOMPARE(metricText(slow[0], "src"), std::string("gpu002"));
        QCOMPARE(metricText(slow[0], "dst"), std::string("gpu005"));
        QCOMPARE(metricText(slow[0], "reason"), std::string("bandwidth"));
        QCOMPARE(metric(slow[0], "bw_gbps"), 96.0);
        checkConnected(slow[0]);
    }
};

QTEST_GUILESS_MAIN(TestProbeAnalysis)
#include "tst_analysis_probes.moc"
