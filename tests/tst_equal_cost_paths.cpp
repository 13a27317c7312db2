// EqualCostRouter: every shortest route between two nodes, hosts never transit, and the hop
// distances it keeps between calls never change an answer, in whatever order pairs come and
// however few destinations it may keep.
#include "core/analysis/equal_cost_paths.h"
#include "core/demo_fabric.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <set>

using namespace fabscope;

class TestEqualCostPaths : public QObject {
    Q_OBJECT

    Fabric fabric_ = demoFabric(DemoOptions::Scale::Small);  // 4 spines, 8 leaves, 8 hosts on each

    NodeId named(const std::string& description) const {
        for (std::size_t i = 0; i < fabric_.nodes.size(); ++i)
            if (fabric_.nodes[i].description == description) return NodeId(static_cast<std::uint32_t>(i));
        qFatal("no node %s", description.c_str());
    }
    std::vector<NodeId> hosts() const {
        std::vector<NodeId> out;
        for (std::size_t i = 0; i < fabric_.nodes.size(); ++i)
            if (fabric_.nodes[i].type != NodeType::Switch) out.emplace_back(static_cast<std::uint32_t>(i));
        return out;
    }
    std::string path(const Route& r) const {
        std::string s;
        for (const Hop& h : r) s += (s.empty() ? "" : " ") + fabric_.node(fabric_.port(h.rx).node).description;
        return s;
    }

private Q_SLOTS:
    void routesClimbOnlyAsHighAsTheyMust() {
        const EqualCostRouter router(fabric_);
        const std::vector<NodeId> h = hosts();
        const auto leafOf = [&](NodeId host) {
            for (const Link& l : fabric_.links)
                for (auto [mine, other] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
                    if (fabric_.port(mine).node == host) return fabric_.port(other).node;
            return host;
        };
        NodeId sameLeaf = h[0], otherLeaf = h[0];
        for (NodeId x : h) {
            if (x != h[0] && leafOf(x) == leafOf(h[0])) sameLeaf = x;
            if (leafOf(x) != leafOf(h[0])) otherLeaf = x;
        }
        QVERIFY(sameLeaf != h[0] && otherLeaf != h[0]);
        const auto below = router.routes(h[0], sameLeaf, 64);
        QCOMPARE(below.size(), std::size_t{1});  // through the leaf, never up
        QCOMPARE(below[0].size(), std::size_t{2});
        const auto across = router.routes(h[0], otherLeaf, 64);
        QCOMPARE(across.size(), std::size_t{4});  // one over each spine
        std::set<std::string> spines;
        for (const Route& r : across) {
            QCOMPARE(r.size(), std::size_t{4});
            QCOMPARE(fabric_.port(r.back().rx).node, otherLeaf);
            spines.insert(fabric_.node(fabric_.port(r[1].rx).node).description);
        }
        QCOMPARE(spines, (std::set<std::string>{"spine01", "spine02", "spine03", "spine04"}));
        QCOMPARE(router.routes(h[0], otherLeaf, 2).size(), std::size_t{2});  // at most maxRoutes
        QVERIFY(router.routes(h[0], h[0], 64).empty());
        const auto up = router.routes(named("leaf01"), named("spine02"), 64);
        QCOMPARE(up.size(), std::size_t{1});
        QCOMPARE(path(up[0]), std::string("spine02"));
    }

    void keptDistancesNeverChangeTheRoutes() {
        // Every ordered host pair (and some switches), shuffled so destinations alternate between
        // leaves: routers keeping none, one, and as many destinations as memory allows agree.
        std::vector<std::pair<NodeId, NodeId>> pairs;
        const std::vector<NodeId> h = hosts();
        for (NodeId a : h)
            for (NodeId b : h)
                if (a != b) pairs.emplace_back(a, b);
        for (const char* sw : {"leaf03", "spine04"}) {
            pairs.emplace_back(h[5], named(sw));
            pairs.emplace_back(named(sw), h[40]);
        }
        std::shuffle(pairs.begin(), pairs.end(), std::mt19937(11));
        const EqualCostRouter none(fabric_, 0), one(fabric_, 1), many(fabric_);
        std::size_t routes = 0;
        for (const auto& [a, b] : pairs) {
            const auto expected = none.routes(a, b, 64);
            QVERIFY(!expected.empty());
            routes += expected.size();
            for (const Route& r : expected) {  // a walk from a to b, as short as the others, through switches
                QCOMPARE(fabric_.port(r.front().tx).node, a);
                QCOMPARE(fabric_.port(r.back().rx).node, b);
                QCOMPARE(r.size(), expected.front().size());
                for (std::size_t i = 0; i + 1 < r.size(); ++i) {
                    QCOMPARE(fabric_.port(r[i].rx).node, fabric_.port(r[i + 1].tx).node);
                    QVERIFY(fabric_.node(fabric_.port(r[i].rx).node).type == NodeType::Switch);
                }
            }
            if (fabric_.node(a).type != NodeType::Switch && fabric_.node(b).type != NodeType::Switch)
                QCOMPARE(expected.size(), expected.front().size() == 2 ? std::size_t{1} : std::size_t{4});  // below one leaf, or over each spine
            for (const EqualCostRouter* r : {&one, &many}) {
                const auto got = r->routes(a, b, 64);
                QCOMPARE(got.size(), expected.size());
                for (std::size_t i = 0; i < got.size(); ++i) QCOMPARE(path(got[i]), path(expected[i]));
            }
        }
        QVERIFY(routes > pairs.size());  // most pairs cross the spines: four routes each
    }
};

QTEST_GUILESS_MAIN(TestEqualCostPaths)
#include "tst_equal_cost_paths.moc"
