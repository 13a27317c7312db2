// straggler_path on the routes the fabric really uses: the ibsim fat tree (2 spines, 4 leaves,
// 8 HCAs, real ibnetdiscover and dump_fts output of opensm's tables, tests/data/ibsim), leaf03's
// uplink to spine02 saturated, and a 5-rank job with one rank on leaf03. opensm's tables send
// leaf03's traffic to gpu008 (LID 0xe) over port 2 (spine02), and to gpu007, gpu001 and gpu003
// over port 1: only rank 0 -> rank 2 crosses the hot uplink. Equal-cost guessing cannot tell the
// four pairs leaving leaf03 apart.
#include "analysis_fixture.h"

#include <utime.h>

using namespace atest;

namespace {

const std::string kData = FABSCOPE_TEST_DATA;

// leaf03 port 2 (-> spine02, 4xHDR = 200 Gb/s) sends at `util` (98 %) for 100 s; every other
// link is idle.
std::string counters(double util) {
    std::vector<double> bytes;
    for (int i = 0; i <= 10; ++i) bytes.push_back(util * 200e9 / 8 * 10 * i);
    std::string csv = "timestamp,node,port,counter,value\n" + rows("leaf03", 2, "xmit_bytes", bytes);
    for (int leafPort : {1, 3, 4}) csv += rows("leaf03", leafPort, "xmit_bytes", std::vector<double>(11, 0));
    return csv;
}

// `capturedAt`: the topology snapshot's time and the job file's (its mtime), else the import's.
std::string importAll(QTemporaryDir& dir, const std::string& name, bool tables, double util = 0.98,
                      std::optional<double> capturedAt = std::nullopt) {
    const std::string base = dir.filePath(QString::fromStdString(name)).toStdString();
    std::filesystem::create_directories(base);
    std::ofstream(base + "/counters.csv") << counters(util);
    std::ofstream(base + "/job.csv") << "# job: allreduce\nrank,host,device\n0,gpu005,mlx5_0\n1,gpu007,mlx5_0\n2,gpu008,mlx5_0\n"
                                        "3,gpu001,mlx5_0\n4,gpu003,mlx5_0\n";
    if (capturedAt) {
        utimbuf t{};
        t.actime = t.modtime = static_cast<time_t>(*capturedAt);
        utime((base + "/job.csv").c_str(), &t);
    }
    Store store(base + ".sqlite");
    ImporterRegistry registry;
    std::vector<std::string> topo{kData + "/ibsim/ibnetdiscover.txt"};
    if (tables) topo.push_back(kData + "/ibsim/dump_fts.txt");
    for (const auto& files : {topo, std::vector<std::string>{base + "/counters.csv", base + "/job.csv"}}) {
        ImportOptions o;
        if (files == topo) o.snapshotTime = capturedAt;
        const auto s = ImportRunner(store, registry).run(files, o);
        if (s.anyFailed()) throw std::runtime_error("import failed");
    }
    return base + ".sqlite";
}

}  // namespace

