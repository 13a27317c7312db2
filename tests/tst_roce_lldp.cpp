// lldpctl -f json: the shapes lldpd prints (list and dict forms, named and unnamed chassis, json0),
// per-device files of a small leaf-spine RoCE fabric merged into one snapshot, and the shared samples.
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/lldp_json_importer.h"
#include "importers/registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace fabscope;

namespace {

std::string readData(const char* name) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/roce/lldpctl/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

struct Parsed {
    TopologyResult result;
    std::vector<Diagnostic> warnings;
};

Parsed parse(const std::string& text, const std::string& file) {
    LldpJsonImporter imp;
    DiagnosticSink diag(file);
    Parsed p;
    p.result = imp.parse(ImportInput{file, text, 0}, diag, {});
    p.warnings = diag.items();
    return p;
}

const Node* findNode(const Fabric& f, const std::string& name) {
    auto it = std::find_if(f.nodes.begin(), f.nodes.end(), [&](const Node& n) { return n.systemName == name; });
    return it == f.nodes.end() ? nullptr : &*it;
}

// "leaf01:Ethernet48" for a port, for comparing links independently of their order.
std::string portLabel(const Fabric& f, PortId p) { return f.node(f.port(p).node).systemName + ":" + f.port(p).name; }

std::vector<std::string> linkSet(const Fabric& f) {
    std::vector<std::string> out;
    for (const Link& l : f.links) {
        auto a = portLabel(f, l.a), b = portLabel(f, l.b);
        if (b < a) std::swap(a, b);
        out.push_back(a + " <-> " + b + (l.seenFromBothEnds ? "" : " (one end)"));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Neighbour entries as lldpd 1.0 prints them with `lldpctl -f json`.
std::string switchNeighbour(const std::string& ifname, const std::string& sys, const std::string& mac,
                            const std::string& port) {
    return R"({")" + ifname + R"(": {"via": "LLDP", "rid": "2", "age": "0 day, 03:12:40",
      "chassis": {")" + sys + R"(": {"id": {"type": "mac", "value": ")" + mac + R"("},
        "descr": "SONiC Software Version: SONiC.202305 - HwSku: Mellanox-SN4600C-C64",
        "mgmt-ip": "10.0.0.)" + std::to_string(sys.size()) + R"(",
        "capability": [{"type": "Bridge", "enabled": true}, {"type": "Router", "enabled": true}]}},
      "port": {"id": {"type": "ifname", "value": ")" + port + R"("}, "descr": "etp", "ttl": "120",
        "auto-negotiation": {"supported": false, "enabled": false, "current": "unknown"}}}})";
}

// A host running lldpd: port id is the MAC, the interface name is in the description.
std::string hostNeighbour(const std::string& ifname, const std::string& sys, const std::string& nic) {
    return R"({")" + ifname + R"(": {"via": "LLDP", "rid": "5", "age": "0 day, 01:00:02",
      "chassis": {")" + sys + R"(": {"id": {"type": "mac", "value": "b8:ce:f6:00:00:0)" + sys.back() + R"("},
        "descr": "Ubuntu 22.04.4 LTS Linux 5.15.0-105-generic #115-Ubuntu SMP x86_64",
        "mgmt-ip": ["10.1.0.)" + sys.back() + R"(", "fe80::bace:f6ff:fe00:1"],
        "capability": [{"type": "Bridge", "enabled": false}, {"type": "Router", "enabled": false},
                       {"type": "Wlan", "enabled": false}, {"type": "Station", "enabled": true}]}},
      "port": {"id": {"type": "mac", "value": "b8:ce:f6:00:00:1)" + sys.back() + R"("}, "descr": ")" + nic + R"(",
        "ttl": "120"}}})";
}

// Many interfaces: "interface" is a list of one-key objects.
std::string listForm(const std::vector<std::string>& entries) {
    std::string s = "{\n  \"lldp\": {\n    \"interface\": [\n";
    for (std::size_t i = 0; i < entries.size(); ++i) s += (i ? ",\n" : "") + entries[i];
    return s + "\n    ]\n  }\n}\n";
}

// One interface: "interface" is the object itself.
std::string dictForm(const std::string& entry) { return "{\n  \"lldp\": {\n    \"interface\": " + entry + "\n  }\n}\n"; }

void write(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

} // namespace

