// straggler_path: the job's communicating pair whose equal-cost routes have the worst bottleneck,
// when it stands out against the job's other pairs. Jobs are inserted with SQL (the NCCL log
// importer writes the same tables). Traps: a load every pair shares, a job with too few pairs,
// ranks on hosts the fabric does not have.
#include "analysis_fixture.h"
#include "pfc_storm_fixture.h"
#include "core/analysis/host_places.h"
#include "core/analysis/probe_routes.h"
#include "core/analysis/rank_hosts.h"

using namespace atest;

namespace {

// Two leaves with two hosts each, two spines: every cross-leaf pair has two equal-cost routes.
using pfcstorm::fabric;

// rank -> (host, device); hosts named as the node description or as its first word.
void addJob(const std::string& db, std::int64_t id, const std::string& name,
            const std::vector<std::pair<std::string, std::string>>& ranks) {
    Store store(db);
    sql::Stmt job(store.handle(), "INSERT INTO jobs(id, name, import_id) VALUES(?, ?, 0)");
    job.bind(1, id).bind(2, name).run();
    sql::Stmt rank(store.handle(), "INSERT INTO job_ranks(job_id, rank, host, device) VALUES(?, ?, ?, ?)");
    for (std::size_t r = 0; r < ranks.size(); ++r)
        rank.bind(1, id).bind(2, static_cast<std::int64_t>(r)).bind(3, ranks[r].first).bind(4, ranks[r].second).run();
}

const std::vector<std::pair<std::string, std::string>> kFourRanks{
    {"dgx001", "mlx5_0"}, {"dgx002", ""}, {"dgx003 mlx5_0", ""}, {"dgx004", "mlx5_0"}};

void checkRouteIntoDgx004(const Finding& f) {
    // dgx001 -> leaf01 -> spine0x -> leaf02 -> dgx004, as ports in order.
    const auto p = labels(f.path);
    QCOMPARE(p.size(), std::size_t{8});
    QCOMPARE(p[0], std::string("dgx001 mlx5_0:1"));
    QCOMPARE(p[1], std::string("leaf01:1"));
    QVERIFY(p[2] == "leaf01:9" || p[2] == "leaf01:10");
    const std::string spine = p[2] == "leaf01:9" ? "spine01" : "spine02";
    QCOMPARE(p[3], spine + ":1");
    QCOMPARE(p[4], spine + ":2");
    QCOMPARE(p[5], std::string(p[2] == "leaf01:9" ? "leaf02:9" : "leaf02:10"));
    QCOMPARE(p[6], std::string("leaf02:2"));
    QCOMPARE(p[7], std::string("dgx004 mlx5_0:1"));
    QCOMPARE(labels(f.ports), (std::vector<std::string>{"leaf02:2", "dgx004 mlx5_0:1"}));
    QCOMPARE(metric(f, "routes"), 2.0);
    QCOMPARE(metric(f, "pairs"), 6.0);
    QCOMPARE(metricText(f, "job"), std::string("train"));
}

} // namespace