class TestStragglerRoutes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void theTablesNameThePairOnTheHotUplink() {
        const auto fs = ofKind(analyzeStore(importAll(dir_, "tables", true)), FindingKind::StragglerPath);
        QCOMPARE(fs.size(), std::size_t{1});
        const Finding& f = fs[0];
        QCOMPARE(metric(f, "src_rank"), 0.0);
        QCOMPARE(metric(f, "dst_rank"), 2.0);
        QCOMPARE(metricText(f, "routed_by"), std::string("forwarding_tables"));
        QCOMPARE(metric(f, "routes"), 1.0);
        QCOMPARE(metric(f, "pairs_sharing_bottleneck"), 1.0);  // no other pair of the job crosses it
        QCOMPARE(metric(f, "bottleneck_headroom"), 0.02);
        QCOMPARE(metric(f, "bottleneck_headroom_gbps"), 4.0);  // 2 % of 200 Gb/s
        QCOMPARE(label(f.ports[0]), std::string("leaf03:2"));
        QCOMPARE(label(f.ports[1]), std::string("spine02:3"));
        // path: the route the tables give, source host port first, hop by hop
        std::vector<std::string> path;
        for (const auto& p : f.path) path.push_back(label(p));
        QCOMPARE(path, (std::vector<std::string>{"gpu005 mlx5_0:1", "leaf03:3", "leaf03:2", "spine02:3", "spine02:4", "leaf04:2",
                                                 "leaf04:4", "gpu008 mlx5_0:1"}));
        QCOMPARE(sev(f), std::string("critical"));
        // The ring is as slow as that hop: 4 Gb/s; the next worst pair has the idle 200 Gb/s links.
        QCOMPARE(metric(f, "job_bound_gbps"), 4.0);
        QCOMPARE(metric(f, "job_bound_without_gbps"), 200.0);
        QCOMPARE(metric(f, "predicted_slowdown"), 50.0);
        QVERIFY2(f.summary.find("forwarding tables' route") != std::string::npos, f.summary.c_str());
    }

    void theBoundIsOfTheSpeedWhenTheJobRan() {
        // An hour after the counters a new snapshot finds leaf03's uplink to spine02 at 1x (50 Gb/s).
        // While the job ran it was 4x: the bound stays 2 % of 200 Gb/s, not of 50 Gb/s.
        const std::string db = importAll(dir_, "later-1x", true, 0.98, kT0 + 50);
        std::ifstream in(kData + "/ibsim/ibnetdiscover.txt");
        std::string topo, line;
        int narrowed = 0;
        while (std::getline(in, line)) {
            const bool uplink = line.rfind("[3]\t\"S-0000000000200004\"[2]", 0) == 0 || line.rfind("[2]\t\"S-0000000000200001\"[3]", 0) == 0;
            if (const auto at = line.find("4xHDR"); uplink && at != std::string::npos) {
                line.replace(at, 5, "1xHDR");
                ++narrowed;
            }
            topo += line + '\n';
        }
        QCOMPARE(narrowed, 2);  // both ends of the one uplink
        const std::string later = dir_.filePath(QStringLiteral("later-1x.ibnetdiscover")).toStdString();
        std::ofstream(later) << topo;
        // The same tables, dumped again with the new snapshot (a byte more: not the file imported before).
        const std::string tables = dir_.filePath(QStringLiteral("later-1x.dump_fts")).toStdString();
        std::ofstream(tables) << std::ifstream(kData + "/ibsim/dump_fts.txt").rdbuf() << '\n';
        {
            Store store(db);
            ImporterRegistry registry;
            ImportOptions o;
            o.snapshotLabel = "later";
            o.snapshotTime = kT0 + 3600;
            QVERIFY(!ImportRunner(store, registry).run({later, tables}, o).anyFailed());
        }
        const auto fs = ofKind(analyzeStore(db), FindingKind::StragglerPath);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(metric(fs[0], "job_bound_gbps"), 4.0);
        QCOMPARE(metric(fs[0], "bottleneck_headroom_gbps"), 4.0);
    }

    void aJobWithNoBadHopHasNoFinding() {
        // The same uplink at 30 %: every pair keeps most of its capacity.
        const auto report = analyzeStore(importAll(dir_, "calm", true, 0.30));
        QVERIFY(ofKind(report, FindingKind::StragglerPath).empty());
        QCOMPARE(report.jobs.size(), std::size_t{1});
        const JobRoutes& job = report.jobs[0];
        QCOMPARE(job.pairs.size(), std::size_t{10});  // 5 ranks: every pair
        QCOMPARE(job.ranksUnplaced, std::size_t{0});
        QVERIFY(job.stragglerFinding.empty());
        QCOMPARE(job.pairs.front().srcRank, 0);  // still the tightest pair, at 70 %
        QCOMPARE(job.pairs.front().dstRank, 2);
        QCOMPARE(job.pairs.front().bottleneckHeadroom, 0.7);
    }

    void allToAllScoresEveryOrderedPair() {
        // MoE expert parallelism: every rank sends to every other; still only 0 -> 2 crosses the hot uplink.
        const auto report = analyzeStore(importAll(dir_, "a2a", true), parseAnalysisConfig(R"({"straggler_path": {"all_pairs": true}})"));
        const auto fs = ofKind(report, FindingKind::StragglerPath);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(metric(fs[0], "pairs"), 20.0);  // 5 x 4
        QCOMPARE(metric(fs[0], "src_rank"), 0.0);
        QCOMPARE(metric(fs[0], "dst_rank"), 2.0);
    }

    void treeLinksAreScoredBothWays() {
        // A job whose NCCL log gave only a tree: ranks 1, 2, 3 are children of rank 0. The parent's
        // broadcast to rank 2 (0 -> 2) is the pair on the hot uplink; the log only says 2 -> 0.
        const std::string db = importAll(dir_, "tree", true);
        {
            Store store(db);
            Store::Transaction tx(store);
            JobDetails d;
            for (int child : {1, 2, 3}) d.edges.push_back({JobEdge::Kind::Tree, 0, child, 0, "", 0});
            writeJob(store, "tree-only", 0, {{0, "gpu005", "mlx5_0", 0}, {1, "gpu007", "mlx5_0", 0}, {2, "gpu008", "mlx5_0", 0},
                                             {3, "gpu001", "mlx5_0", 0}}, d);
            tx.commit();
        }
        const auto report = analyzeStore(db);
        std::vector<Finding> tree;
        for (const auto& f : ofKind(report, FindingKind::StragglerPath))
            if (metricText(f, "job") == "tree-only") tree.push_back(f);
        QCOMPARE(tree.size(), std::size_t{1});
        QCOMPARE(metric(tree[0], "pairs"), 6.0);  // three tree links, both ways
        QCOMPARE(metric(tree[0], "src_rank"), 0.0);
        QCOMPARE(metric(tree[0], "dst_rank"), 2.0);
    }

    void withoutTablesItSaysItGuessed() {
        const std::string db = importAll(dir_, "guess", false);
        // Four pairs leave leaf03, each over either uplink: 0.5 x 2 % + 0.5 x 100 % headroom, no
        // outlier against a median of 100 % at the default ratio...
        QVERIFY(ofKind(analyzeStore(db), FindingKind::StragglerPath).empty());
        // ... and at 0.6 one of those four is named, saying it is a guess among 2 routes.
        const auto fs = ofKind(analyzeStore(db, parseAnalysisConfig(R"({"straggler_path": {"outlier_ratio": 0.6}})")), FindingKind::StragglerPath);
        QCOMPARE(fs.size(), std::size_t{1});
        QCOMPARE(metricText(fs[0], "routed_by"), std::string("equal_cost"));
        QCOMPARE(metric(fs[0], "routes"), 2.0);
        QCOMPARE(metric(fs[0], "src_rank"), 0.0);
        QVERIFY2(fs[0].summary.find("one of 2 equal-cost routes, each weighted 1/2") != std::string::npos, fs[0].summary.c_str());
    }
};

QTEST_GUILESS_MAIN(TestStragglerRoutes)
#include "tst_analysis_straggler_routes.moc"
