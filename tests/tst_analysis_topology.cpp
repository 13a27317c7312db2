// topology_change and `fabscope diff`: links added, removed, moved and re-speeded between two
// snapshots are found; an unchanged fabric (even written in another order) gives nothing.
#include "analysis_fixture.h"
#include "app/cli_diff.h"
#include "core/analysis/topology_change.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <iostream>

using namespace atest;

namespace {

struct Nodes {
    MiniFabric m;
    NodeId leaf, spine1, spine2, h1, h2;
    Nodes() {
        leaf = m.sw("leaf01");
        spine1 = m.sw("spine01");
        spine2 = m.sw("spine02");
        h1 = m.host("dgx001 mlx5_0");
        h2 = m.host("dgx002 mlx5_0");
    }
};

Fabric before() {
    Nodes n;
    n.m.link(n.leaf, 1, n.h1, 1);
    n.m.link(n.leaf, 2, n.h2, 1);
    n.m.link(n.leaf, 9, n.spine1, 1);
    n.m.link(n.leaf, 10, n.spine2, 1);
    return n.m.build();
}

// The same fabric, links listed in another order and from the other end.
Fabric sameInOtherOrder() {
    Nodes n;
    n.m.link(n.spine2, 1, n.leaf, 10);
    n.m.link(n.spine1, 1, n.leaf, 9);
    n.m.link(n.h2, 1, n.leaf, 2);
    n.m.link(n.h1, 1, n.leaf, 1);
    return n.m.build();
}

// dgx002 moved from leaf01 p2 to p3; leaf01-spine01 down to 1x; leaf01 p10 - spine02 p1 gone;
// leaf01 p11 - spine02 p2 new.
Fabric after() {
    Nodes n;
    n.m.link(n.leaf, 1, n.h1, 1);
    n.m.link(n.leaf, 3, n.h2, 1);
    n.m.link(n.leaf, 9, n.spine1, 1, 1);
    n.m.link(n.leaf, 11, n.spine2, 2);
    return n.m.build();
}

const Finding* change(const std::vector<Finding>& fs, const std::string& what) {
    for (const auto& f : fs)
        if (metricText(f, "change") == what) return &f;
    return nullptr;
}

// Runs a CLI command with stdout captured.
int captured(const std::vector<std::string>& args, std::string& out) {
    std::ostringstream s;
    auto* old = std::cout.rdbuf(s.rdbuf());
    const int rc = fabscope::cli::cmdDiff(args);
    std::cout.rdbuf(old);
    out = s.str();
    return rc;
}

} // namespace

class TestTopologyChange : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void everyKindOfChangeIsFound() {
        const auto fs = diffTopology(before(), kT0, after(), kT0 + 3600);
        QCOMPARE(fs.size(), std::size_t{4});

        const Finding* moved = change(fs, "moved");
        QVERIFY(moved);
        QCOMPARE(labels(moved->ports), (std::vector<std::string>{"dgx002 mlx5_0:1", "leaf01:3", "leaf01:2"}));
        QCOMPARE(sev(*moved), std::string("warning"));

        const Finding* slower = change(fs, "width_speed");
        QVERIFY(slower);
        QCOMPARE(labels(slower->ports), (std::vector<std::string>{"leaf01:9", "spine01:1"}));
        QCOMPARE(metricText(*slower, "old"), std::string("4xHDR"));
        QCOMPARE(metricText(*slower, "new"), std::string("1xHDR"));
        QCOMPARE(metric(*slower, "capacity_change_gbps"), -150.0);
        QCOMPARE(sev(*slower), std::string("warning"));

        const Finding* removed = change(fs, "removed");
        QVERIFY(removed);
        QCOMPARE(labels(removed->ports), (std::vector<std::string>{"leaf01:10", "spine02:1"}));