class TestStragglerPath : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void degradedHostLinkMakesTheStraggler() {
        const std::string db = stores_.make(fabric(1), "");
        QVERIFY(ofKind(analyzeStore(db), FindingKind::StragglerPath).empty());  // no job, no straggler
        addJob(db, 1, "train", kFourRanks);
        const auto fs = ofKind(analyzeStore(db), FindingKind::StragglerPath);
        QCOMPARE(fs.size(), std::size_t{1});
        const Finding& f = fs[0];
        checkRouteIntoDgx004(f);
        QCOMPARE(metricText(f, "bottleneck_reason"), std::string("degraded_link"));
        QCOMPARE(metric(f, "bottleneck_headroom"), 0.25);  // 1x of 4x
        QCOMPARE(metric(f, "src_rank"), 0.0);
        QCOMPARE(metric(f, "dst_rank"), 3.0);
        QCOMPARE(sev(f), std::string("warning"));
    }

    void busyHostLinkMakesTheStraggler() {
        const std::string db = stores_.make(fabric(), rows("leaf02", 2, "xmit_bytes", hdrBytes({0.9, 0.92, 0.9, 0.95, 0.9})));
        addJob(db, 1, "train", kFourRanks);
        const auto fs = ofKind(analyzeStore(db), FindingKind::StragglerPath);
        QCOMPARE(fs.size(), std::size_t{1});
        checkRouteIntoDgx004(fs[0]);
        QCOMPARE(metricText(fs[0], "bottleneck_reason"), std::string("utilisation"));
        QVERIFY(metric(fs[0], "bottleneck_headroom") < 0.11);
    }

    void loadEveryPairSharesIsNoOutlier() {
        // Every link equally busy: pairs are slow alike, none is a straggler.
        std::string csv;
        for (const char* n : {"leaf01", "leaf02"})
            for (int p : {1, 2, 9, 10}) csv += rows(n, p, "xmit_bytes", hdrBytes({0.6, 0.6, 0.6, 0.6}));
        for (const char* n : {"spine01", "spine02"})
            for (int p : {1, 2}) csv += rows(n, p, "xmit_bytes", hdrBytes({0.6, 0.6, 0.6, 0.6}));
        for (const char* h : {"dgx001 mlx5_0", "dgx002 mlx5_0", "dgx003 mlx5_0", "dgx004 mlx5_0"})
            csv += rows(h, 1, "xmit_bytes", hdrBytes({0.6, 0.6, 0.6, 0.6}));
        const std::string db = stores_.make(fabric(), csv);
        addJob(db, 1, "train", kFourRanks);
        QVERIFY(ofKind(analyzeStore(db), FindingKind::StragglerPath).empty());
    }

    void tooFewPairsOrUnknownHostsGiveNothing() {
        const std::string db = stores_.make(fabric(1), "");
        addJob(db, 1, "pair", {{"dgx001", "mlx5_0"}, {"dgx004", "mlx5_0"}});             // one pair
        addJob(db, 2, "elsewhere", {{"gpu1", ""}, {"gpu2", ""}, {"gpu3", ""}, {"gpu4", ""}});  // not in this fabric
        QVERIFY(ofKind(analyzeStore(db), FindingKind::StragglerPath).empty());
    }

    void ibsimFabricWithOneNarrowHost() {
        // Real ibnetdiscover output of ibsim's fat tree (tests/data/README.md): gpu006 hangs off
        // leaf03 p4 at 1xHDR. An 8-rank all-pairs job: the 7 pairs with gpu006 stand out.
        const std::string db = stores_.makeFromCapture("ibsim/ibnetdiscover.txt");
        std::vector<std::pair<std::string, std::string>> ranks;
        for (int r = 1; r <= 8; ++r) ranks.emplace_back("gpu00" + std::to_string(r), "mlx5_0");
        addJob(db, 7, "ibsim-job", ranks);
        const auto fs = ofKind(analyzeStore(db), FindingKind::StragglerPath);
        QCOMPARE(fs.size(), std::size_t{1});
        const Finding& f = fs[0];
        QCOMPARE(labels(f.ports), (std::vector<std::string>{"leaf03:4", "gpu006 mlx5_0:1"}));
        QCOMPARE(metric(f, "pairs"), 28.0);
        QCOMPARE(metric(f, "src_rank"), 0.0);
        QCOMPARE(metric(f, "dst_rank"), 5.0);
        const auto p = labels(f.path);
        QCOMPARE(p.front(), std::string("gpu001 mlx5_0:1"));
        QCOMPARE(p[p.size() - 2], std::string("leaf03:4"));
        QCOMPARE(p.back(), std::string("gpu006 mlx5_0:1"));
        QCOMPARE(metricText(f, "bottleneck_reason"), std::string("degraded_link"));
    }

    // A rank's host is the first host node named "host device" or "host", or whose system name
    // (LLDP) is the host, before any whose description only leads with "host " (and holds the
    // device); switches never are.
    void ranksFindTheirHostsByName() {
        MiniFabric m;
        const NodeId leaf = m.sw("leaf01"), decoy = m.sw("gpu09");  // a switch named like a host
        const NodeId leading = m.host("gpu01 HCA-1 mlx5_1"), exact = m.host("gpu01 mlx5_1"), bare = m.host("gpu02"),
                     named = m.host("HCA-7"), other = m.host("gpu03 HCA-1 mlx5_0");
        int port = 1;
        for (NodeId n : {leading, exact, bare, named, other}) m.link(leaf, port++, n, 1);
        m.link(leaf, port, decoy, 1);
        Fabric f = m.build();
        f.nodes[named.value()].systemName = "gpu04";  // as LLDP names a host; ibnetdiscover text cannot carry it
        const std::string db = stores_.make(f, "");
        {
            Store store(db);
            Store::Transaction tx(store);
            store.writeSnapshot(f, "with system names", kT0 + 1);
            tx.commit();
        }
        addJob(db, 1, "placed", {{"gpu01", "mlx5_1"}, {"gpu02", "mlx5_0"}, {"gpu04", ""}, {"gpu03", "mlx5_0"}, {"gpu03", "mlx5_9"}, {"gpu09", ""}});
        const FindingsReport r = analyzeStore(db);
        QCOMPARE(r.jobs.size(), std::size_t{1});
        const auto& places = r.jobs[0].rankPlaces;
        auto at = [&](std::size_t rank) { return places.at(rank).port ? places.at(rank).port->node + ":" + places.at(rank).port->port : std::string("-"); };
        QCOMPARE(at(0), std::string("gpu01 mlx5_1:1"));        // exact, though a node before it leads with "gpu01 "
        QCOMPARE(at(1), std::string("gpu02:1"));               // the description is the host
        QCOMPARE(at(2), std::string("HCA-7:1"));               // by its system name
        QCOMPARE(at(3), std::string("gpu03 HCA-1 mlx5_0:1"));  // leads with the host and holds the device
        QCOMPARE(at(4), std::string("-"));                     // leads with it, without that device
        QCOMPARE(at(5), std::string("-"));                     // only a switch has that name
        QCOMPARE(r.jobs[0].ranksUnplaced, std::size_t{2});
    }

    void benchmarkHostsMeetTheFabricAtTheirNics() {
        // A benchmark names hosts without a device: each NIC of a multi-NIC host, in fabric
        // order, and the port where the first meets its switch; never a switch named like a host.
        MiniFabric m;
        const NodeId leaf = m.sw("leaf01"), decoy = m.sw("gpu07 spine");
        const NodeId nic0 = m.host("gpu05 mlx5_0"), nic1 = m.host("gpu05 mlx5_1"), lone = m.host("gpu06");
        m.link(leaf, 3, nic1, 1);
        m.link(leaf, 4, nic0, 1);
        m.link(leaf, 5, lone, 1);
        m.link(leaf, 6, decoy, 1);
        const Fabric f = m.build();
        const RankHosts hosts(f, findAggregationNodes(f));
        QCOMPARE(hosts.nodesLedBy("gpu05"), (std::vector<NodeId>{nic0, nic1}));
        QVERIFY(hosts.nodesLedBy("gpu06").empty());  // its description is the host: no NIC named after it
        QVERIFY(hosts.nodesLedBy("gpu07").empty());  // a switch
        QVERIFY(hosts.node("gpu06") == lone);
        const auto at = [&](const std::string& host) {
            const auto p = hosts.port(host);
            return p ? f.node(f.port(*p).node).description + ":" + f.port(*p).name : std::string("-");
        };
        QCOMPARE(at("gpu05"), std::string("gpu05 mlx5_0:1"));
        QCOMPARE(at("gpu06"), std::string("gpu06:1"));
        QCOMPARE(at("gpu07"), std::string("-"));
    }

    void probesJobsAndBenchmarksPlaceAHostAlike() {
        // One host rule for every log: a probe, a job rank and a benchmark naming "gpu05" meet the
        // fabric at the same NIC, its first in fabric order (here mlx5_1, whose name sorts after
        // mlx5_0: the probes' old rule of their own took mlx5_0). A probe may also name a GUID;
        // a switch is never a probe's host, and a hop may name it.
        MiniFabric m;
        const NodeId leaf = m.sw("leaf01");
        const NodeId nic1 = m.host("gpu05 mlx5_1"), nic0 = m.host("gpu05 mlx5_0"), lone = m.host("gpu06");
        m.link(leaf, 3, nic1, 1);
        m.link(leaf, 4, nic0, 1);
        m.link(leaf, 5, lone, 1);
        const Fabric f = m.build();
        const HostPlaces places(f);
        const ProbeRouter router(places, {}, 4);
        const auto name = [&](std::optional<PortId> p) {
            return p ? f.node(f.port(*p).node).description + ":" + f.port(*p).name : std::string("-");
        };
        QCOMPARE(name(places.hosts().port("gpu05")), std::string("gpu05 mlx5_1:1"));
        QCOMPARE(name(router.hostPort("gpu05")), name(places.hosts().port("gpu05")));
        QCOMPARE(name(router.hostPort(" gpu05 mlx5_0 ")), std::string("gpu05 mlx5_0:1"));
        QCOMPARE(name(router.hostPort(f.node(lone).guid)), std::string("gpu06:1"));
        QCOMPARE(name(router.hostPort("leaf01")), std::string("-"));
        QCOMPARE(name(router.hostPort(f.node(leaf).guid)), std::string("-"));
        QVERIFY(router.node("gpu05") == nic1);
        QVERIFY(router.node("leaf01") == leaf);
        QVERIFY(router.node("gpu07") == std::nullopt);
        const ProbeRoutes r = router.routes(*router.hostPort("gpu05"), *router.hostPort("gpu06"), {});
        QCOMPARE(r.routes.size(), std::size_t{1});
        QCOMPARE(name(r.routes[0].hops.front().tx), std::string("gpu05 mlx5_1:1"));
        QVERIFY(places.distance(nic0, lone) == PairDistance::SameLeaf);
    }

    void largeJobsUseRingNeighbours() {
        // ring_above 3: the 4 ranks count as a ring (0->1, 1->2, 2->3, 3->0), 4 pairs, and the
        // first bad one is 2 -> 3; the default (all pairs for <= 8 ranks) has 6 and blames 0 -> 3.
        const std::string db = stores_.make(fabric(1), "");
        addJob(db, 1, "train", kFourRanks);
        const auto ring = ofKind(analyzeStore(db, parseAnalysisConfig(R"({"straggler_path": {"ring_above": 3}})")), FindingKind::StragglerPath);
        QCOMPARE(ring.size(), std::size_t{1});
        QCOMPARE(metric(ring[0], "pairs"), 4.0);
        QCOMPARE(metric(ring[0], "src_rank"), 2.0);
        QCOMPARE(metric(ring[0], "dst_rank"), 3.0);
        QCOMPARE(labels(ring[0].path).front(), std::string("dgx003 mlx5_0:1"));
        QCOMPARE(labels(ring[0].path).size(), std::size_t{4});  // same leaf: host, leaf in, leaf out, host
        const auto all = ofKind(analyzeStore(db), FindingKind::StragglerPath);
        QCOMPARE(all.size(), std::size_t{1});
        QCOMPARE(metric(all[0], "pairs"), 6.0);
    }
};

QTEST_GUILESS_MAIN(TestStragglerPath)
#include "tst_analysis_straggler.moc"
