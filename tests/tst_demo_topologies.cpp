// `fabscope demo --topology fat-tree|dragonfly|rail`: each demo imports into the node and link
// counts its generator promises, the analysis finds the faults planted in it, and the shape
// detection (core/fabric_shape.h) recognises it and finds its groups or rails exactly from the
// graph alone.
#include "core/analysis/analyze.h"
#include "core/demo_fabric.h"
#include "core/fabric_shape.h"
#include "importers/import_runner.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace fabscope;

Q_DECLARE_METATYPE(fabscope::DemoOptions::Topology)
Q_DECLARE_METATYPE(fabscope::FabricShape)

namespace {

struct Imported {
    DemoManifest manifest;
    StoreInfo info;
    Fabric fabric;
    FindingsReport findings;
};

Imported importDemo(const QTemporaryDir& tmp, DemoOptions::Topology topology) {
    const std::string dir = tmp.filePath(QStringLiteral("demo")).toStdString();
    DemoOptions opt;
    opt.topology = topology;
    opt.samples = 30;
    Imported out;
    out.manifest = writeDemo(dir, opt);
    Store store(tmp.filePath(QStringLiteral("s.sqlite")).toStdString());
    ImporterRegistry reg;
    const auto summary = ImportRunner(store, reg).run({dir}, {});
    if (summary.anyFailed()) throw std::runtime_error("import failed");
    out.info = store.info();
    out.fabric = store.loadFabric(store.latestSnapshot()->id);
    out.findings = analyze(store, {}, AnalysisConfig{});
    return out;
}

// Node descriptions per group id, as sets, for comparing partitions whatever the numbering.
std::set<std::set<std::string>> partition(const Fabric& f, const NodeGroups& g, bool switchesOnly) {
    std::map<int, std::set<std::string>> by;
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (g.of[i] >= 0 && (!switchesOnly || f.nodes[i].type == NodeType::Switch)) by[g.of[i]].insert(f.nodes[i].description);
    std::set<std::set<std::string>> out;
    for (auto& [id, names] : by) out.insert(names);
    return out;
}

std::set<std::set<std::string>> partition(const std::vector<std::vector<std::string>>& groups) {
    std::set<std::set<std::string>> out;
    for (const auto& g : groups) out.insert(std::set<std::string>(g.begin(), g.end()));
    return out;
}

} // namespace

