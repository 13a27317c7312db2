// What-if (issue 22) with imported forwarding tables: compare_fixture.h's 4 leaves x 3 spines
// (2 hosts a leaf, 4xHDR = 200 Gb/s) with an ibroute dump whose tables are deliberately not an
// even spread: leaf01 sends gpu03, gpu04 (leaf02) and gpu05 (leaf03) through spine01, gpu06 and
// gpu07 through spine02, gpu08 through spine03; leaf02 sends both leaf01 hosts through spine01,
// leaf03 only gpu01 (and gpu07), leaf04 neither. Measured p95: leaf01's uplinks 60 / 40 / 75 %
// up, every other direction 50 %. Every expected number below is worked out by hand from the
// model in docs/ANALYSIS.md "What-if" (each host LID a port carries carries an equal share).
#include "uplink_load_fixture.h"

#include "cli_run.h"

#include "core/analysis/analyze.h"
#include "core/report/stress.h"
#include "core/whatif/whatif.h"
#include "core/whatif/whatif_model.h"

#include <cmath>
#include <cstdio>

namespace {

using namespace fabscope;

std::string key(const WhatIfLink& l) {
    return l.ports[0].node + " p" + l.ports[0].port + ">" + l.ports[1].node + " p" + l.ports[1].port;
}

std::map<std::string, WhatIfLink> byKey(const WhatIfReport& r) {
    std::map<std::string, WhatIfLink> out;
    for (const auto& l : r.links) out[key(l)] = l;
    return out;
}

bool near(double a, double b) { return std::abs(a - b) < 1e-6; }

// Every number of a prediction at full precision, to compare two ways of computing it.
std::string fingerprint(const WhatIfReport& r) {
    std::string out;
    const auto num = [&out](double v) {
        char b[32];
        std::snprintf(b, sizeof b, " %.17g", v);
        out += b;
    };
    const auto use = [&](const DirectionUse& u) {
        num(u.p95Gbps);
        num(u.peakGbps);
        num(u.capacityGbps);
    };
    out += r.routing;
    num(r.totalBeforeGbps);
    num(r.totalAfterGbps);
    for (const WhatIfLink& l : r.links) {
        out += "\n" + key(l) + (l.failed ? " failed" : "") + (l.turnsHot ? " hot" : "");
        use(l.before);
        use(l.after);
    }
    for (const auto& h : r.disconnected) out += "\ncut " + h;
    for (const JobImpact& j : r.jobs) {
        out += "\njob " + j.name + (j.disconnected ? " cut" : "");
        for (const PortRef& p : j.bottleneck) out += " " + p.node + " p" + p.port;
        for (const double v : {j.worstBefore, j.worstAfter, j.slowdown, j.gpuHoursAtRisk}) num(v);
    }
    return out;
}

// LID of a host's port and GUID of a node, as the store holds them.
struct Names {
    std::map<std::string, int> lid;          // "gpu01" -> LID
    std::map<std::string, std::string> guid;  // "leaf01" -> GUID
};

Names names(const std::string& db) {
    const Store store(db, Store::Mode::ReadOnly);
    const Fabric f = store.loadFabric(store.latestSnapshot()->id);
    Names n;
    for (const Node& node : f.nodes) n.guid[node.description.substr(0, node.description.find(' '))] = node.guid;
    for (const Port& p : f.ports)
        if (f.node(p.node).type == NodeType::Ca && p.lid > 0) n.lid[f.node(p.node).description.substr(0, 5)] = p.lid;
    return n;
}

// The leaf tables (destination host -> uplink port); a leaf's own hosts hang off ports 1 and 2.
const std::map<std::string, std::map<int, int>> kLeafRoutes{
    {"leaf01", {{3, 20}, {4, 20}, {5, 20}, {6, 21}, {7, 21}, {8, 22}}},
    {"leaf02", {{1, 20}, {2, 20}, {5, 21}, {6, 21}, {7, 22}, {8, 22}}},
    {"leaf03", {{1, 20}, {2, 21}, {3, 22}, {4, 22}, {7, 20}, {8, 21}}},
    {"leaf04", {{1, 22}, {2, 22}, {3, 21}, {4, 20}, {5, 20}, {6, 21}}},
};

// `ibroute`/dump_fts output for every switch, as the tools print it.
std::string ibroute(const Names& n) {
    std::ostringstream out;
    const auto host = [](int h) {
        char b[8];
        std::snprintf(b, sizeof b, "gpu%02d", h);
        return std::string(b);
    };
    const auto line = [&](int lid, int port, int h) {
        char b[128];
        std::snprintf(b, sizeof b, "0x%04x %03d : (Channel Adapter portguid 0x%016x: '%s mlx5_0')\n", lid, port, 0x100000 + h,
                      host(h).c_str());
        out << b;
    };
    for (int s = 1; s <= 3; ++s) {
        const std::string sw = "spine0" + std::to_string(s);
        out << "Unicast lids [0x0-0x20] of switch Lid " << s << " guid " << n.guid.at(sw) << " (" << sw << "):\n"
            << "  Lid  Out   Destination\n       Port     Info\n";
        for (int h = 1; h <= 8; ++h) line(n.lid.at(host(h)), (h + 1) / 2, h);  // down to the host's leaf
        out << "8 valid lids dumped\n";
    }
    for (const auto& [sw, routes] : kLeafRoutes) {
        const int leaf = sw.back() - '0';
        out << "Unicast lids [0x0-0x20] of switch Lid " << 3 + leaf << " guid " << n.guid.at(sw) << " (" << sw << "):\n"
            << "  Lid  Out   Destination\n       Port     Info\n";
        for (int h = 1; h <= 8; ++h)
            line(n.lid.at(host(h)), (h + 1) / 2 == leaf ? 2 - h % 2 : routes.at(h), h);
        out << "8 valid lids dumped\n";
    }
    return out.str();
}

} // namespace

