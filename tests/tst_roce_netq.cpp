// NetQ topology export (tests/data/roce/netq/topologyGraph.json, from NVIDIA/topograph): nodes in
// tier groups, links bundling interface pairs with breakout ports (swpNsM); broken variants.
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/netq_topology_importer.h"
#include "importers/registry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace fabscope;

namespace {

std::string readSample() {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/roce/netq/topologyGraph.json"));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data topologyGraph.json");
    return f.readAll().toStdString();
}

TopologyResult parse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr) {
    NetqTopologyImporter imp;
    DiagnosticSink diag("topologyGraph.json");
    auto r = imp.parse(ImportInput{"topologyGraph.json", text, 0}, diag, {});
    if (warnings) *warnings = diag.items();
    return r;
}

std::string end(const Fabric& f, PortId p) { return f.node(f.port(p).node).systemName + ":" + f.port(p).name; }

} // namespace

class TestRoceNetq : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(readSample())->name(), std::string_view("netq-topology"));
        NetqTopologyImporter imp;
        QCOMPARE(imp.detect(R"({"lldp": {"interface": {}}})"), 0);
        QCOMPARE(imp.detect("timestamp,node,port,counter,value\n"), 0);
    }

    // Expected nodes and links are read from the same file with Qt's JSON parser.
    void sampleBuildsEveryInterfacePair() {
        const std::string text = readSample();
        const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(text)).array().at(0).toObject();
        std::set<std::string> wantSwitches, wantHosts, wantLinks;
        std::map<QString, std::string> nameById;
        for (const auto tier : doc[QStringLiteral("nodes")].toArray())
            for (const auto n : tier.toObject()[QStringLiteral("compounded_nodes")].toArray()) {
                const auto o = n.toObject();
                const auto name = o[QStringLiteral("name")].toString().toStdString();
                nameById[o[QStringLiteral("id")].toString()] = name;
                (o[QStringLiteral("device_type")].toString() == QStringLiteral("switch") ? wantSwitches : wantHosts).insert(name);
            }
        for (const auto l : doc[QStringLiteral("links")].toArray())
            for (const auto c : l.toObject()[QStringLiteral("compounded_links")].toArray()) {
                const auto ifs = c.toObject()[QStringLiteral("interfaces")].toArray();
                auto side = [&](int i) {
                    const auto o = ifs.at(i).toObject();
                    return nameById[o[QStringLiteral("node")].toString()] + ":" + o[QStringLiteral("interface")].toString().toStdString();
                };
                wantLinks.insert(std::min(side(0), side(1)) + " " + std::max(side(0), side(1)));
            }
        QVERIFY(wantLinks.size() > 50);

        std::vector<Diagnostic> warnings;
        const Fabric f = parse(text, &warnings).fabric;
        QVERIFY(warnings.empty());
        std::set<std::string> switches, hosts, links;
        for (const Node& n : f.nodes) (n.type == NodeType::Switch ? switches : hosts).insert(n.systemName);
        for (const Link& l : f.links) {
            QVERIFY(l.seenFromBothEnds);
            links.insert(std::min(end(f, l.a), end(f, l.b)) + " " + std::max(end(f, l.a), end(f, l.b)));
        }
        QCOMPARE(switches, wantSwitches);
        QCOMPARE(hosts, wantHosts);
        QCOMPARE(links, wantLinks);
        QCOMPARE(f.links.size(), wantLinks.size());
        QVERIFY(links.count("dgx-05:ens4f0np0 net-unit-l2:swp17s0"));
    }

    void brokenVariants() {
        // Not JSON: the line of the error.
        try {
            parse("[\n  {\"nodes\": [\n    {\"id\": \"node1\",, }\n  ]}\n]\n");
            QFAIL("expected an ImportError");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{3});
            QCOMPARE(e.diagnostic().file, std::string("topologyGraph.json"));
        }
        try {
            parse(R"([{"links": []}])");
            QFAIL("expected an ImportError");
        } catch (const ImportError& e) {
            QVERIFY(QString::fromStdString(e.diagnostic().message).contains(QStringLiteral("nodes")));
        }
        // A link to a node not listed and a link with one end: skipped, each with its line.
        const std::string text = "[{\"nodes\": [{\"id\": \"n1\", \"name\": \"leaf01\", \"device_type\": \"switch\", \"node_type\": \"device\"},\n"
                                 "             {\"id\": \"n2\", \"name\": \"gpu01\", \"device_type\": \"discovered_via_lldp\", \"node_type\": \"device\"}],\n"
                                 " \"links\": [{\"id\": \"n1:swp1-*-n2:eth0\", \"interfaces\": [{\"interface\": \"swp1\", \"node\": \"n1\"}, {\"interface\": \"eth0\", \"node\": \"n2\"}]},\n"
                                 "           {\"id\": \"n1:swp2-*-n9:eth0\", \"interfaces\": [{\"interface\": \"swp2\", \"node\": \"n1\"}, {\"interface\": \"eth0\", \"node\": \"n9\"}]},\n"
                                 "           {\"id\": \"n1:swp3\", \"interfaces\": [{\"interface\": \"swp3\", \"node\": \"n1\"}]}]}]\n";
        std::vector<Diagnostic> warnings;
        const Fabric f = parse(text, &warnings).fabric;
        QCOMPARE(f.links.size(), std::size_t{1});
        QCOMPARE(f.count(NodeType::Switch), std::size_t{1});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{1});
        QCOMPARE(warnings.size(), std::size_t{2});
        QCOMPARE(warnings[0].line, std::int64_t{4});
        QCOMPARE(warnings[1].line, std::int64_t{5});
    }
};

QTEST_GUILESS_MAIN(TestRoceNetq)
#include "tst_roce_netq.moc"