        const Finding* added = change(fs, "added");
        QVERIFY(added);
        QCOMPARE(labels(added->ports), (std::vector<std::string>{"leaf01:11", "spine02:2"}));
        QCOMPARE(sev(*added), std::string("info"));
        for (const auto& f : fs) {
            QCOMPARE(f.kind, FindingKind::TopologyChange);
            QCOMPARE(f.start, static_cast<double>(kT0));
            QCOMPARE(f.end, static_cast<double>(kT0 + 3600));
        }
    }

    void fasterLinkIsInfo() {  // the reverse diff: 1x back to 4x is an improvement
        const auto fs = diffTopology(after(), kT0, before(), kT0 + 1);
        const Finding* faster = change(fs, "width_speed");
        QVERIFY(faster);
        QCOMPARE(sev(*faster), std::string("info"));
    }

    void sameFabricInAnotherOrderIsNoChange() {
        QVERIFY(diffTopology(before(), kT0, sameInOtherOrder(), kT0 + 60).empty());
        QVERIFY(diffTopology(before(), kT0, before(), kT0 + 60).empty());
    }

    void analyzeComparesTheLastTwoSnapshots() {
        const std::string db = stores_.make(before(), "");
        QVERIFY(ofKind(analyzeStore(db), FindingKind::TopologyChange).empty());  // one snapshot: nothing to compare
        stores_.addSnapshot(db, sameInOtherOrder(), "B", kT0 + 600);
        QVERIFY(ofKind(analyzeStore(db), FindingKind::TopologyChange).empty());
        stores_.addSnapshot(db, after(), "C", kT0 + 1200);
        const auto fs = ofKind(analyzeStore(db), FindingKind::TopologyChange);
        QCOMPARE(fs.size(), std::size_t{4});
        QCOMPARE(fs.front().end, static_cast<double>(kT0 + 1200));
        QCOMPARE(fs.front().start, static_cast<double>(kT0 + 600));  // B -> C, not A -> C
    }

    void diffCommand() {
        const std::string db = stores_.make(before(), "");
        stores_.addSnapshot(db, after(), "B", kT0 + 3600);
        std::string out;
        QCOMPARE(captured({"diff", "--db", db, "--snapshot", "A", "--snapshot", "B", "--json"}, out), 0);
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(out)).object();
        QCOMPARE(j["fabscope_findings"].toInt(), 1);
        QCOMPARE(j["window"].toObject()["start"].toInteger(), kT0);
        QCOMPARE(j["window"].toObject()["end"].toInteger(), kT0 + 3600);
        const QJsonArray fs = j["findings"].toArray();
        QCOMPARE(fs.size(), 4);
        QCOMPARE(fs[0].toObject()["kind"].toString(), QString("topology_change"));
        QVERIFY(fs[0].toObject()["id"].toString().startsWith("topology_change-"));
        QVERIFY(fs[0].toObject()["ports"].toArray()[0].toObject()["guid"].toString().startsWith("0x"));

        QCOMPARE(captured({"diff", "--db", db, "--snapshot", "A", "--snapshot", "A"}, out), 0);
        QVERIFY(out.find("no differences") != std::string::npos);
        QCOMPARE(captured({"diff", "--db", db, "--snapshot", "A", "--snapshot", "B"}, out), 0);
        QVERIFY(out.find("moved") != std::string::npos);

        QCOMPARE(captured({"diff", "--db", db, "--snapshot", "A"}, out), 2);
        QCOMPARE(captured({"diff", "--snapshot", "A", "--snapshot", "B"}, out), 2);
        QCOMPARE(captured({"diff", "--db", db, "--snapshot", "A", "--snapshot", "B", "--bogus"}, out), 2);
        QCOMPARE(captured({"diff", "--db", db, "--snapshot", "A", "--snapshot", "nope"}, out), 1);
        std::ofstream(stores_.path("junk.sqlite")) << "not a database at all, not even close\n";
        QCOMPARE(captured({"diff", "--db", stores_.path("junk.sqlite"), "--snapshot", "A", "--snapshot", "B"}, out), 3);
    }
};

QTEST_GUILESS_MAIN(TestTopologyChange)
#include "tst_analysis_topology.moc"