class TestWhatIfLft : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string lft_, ecmp_, partial_;  // the same fabric and load with all, no and only the spines' tables

    WhatIfReport run(const std::string& db, const std::vector<std::string>& fails) {
        const Store store(db, Store::Mode::ReadOnly);
        std::vector<WhatIfChange> changes;
        for (const auto& f : fails) changes.push_back(parseFail(f));
        return whatIf(store, std::nullopt, std::nullopt, changes, AnalysisConfig{});
    }

    static void conserved(const WhatIfReport& r) {
        QVERIFY(r.totalBeforeGbps > 0);
        QVERIFY2(std::abs(r.totalAfterGbps - r.totalBeforeGbps) <= 0.01 * r.totalBeforeGbps,
                 qPrintable(QString::number(r.totalBeforeGbps) + " -> " + QString::number(r.totalAfterGbps)));
    }

private Q_SLOTS:
    void initTestCase() {
        const std::string rows = cmpfix::steadyUplinks(
            [](int l, int s) {
                if (l != 1) return 0.5;
                return s == 1 ? 0.6 : s == 2 ? 0.4 : 0.75;
            },
            0.5);
        atest::Stores stores(dir_);
        const std::string job = cmpfix::twoRankJob(stores);
        for (std::string* db : {&lft_, &ecmp_, &partial_}) {
            *db = stores.make(cmpfix::fabric(false), rows);
            cmpfix::importFile(*db, job);
        }
        const std::string tables = stores.path("ibroute-all.txt");
        std::ofstream(tables) << ibroute(names(lft_));
        cmpfix::importFile(lft_, tables);
        // The spines' blocks only: the ibroute text up to leaf01's header.
        const std::string all = ibroute(names(partial_));
        const std::string spinesOnly = stores.path("ibroute-spines.txt");
        std::ofstream(spinesOnly) << all.substr(0, all.find("Unicast lids [0x0-0x20] of switch Lid 4 "));
        cmpfix::importFile(partial_, spinesOnly);
        const Store store(lft_, Store::Mode::ReadOnly);
        QCOMPARE(store.routes(store.latestSnapshot()->id).size(), std::size_t{7});
    }

    void leafUplinkFollowsTheTables() {
        const WhatIfReport r = run(lft_, {"leaf01:20"});
        QCOMPARE(r.routing, std::string("lft"));
        conserved(r);
        const auto l = byKey(r);
        QVERIFY(l.at("leaf01 p20>spine01 p1").failed && l.at("spine01 p1>leaf01 p20").failed);
        // Up: 120 Gb/s over gpu03, gpu04, gpu05 (40 each), each split over spine02 and spine03.
        QVERIFY(near(l.at("leaf01 p21>spine02 p1").after.p95Util(), 0.70));  // 40 % + 60 Gb/s
        QVERIFY(near(l.at("leaf01 p22>spine03 p1").after.p95Util(), 1.05));  // 75 % + 60 Gb/s
        QVERIFY(near(l.at("spine02 p2>leaf02 p21").after.p95Util(), 0.70));  // + 2 x 20 Gb/s
        QVERIFY(near(l.at("spine03 p3>leaf03 p22").after.p95Util(), 0.60));  // + 20 Gb/s
        // The rest of the old route: spine01 no longer carries them down.
        QVERIFY(near(l.at("spine01 p2>leaf02 p20").after.p95Util(), 0.10));  // 50 % - 80 Gb/s
        QVERIFY(near(l.at("spine01 p3>leaf03 p20").after.p95Util(), 0.30));  // 50 % - 40 Gb/s
        QVERIFY(!l.count("spine01 p4>leaf04 p20"));  // leaf01 sent nothing for leaf04 through spine01
        // Down: 100 Gb/s to gpu01 and gpu02 (50 each) no longer comes through spine01: gpu01's
        // from leaf02 and leaf03 (25 each, equal load per LID), gpu02's from leaf02 only.
        QVERIFY(near(l.at("leaf02 p20>spine01 p2").after.p95Util(), 0.125));   // 50 % - 75 Gb/s
        QVERIFY(near(l.at("leaf03 p20>spine01 p3").after.p95Util(), 0.375));   // 50 % - 25 Gb/s
        QVERIFY(near(l.at("leaf02 p21>spine02 p2").after.p95Util(), 0.6875));  // + 37.5 Gb/s
        QVERIFY(near(l.at("leaf03 p22>spine03 p3").after.p95Util(), 0.5625));  // + 12.5 Gb/s
        QVERIFY(near(l.at("spine02 p1>leaf01 p21").after.p95Util(), 0.75));    // + 50 Gb/s
        QVERIFY(!l.count("leaf04 p20>spine01 p4"));
        // The one direction crossing 80 % is listed first, and only it turns hot.
        QCOMPARE(key(r.links.front()), std::string("leaf01 p22>spine03 p1"));
        QCOMPARE(std::count_if(r.links.begin(), r.links.end(), [](const WhatIfLink& x) { return x.turnsHot; }), 1L);
        QVERIFY(r.disconnected.empty());
        // The job (gpu01 -> gpu03): now leaf01 p20 (60 %) then spine01 -> leaf02 (50 %); after,
        // both of leaf01's other uplinks, the worst at 105 %: 1.05 / 1, over 2 ranks x 300 s.
        QCOMPARE(r.jobs.size(), std::size_t{1});
        const JobImpact& j = r.jobs.front();
        QVERIFY(near(j.worstBefore, 0.60));
        QVERIFY(near(j.worstAfter, 1.05));
        QVERIFY(near(j.slowdown, 1.05));
        QCOMPARE(r.windowEnd - r.windowStart, 300.0);
        QVERIFY(near(j.gpuHoursAtRisk, 0.05 * 2 * 300 / 3600));
        QCOMPARE(j.bottleneck.at(0).node + " p" + j.bottleneck.at(0).port, std::string("leaf01 p22"));
        QVERIFY(!j.disconnected);
        const std::string json = whatIfJson(r);
        QVERIFY(json.find("\"routing\": \"lft\"") != std::string::npos);
        QVERIFY(json.find("forwarding tables") != std::string::npos);
    }

    void withoutTablesTheEcmpPredictionDiffers() {
        const WhatIfReport r = run(ecmp_, {"leaf01:20"});
        QCOMPARE(r.routing, std::string("ecmp"));
        const auto l = byKey(r);
        // ECMP takes leaf01's 120 Gb/s off spine01's down links a third each, leaf04's too.
        QVERIFY(near(l.at("spine01 p4>leaf04 p20").after.p95Util(), 0.30));
        QVERIFY(near(l.at("spine01 p2>leaf02 p20").after.p95Util(), 0.30));
        QVERIFY(near(r.jobs.front().worstBefore, 0.75));  // any of leaf01's three uplinks
        QVERIFY(whatIfJson(r).find("\"routing\": \"ecmp\"") != std::string::npos);
    }

    // Tables for some switches only cannot say where the rest goes: the ECMP model, as without.
    void partialTablesFallBackToEcmp() {
        {
            const Store store(partial_, Store::Mode::ReadOnly);
            QCOMPARE(store.routes(store.latestSnapshot()->id).size(), std::size_t{3});
        }
        const WhatIfReport r = run(partial_, {"leaf01:20"});
        QCOMPARE(r.routing, std::string("ecmp"));
        QVERIFY(near(byKey(r).at("spine01 p4>leaf04 p20").after.p95Util(), 0.30));
    }

    void spineLoadSpreadsOverTheOtherSpines() {
        const WhatIfReport r = run(lft_, {"spine01"});
        QCOMPARE(r.routing, std::string("lft"));
        // spine01 received 420 Gb/s but sent 400: moving what entered it adds 20 Gb/s (0.8 %).
        conserved(r);
        const auto l = byKey(r);
        QVERIFY(near(l.at("leaf01 p21>spine02 p1").after.p95Util(), 0.70));
        QVERIFY(near(l.at("leaf01 p22>spine03 p1").after.p95Util(), 1.05));
        for (const char* up : {"leaf02 p21>spine02 p2", "leaf03 p22>spine03 p3", "leaf04 p21>spine02 p4"})
            QVERIFY2(near(l.at(up).after.p95Util(), 0.75), up);  // + half of 100 Gb/s
        // Down to leaf01: leaf02's 100 Gb/s and half of leaf03's, split over the two spines.
        QVERIFY(near(l.at("spine02 p1>leaf01 p21").after.p95Util(), 0.875));
        QVERIFY(near(l.at("spine03 p2>leaf02 p22").after.p95Util(), 0.825));  // 40 (leaf01) + 25 (leaf04)
        QVERIFY(near(l.at("spine02 p4>leaf04 p21").after.p95Util(), 0.625));  // 25 Gb/s of leaf03's gpu07
        QVERIFY(r.disconnected.empty());
    }

    // spine01's table sends gpu08 down to leaf04 but no leaf's table sends gpu08 to spine01: the
    // 50 Gb/s the tables cannot place goes back over every live link into spine01 by its load
    // (120 : 100 : 100) and on along those leaves' own entries for gpu08, so routes keep their
    // length and the total holds.
    void loadTheTablesDoNotExplainKeepsItsRouteLength() {
        const WhatIfReport r = run(lft_, {"leaf04:20"});
        conserved(r);
        const auto l = byKey(r);
        // 150 + 18.75 (gpu08's share from leaf01) Gb/s: the only direction turning hot.
        QVERIFY(near(l.at("leaf01 p22>spine03 p1").after.p95Util(), 0.84375));
        QCOMPARE(key(r.links.front()), std::string("leaf01 p22>spine03 p1"));
        QVERIFY(r.links.front().turnsHot);
        // leaf03 loses gpu07's 50 and its 15.625 share of gpu08.
        QVERIFY(near(l.at("leaf03 p20>spine01 p3").after.p95Util(), 0.171875));
        // Down to leaf04: 100 + 25 (gpu07) + 18.75 + 15.625 (gpu08 via leaf01 and leaf02).
        QVERIFY(near(l.at("spine03 p4>leaf04 p22").after.p95Util(), 0.796875));
        QVERIFY(near(l.at("spine02 p4>leaf04 p21").after.p95Util(), 0.703125));  // 100 + 25 + 15.625
    }

    void tableSaysWhichRoutingWasUsed() {
        for (const auto& [db, line] : {std::pair{lft_, "routing: forwarding tables (lft)"},
                                       std::pair{ecmp_, "routing: ECMP (no forwarding table for every switch)"}}) {
            const clitest::Run r = clitest::runCli({QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db),
                                                    QStringLiteral("--fail"), QStringLiteral("leaf01:20")});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains(line), r.out.constData());
        }
    }

    // One WhatIfModel for many changes (the stress section's path) gives, change after change, the
    // numbers a model built for that change alone gives: the tables, distances, jobs and load it
    // shares carry nothing of one change into the next.
    void sharedModelGivesThePerCallNumbers() {
        for (const std::string& db : {lft_, ecmp_}) {
            const Store store(db, Store::Mode::ReadOnly);
            const auto [w0, w1] = resolveWindow(store, AnalysisWindow{});
            const Store::ReadTransaction read(store);
            const AnalysisContext ctx(store, w0, w1, AnalysisConfig{});
            const WhatIfModel model(ctx);
            QCOMPARE(model.routing(), std::string(db == lft_ ? "lft" : "ecmp"));
            const std::vector<std::vector<std::string>> runs{{"spine01"},   {"leaf01:20"},          {"leaf04:20"},
                                                             {"leaf04:20", "leaf04:21", "leaf04:22"}, {"spine03"}, {"leaf01:20"}};
            for (const auto& fails : runs) {
                std::vector<WhatIfChange> changes;
                for (const auto& f : fails) changes.push_back(parseFail(f));
                const WhatIfReport shared = whatIf(model, changes), own = whatIf(ctx, changes);
                QVERIFY(!own.links.empty());
                QCOMPARE(fingerprint(shared), fingerprint(own));
            }
            // The stress section (one model for all its rows): each row as its change alone gives it.
            const StressReport s = singlePointsOfStress(ctx, true, 48, 48);
            QCOMPARE(s.rows.size(), std::size_t{3});
            QCOMPARE(s.uplinkRows.size(), std::size_t{4});
            for (const auto* rows : {&s.rows, &s.uplinkRows})
                for (const SwitchStress& row : *rows) {
                    const WhatIfReport own = whatIf(ctx, {WhatIfChange{WhatIfChange::Fail, row.guid, row.port, ""}});
                    QCOMPARE(fingerprint(row.report), fingerprint(own));
                }
        }
    }

    // With tables the stress section runs its changes on the worker threads over one model: the
    // rows, their order and every figure are what one thread gives (three threads on two cores
    // still interleave). The ECMP model's rows stay on one thread, and are checked alike.
    void stressOnThreadsIsOneThreadsStress() {
        for (const std::string& db : {lft_, ecmp_}) {
            const Store store(db, Store::Mode::ReadOnly);
            const auto [w0, w1] = resolveWindow(store, AnalysisWindow{});
            const Store::ReadTransaction read(store);
            const AnalysisContext ctx(store, w0, w1, AnalysisConfig{});
            qputenv("FABSCOPE_THREADS", "1");
            const StressReport one = singlePointsOfStress(ctx, true, 48, 48);
            qputenv("FABSCOPE_THREADS", "3");
            const StressReport three = singlePointsOfStress(ctx, true, 48, 48);
            qunsetenv("FABSCOPE_THREADS");
            QCOMPARE(three.rows.size(), std::size_t{3});
            QCOMPARE(three.uplinkRows.size(), std::size_t{4});
            for (const auto& [a, b] : {std::pair{&one.rows, &three.rows}, std::pair{&one.uplinkRows, &three.uplinkRows}}) {
                QCOMPARE(b->size(), a->size());
                for (std::size_t k = 0; k < a->size(); ++k) {
                    QCOMPARE((*b)[k].node, (*a)[k].node);
                    QCOMPARE((*b)[k].port, (*a)[k].port);
                    QCOMPARE(fingerprint((*b)[k].report), fingerprint((*a)[k].report));
                }
            }
        }
    }

    void lastUplinkNamesTheHostsCutOff() {
        const WhatIfReport r = run(lft_, {"leaf04:20", "leaf04:21", "leaf04:22"});
        QCOMPARE(r.disconnected, (std::vector<std::string>{"gpu07 mlx5_0", "gpu08 mlx5_0"}));
        QVERIFY(!r.jobs.front().disconnected);
        // The job's own leaf cut off (rank 0 on gpu01): its ranks reach each other no more.
        const WhatIfReport own = run(lft_, {"leaf01:20", "leaf01:21", "leaf01:22"});
        QCOMPARE(own.disconnected, (std::vector<std::string>{"gpu01 mlx5_0", "gpu02 mlx5_0"}));
        QVERIFY(own.jobs.front().disconnected);
    }
};

QTEST_GUILESS_MAIN(TestWhatIfLft)
#include "tst_whatif_lft.moc"