class TestDemoTopologies : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void importsWithItsCountsAndFaults_data() {
        QTest::addColumn<DemoOptions::Topology>("topology");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("cas");
        QTest::addColumn<int>("links");
        QTest::addColumn<FabricShape>("shape");
        // Fat tree: 4 spines + 8 leaves, 64 hosts, 64 host links + 32 uplinks.
        QTest::newRow("fat-tree") << DemoOptions::Topology::FatTree << 12 << 64 << 96 << FabricShape::FatTree;
        // Dragonfly: 5 groups x 4 switches, 4 hosts each; 80 host + 5 x 6 local + 10 global links.
        QTest::newRow("dragonfly") << DemoOptions::Topology::Dragonfly << 20 << 80 << 120 << FabricShape::Dragonfly;
        // Rail: 4 spines + 2 units x 8 rail leaves; 16 hosts x 8 NICs; 128 NIC links + 16 x 4 uplinks.
        QTest::newRow("rail") << DemoOptions::Topology::Rail << 20 << 128 << 192 << FabricShape::Rail;
    }
    void importsWithItsCountsAndFaults() {
        QFETCH(DemoOptions::Topology, topology);
        QFETCH(int, switches);
        QFETCH(int, cas);
        QFETCH(int, links);
        QFETCH(FabricShape, shape);
        QTemporaryDir tmp;
        const Imported d = importDemo(tmp, topology);
        QCOMPARE(d.info.switches, std::size_t(switches));
        QCOMPARE(d.info.cas, std::size_t(cas));
        QCOMPARE(d.info.links, std::size_t(links));
        QCOMPARE(d.manifest.links, std::size_t(links));
        QVERIFY(d.info.samples > 0);
        QCOMPARE(d.info.unmappedSeries, std::size_t(0));
        // Every planted fault is found on its port.
        QCOMPARE(d.manifest.faults.size(), std::size_t(3));
        for (const auto& fault : d.manifest.faults) {
            const bool found = std::any_of(d.findings.findings.begin(), d.findings.findings.end(), [&](const Finding& f) {
                return f.kind == fault.kind && std::any_of(f.ports.begin(), f.ports.end(), [&](const PortRef& p) {
                           return p.node == fault.node && p.port == fault.port;
                       });
            });
            if (!found) qWarning() << "not found:" << std::string(kindName(fault.kind)).c_str() << fault.node.c_str() << fault.port.c_str();
            QVERIFY(found);
        }
        QCOMPARE(analyseShape(d.fabric).shape, shape);
    }

    void dragonflyGroupsAreFoundExactly() {
        QTemporaryDir tmp;
        const Imported d = importDemo(tmp, DemoOptions::Topology::Dragonfly);
        const ShapeAnalysis s = analyseShape(d.fabric);
        QCOMPARE(s.shape, FabricShape::Dragonfly);
        QCOMPARE(s.groups.count, int(d.manifest.groups.size()));
        QCOMPARE(partition(d.fabric, s.groups, true), partition(d.manifest.groups));
        // Hosts join their switch's group.
        for (const Link& l : d.fabric.links) {
            const auto a = d.fabric.port(l.a).node.value(), b = d.fabric.port(l.b).node.value();
            if (d.fabric.nodes[a].type != d.fabric.nodes[b].type) QCOMPARE(s.groups.of[a], s.groups.of[b]);
        }
    }

    void railsAreFoundExactly() {
        QTemporaryDir tmp;
        const Imported d = importDemo(tmp, DemoOptions::Topology::Rail);
        const ShapeAnalysis s = analyseShape(d.fabric);
        QCOMPARE(s.shape, FabricShape::Rail);
        QCOMPARE(s.rails.count, 8);
        std::set<std::set<std::string>> nics;
        std::map<int, std::set<std::string>> by;
        for (std::size_t i = 0; i < d.fabric.nodes.size(); ++i)
            if (d.fabric.nodes[i].type == NodeType::Ca) {
                QVERIFY(s.rails.of[i] >= 0);
                by[s.rails.of[i]].insert(d.fabric.nodes[i].description);
            }
        for (auto& [r, names] : by) nics.insert(names);
        QCOMPARE(nics, partition(d.manifest.groups));
    }

    // A fat tree is neither: no triangles among switches, one NIC per host.
    void fatTreeIsNeitherDragonflyNorRail() {
        const Fabric f = demoFabric(DemoOptions::Scale::Small);
        QCOMPARE(findDragonflyGroups(f).count, 0);
        QCOMPARE(findRails(f).count, 0);
    }

    // Names that would give the groups away are not used: renaming every switch changes nothing.
    void groupsDoNotDependOnNames() {
        QTemporaryDir tmp;
        Imported d = importDemo(tmp, DemoOptions::Topology::Dragonfly);
        const auto before = partition(d.fabric, analyseShape(d.fabric).groups, true);
        std::map<std::string, std::string> renamed;
        int k = 0;
        for (auto& n : d.fabric.nodes)
            if (n.type == NodeType::Switch) n.description = renamed[n.description] = "x" + std::to_string(97 - k++);
        auto after = partition(d.fabric, analyseShape(d.fabric).groups, true);
        std::set<std::set<std::string>> mapped;
        for (const auto& g : before) {
            std::set<std::string> m;
            for (const auto& name : g) m.insert(renamed[name]);
            mapped.insert(m);
        }
        QCOMPARE(after, mapped);
    }

    // The command line: `demo --topology dragonfly`, then `import` and `info --json`.
    void cliWritesTheChosenTopology() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("df")), db = tmp.filePath(QStringLiteral("df.sqlite"));
        auto run = [](const QStringList& args) {
            QProcess p;
            p.start(QStringLiteral(FABSCOPE_BIN), args);
            p.waitForFinished(120000);
            return std::pair{p.exitCode(), p.readAllStandardOutput()};
        };
        QCOMPARE(run({QStringLiteral("demo"), QStringLiteral("--out"), dir, QStringLiteral("--topology"), QStringLiteral("dragonfly"),
                      QStringLiteral("--samples"), QStringLiteral("10")})
                     .first,
                 0);
        QCOMPARE(run({QStringLiteral("import"), QStringLiteral("--db"), db, dir}).first, 0);
        const auto [code, out] = run({QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        QCOMPARE(code, 0);
        const QJsonObject info = QJsonDocument::fromJson(out).object();
        QCOMPARE(info.value(QStringLiteral("nodes")).toObject().value(QStringLiteral("switch")).toInt(), 20);
        QCOMPARE(info.value(QStringLiteral("nodes")).toObject().value(QStringLiteral("ca")).toInt(), 80);
        QCOMPARE(info.value(QStringLiteral("links")).toInt(), 120);
        QCOMPARE(run({QStringLiteral("demo"), QStringLiteral("--out"), dir, QStringLiteral("--topology"), QStringLiteral("torus")}).first, 2);
    }

    void unknownTopologyIsRejected() {
        QVERIFY(!parseDemoTopology("torus"));
        QVERIFY(*parseDemoTopology("rail") == DemoOptions::Topology::Rail);
    }
};

QTEST_GUILESS_MAIN(TestDemoTopologies)
#include "tst_demo_topologies.moc"