class TestRoceLldp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detectsLldpAndNothingElse() {
        LldpJsonImporter imp;
        QVERIFY(imp.detect(readData("voxpupuli_multi_interface_list_form.json")) > 50);
        QVERIFY(imp.detect(readData("voxpupuli_no_neighbors_empty.json")) > 50);
        QCOMPARE(imp.detect(R"({"status":"success","data":{"resultType":"matrix","result":[]}})"), 0);
        QCOMPARE(imp.detect("timestamp,node,port,counter,value\n"), 0);
        QCOMPARE(imp.detect(R"([{"links": [{"interfaces": [{"interface": "swp1", "node": "n"}]}]}])"), 0);
        ImporterRegistry reg;
        QCOMPARE(reg.detect(readData("voxpupuli_single_interface_dict_form_unnamed_chassis.json"))->name(),
                 std::string_view("lldpctl-json"));
        QCOMPARE(reg.detect(R"({"status":"success","data":{"resultType":"vector","result":[]}})")->name(),
                 std::string_view("prometheus-json"));
    }

    void systemNameFromFile() {
        QCOMPARE(systemNameFromFileName("/x/y/leaf03.json"), std::string("leaf03"));
        QCOMPARE(systemNameFromFileName("spine01.lldp.json"), std::string("spine01"));
        QCOMPARE(systemNameFromFileName("gpu-a01.dc1.example.com.json"), std::string("gpu-a01.dc1.example.com"));
    }

    // Real sample (voxpupuli, SEMI): list form, named chassis, port id ifname with a description.
    void sampleListForm() {
        const auto p = parse(readData("voxpupuli_multi_interface_list_form.json"), "/caps/host7.json");
        const Fabric& f = p.result.fabric;
        QCOMPARE(f.nodes.size(), std::size_t{2});
        QCOMPARE(f.links.size(), std::size_t{1});
        const Node* router = findNode(f, "router");
        QVERIFY(router);
        QVERIFY(router->type == NodeType::Switch);
        QCOMPARE(router->guid, std::string());
        const Node* host = findNode(f, "host7");
        QVERIFY(host);
        QVERIFY(host->type == NodeType::Ca);  // eno1 is a host NIC name, the neighbour a bridge/router
        QCOMPARE(linkSet(f), std::vector<std::string>{"host7:eno1 <-> router:ge-1/0/1 (one end)"});
        QCOMPARE(f.links[0].capacityBps, std::uint64_t{0});  // "current": "unknown" stays unknown
        QVERIFY(p.warnings.empty());
    }

    // Real sample: one interface, dict form, chassis without a name (keyed by nothing), port id local.
    void sampleDictFormUnnamedChassis() {
        const auto p = parse(readData("voxpupuli_single_interface_dict_form_unnamed_chassis.json"), "nas01.json");
        const Fabric& f = p.result.fabric;
        QCOMPARE(f.nodes.size(), std::size_t{2});
        QCOMPARE(linkSet(f), std::vector<std::string>{"44:94:fc:9d:55:0a:g17 <-> nas01:enp3s0 (one end)"});
        QCOMPARE(p.warnings.size(), std::size_t{1});  // named by its chassis id
        QVERIFY(QString::fromStdString(p.warnings[0].message).contains("no system name"));
        QCOMPARE(p.warnings[0].line, std::int64_t{4});  // the "enp3s0" line
    }

    // Real sample: no neighbours at all -> the local system alone, and a warning saying so.
    void sampleNoNeighbours() {
        const auto p = parse(readData("voxpupuli_no_neighbors_empty.json"), "leaf09.json");
        QCOMPARE(p.result.fabric.nodes.size(), std::size_t{1});
        QCOMPARE(p.result.fabric.links.size(), std::size_t{0});
        QCOMPARE(p.result.fabric.nodes[0].systemName, std::string("leaf09"));
        QCOMPARE(p.warnings.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(p.warnings[0].message).contains("no LLDP neighbours"));
    }

    // The stable json0 form (every value a list) and a local chassis carried in the file.
    void json0AndLocalChassis() {
        const std::string text = R"({"local-chassis": {"chassis": {"leaf07": {"id": {"type": "mac", "value": "0c:42:a1:00:00:07"},
             "capability": [{"type": "Bridge", "enabled": true}]}}},
          "lldp": [{"interface": [
            {"name": "Ethernet0", "via": "LLDP", "rid": "1", "age": "0 day, 00:10:00",
             "chassis": [{"id": [{"type": "mac", "value": "b8:ce:f6:00:00:01"}], "name": [{"value": "gpu01"}],
                          "capability": [{"type": "Station", "enabled": true}]}],
             "port": [{"id": [{"type": "mac", "value": "b8:ce:f6:00:00:11"}], "descr": [{"value": "ens1f0np0"}]}]},
            {"name": "Ethernet4", "via": "LLDP", "rid": "2", "age": "0 day, 00:10:00",
             "chassis": [{"id": [{"type": "mac", "value": "b8:ce:f6:00:00:02"}], "name": [{"value": "gpu02"}]}],
             "port": [{"id": [{"type": "ifname", "value": "ens1f0np0"}]}]}]}]})";
        const auto p = parse(text, "whatever.json");
        const Fabric& f = p.result.fabric;
        QVERIFY(findNode(f, "leaf07"));
        QVERIFY(!findNode(f, "whatever"));
        QVERIFY(findNode(f, "leaf07")->type == NodeType::Switch);
        QVERIFY(findNode(f, "gpu01")->type == NodeType::Ca);
        QCOMPARE(linkSet(f), (std::vector<std::string>{"gpu01:ens1f0np0 <-> leaf07:Ethernet0 (one end)",
                                                       "gpu02:ens1f0np0 <-> leaf07:Ethernet4 (one end)"}));
    }

    void brokenJsonGivesLine() {
        LldpJsonImporter imp;
        DiagnosticSink diag("bad.json");
        const std::string text = "{\n  \"lldp\": {\n    \"interface\": [\n      {\"eth0\": }\n    ]\n  }\n}\n";
        try {
            imp.parse(ImportInput{"bad.json", text, 0}, diag, {});
            QFAIL("expected an ImportError");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{4});
        }
    }

    // Per-device files of a 2-leaf / 1-spine fabric, imported as a directory: one snapshot in
    // which every link is present once; a link whose other end has no file is kept (one end).
    void leafSpineDirectory() {
        QTemporaryDir dir;
        const QString caps = dir.filePath(QStringLiteral("lldp"));
        QVERIFY(QDir().mkpath(caps));
        write(caps + "/spine01.json", listForm({switchNeighbour("Ethernet0", "leaf01", "0c:42:a1:00:00:01", "Ethernet48"),
                                                switchNeighbour("Ethernet4", "leaf02", "0c:42:a1:00:00:02", "Ethernet48")}));
        write(caps + "/leaf01.json", listForm({hostNeighbour("Ethernet0", "gpu1", "ens1f0np0"),
                                               switchNeighbour("Ethernet48", "spine01", "0c:42:a1:00:00:10", "Ethernet0")}));
        write(caps + "/leaf02.json", listForm({switchNeighbour("Ethernet48", "spine01", "0c:42:a1:00:00:10", "Ethernet4"),
                                               hostNeighbour("Ethernet0", "gpu2", "ens1f0np0")}));
        write(caps + "/gpu1.json", dictForm(switchNeighbour("ens1f0np0", "leaf01", "0c:42:a1:00:00:01", "Ethernet0")));

        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({caps.toStdString()}, {});
        QVERIFY(!sum.anyFailed());
        QCOMPARE(sum.count(FileStatus::Imported), std::size_t{4});
        for (const auto& fo : sum.files) QCOMPARE(fo.format, std::string("lldpctl-json"));
        QCOMPARE(store.snapshots().size(), std::size_t{1});
        QCOMPARE(store.latestSnapshot()->label, std::string("lldp"));
        const Fabric f = store.loadFabric(store.latestSnapshot()->id);
        QCOMPARE(f.nodes.size(), std::size_t{5});
        QCOMPARE(f.count(NodeType::Switch), std::size_t{3});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{2});
        for (const Node& n : f.nodes) QVERIFY(n.guid.empty());
        QCOMPARE(linkSet(f), (std::vector<std::string>{
                                 "gpu1:ens1f0np0 <-> leaf01:Ethernet0",
                                 "gpu2:ens1f0np0 <-> leaf02:Ethernet0 (one end)",
                                 "leaf01:Ethernet48 <-> spine01:Ethernet0",
                                 "leaf02:Ethernet48 <-> spine01:Ethernet4",
                             }));
        for (const Link& l : f.links) QCOMPARE(l.capacityBps, std::uint64_t{0});
        const auto info = store.info();
        QCOMPARE(info.links, std::size_t{4});
    }
};

QTEST_GUILESS_MAIN(TestRoceLldp)
#include "tst_roce_lldp.moc"
