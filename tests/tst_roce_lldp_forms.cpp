// lldpctl's other output forms: `-f keyvalue` and `-f json0` build the same fabric as `-f json`
// for the same neighbours (lldpd's own integration-test outputs in tests/data/roce/lldpctl), the
// keyvalue quirks (dotted interface names, several neighbours on one interface, multi-line values,
// `show interfaces` records of the local system), broken files, and a node first seen as a
// neighbour that turns out to be a switch.
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/lldp_json_importer.h"
#include "importers/lldp_keyvalue_importer.h"
#include "importers/registry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace fabscope;

namespace {

const QString kDir = QStringLiteral(FABSCOPE_TEST_DATA "/roce/lldpctl/");

std::string readData(const QString& name) {
    QFile f(kDir + name);
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", qPrintable(name));
    return f.readAll().toStdString();
}

struct Parsed {
    Fabric fabric;
    std::vector<Diagnostic> warnings;
};

Parsed parseWith(const TopologyImporter& imp, const std::string& text, const std::string& file) {
    DiagnosticSink diag(file);
    Parsed p;
    p.fabric = imp.parse(ImportInput{file, text, 0}, diag, {}).fabric;
    p.warnings = diag.items();
    return p;
}

Parsed keyvalue(const std::string& text, const std::string& file) { return parseWith(LldpKeyvalueImporter{}, text, file); }

// Nodes with their types and links with their ends, independent of order: two fabrics that print
// the same are the same fabric.
std::vector<std::string> describe(const Fabric& f) {
    std::vector<std::string> out;
    for (const Node& n : f.nodes) out.push_back("node " + n.systemName + " " + std::string(toString(n.type)));
    for (const Link& l : f.links) {
        auto a = f.node(f.port(l.a).node).systemName + ":" + f.port(l.a).name;
        auto b = f.node(f.port(l.b).node).systemName + ":" + f.port(l.b).name;
        if (b < a) std::swap(a, b);
        out.push_back("link " + a + " <-> " + b + (l.seenFromBothEnds ? "" : " (one end)"));
    }
    std::sort(out.begin(), out.end());
    return out;
}

void write(const QString& path, const std::string& text) { std::ofstream(path.toStdString(), std::ios::binary) << text; }

std::string readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

} // namespace

class TestRoceLldpForms : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(readData(QStringLiteral("ns-1.example.com.kv")))->name(), std::string_view("lldpctl-keyvalue"));
        QCOMPARE(reg.detect(readData(QStringLiteral("lldpd-sg200.kv")))->name(), std::string_view("lldpctl-keyvalue"));
        QCOMPARE(reg.detect(readData(QStringLiteral("ns-1.example.com.json0")))->name(), std::string_view("lldpctl-json"));
        LldpKeyvalueImporter kv;
        QCOMPARE(kv.detect(readData(QStringLiteral("ns-1.example.com.json"))), 0);
        QCOMPARE(kv.detect("timestamp,node,port,counter,value\n1,a,b,c,2\n"), 0);
        QCOMPARE(kv.detect("NIC statistics:\n     rx_bytes_phy: 1\n"), 0);
    }

    // The same neighbour of lldpd's integration test printed in the three forms.
    void threeFormsOneFabric() {
        const auto json = parseWith(LldpJsonImporter{}, readData(QStringLiteral("ns-1.example.com.json")), "ns-1.example.com.json");
        const auto json0 = parseWith(LldpJsonImporter{}, readData(QStringLiteral("ns-1.example.com.json0")), "ns-1.example.com.json0");
        const auto kv = keyvalue(readData(QStringLiteral("ns-1.example.com.kv")), "caps/ns-1.example.com.kv");
        const std::vector<std::string> want{"link ns-1.example.com:eth0 <-> ns-2.example.com:eth1 (one end)",
                                            "node ns-1.example.com ca", "node ns-2.example.com ca"};
        QCOMPARE(describe(json.fabric), want);
        QCOMPARE(describe(json0.fabric), want);
        QCOMPARE(describe(kv.fabric), want);
        QVERIFY(kv.warnings.empty());
    }

    // A Cisco SG200 (lldpd's pcap test): no system name, port id is an ifname.
    void noSysNameIsNamedByChassisId() {
        const auto p = keyvalue(readData(QStringLiteral("lldpd-sg200.kv")), "srv3.kv");
        QCOMPARE(describe(p.fabric), (std::vector<std::string>{"link 00:35:35:35:35:35:g1 <-> srv3:eth0 (one end)",
                                                               "node 00:35:35:35:35:35 ca", "node srv3 ca"}));
        QCOMPARE(p.warnings.size(), std::size_t{1});
        QCOMPARE(p.warnings[0].line, std::int64_t{1});
        QVERIFY(QString::fromStdString(p.warnings[0].message).contains(QStringLiteral("no system name")));
    }

    void keyvalueQuirks() {
        const std::string text =
            "lldp.eth0.100.via=LLDP\n"
            "lldp.eth0.100.chassis.mac=0c:42:a1:00:00:01\n"
            "lldp.eth0.100.chassis.name=leaf01\n"
            "lldp.eth0.100.chassis.descr=SONiC Software Version: SONiC.202305\n"
            "second line of a multi-line description\n"
            "lldp.eth0.100.chassis.Bridge.enabled=on\n"
            "lldp.eth0.100.port.ifname=Ethernet0\n"
            "lldp.ens1f1np1.via=LLDP\n"
            "lldp.ens1f1np1.chassis.local=leaf02\n"
            "lldp.ens1f1np1.chassis.name=leaf02\n"
            "lldp.ens1f1np1.chassis.Router.enabled=on\n"
            "lldp.ens1f1np1.port.local=Ethernet8\n"
            "lldp.ens1f1np1.port.descr=Ethernet8\n"
            "lldp.ens1f1np1.via=LLDP\n"
            "lldp.ens1f1np1.chassis.name=leaf03\n"
            "lldp.ens1f1np1.port.ifname=Ethernet9\n";
        const auto p = keyvalue(text, "gpu1.txt");
        QCOMPARE(describe(p.fabric), (std::vector<std::string>{
                                         "link gpu1:ens1f1np1 <-> leaf02:Ethernet8 (one end)",
                                         "link gpu1:eth0.100 <-> leaf01:Ethernet0 (one end)",
                                         "node gpu1 ca", "node leaf01 switch", "node leaf02 switch", "node leaf03 ca"}));
        std::vector<std::int64_t> lines;
        for (const auto& d : p.warnings) lines.push_back(d.line);
        // line 5 continues a value; line 14 is a second neighbour on a port that already has one
        QCOMPARE(lines, (std::vector<std::int64_t>{5, 14}));
    }

    // `lldpcli -f keyvalue show interfaces` records (via=unknown) describe the local system.
    void localSystemFromShowInterfaces() {
        const std::string text =
            "lldp.Ethernet0.via=unknown\n"
            "lldp.Ethernet0.chassis.mac=0c:42:a1:00:00:07\n"
            "lldp.Ethernet0.chassis.name=leaf07\n"
            "lldp.Ethernet0.chassis.Bridge.enabled=on\n"
            "lldp.Ethernet0.port.ifname=Ethernet0\n"
            "lldp.Ethernet0.via=LLDP\n"
            "lldp.Ethernet0.chassis.name=gpu01\n"
            "lldp.Ethernet0.chassis.Station.enabled=on\n"
            "lldp.Ethernet0.port.mac=b8:ce:f6:00:00:11\n"
            "lldp.Ethernet0.port.descr=ens1f0np0\n";
        const auto p = keyvalue(text, "capture-0412.kv");
        QCOMPARE(describe(p.fabric), (std::vector<std::string>{"link gpu01:ens1f0np0 <-> leaf07:Ethernet0 (one end)",
                                                               "node gpu01 ca", "node leaf07 switch"}));
    }

    void brokenFilesNameTheLine() {
        LldpKeyvalueImporter imp;
        for (const auto& [text, line] : std::vector<std::pair<std::string, std::int64_t>>{
                 {"hello world\nlldp.eth0.via=LLDP\n", 1},
                 {"\n\nlldp.=x\n", 3},
                 {"# nothing here\n", 0},
                 {std::string("lldp.eth0.via=LLDP\n\0", 20), 0}}) {
            DiagnosticSink diag("leaf01.kv");
            try {
                imp.parse(ImportInput{"leaf01.kv", text, 0}, diag, {});
                QFAIL("expected an ImportError");
            } catch (const ImportError& e) {
                QCOMPARE(e.diagnostic().file, std::string("leaf01.kv"));
                QCOMPARE(e.diagnostic().line, line);
                QCOMPARE(QString::fromStdString(e.diagnostic().format()).startsWith(QStringLiteral("leaf01.kv:")), true);
            }
        }
        // A neighbour without port lines is skipped with a warning naming its first line.
        const auto p = keyvalue("lldp.eth0.via=LLDP\nlldp.eth0.chassis.name=sw\nlldp.eth1.via=LLDP\n"
                                "lldp.eth1.chassis.name=sw2\nlldp.eth1.port.ifname=swp2\n", "h.kv");
        QCOMPARE(p.fabric.links.size(), std::size_t{1});
        QCOMPARE(p.warnings.size(), std::size_t{1});
        QCOMPARE(p.warnings[0].line, std::int64_t{1});
    }

    // A NIC whose LLDP agent sends only its MAC as port id: the leaf sees gpu1 port
    // "b8:ce:f6:00:00:11", gpu1's own capture says ens1f0np0 is cabled to leaf01 Ethernet0. One
    // cable, one port: the MAC name folds into the interface name, whichever file comes first,
    // so gpu1's ethtool counters (named ens1f0np0) land on the linked port.
    void macPortIdFoldsIntoInterfaceName() {
        QTemporaryDir dir;
        const QString leaf = dir.filePath(QStringLiteral("leaf01.kv")), host = dir.filePath(QStringLiteral("gpu1.kv"));
        write(leaf, "lldp.Ethernet0.via=LLDP\nlldp.Ethernet0.chassis.name=gpu1\nlldp.Ethernet0.port.mac=b8:ce:f6:00:00:11\n"
                    "lldp.Ethernet4.via=LLDP\nlldp.Ethernet4.chassis.name=gpu2\nlldp.Ethernet4.port.mac=b8:ce:f6:00:00:22\n");
        write(host, "lldp.ens1f0np0.via=LLDP\nlldp.ens1f0np0.chassis.name=leaf01\nlldp.ens1f0np0.chassis.Bridge.enabled=on\n"
                    "lldp.ens1f0np0.port.ifname=Ethernet0\n");
        for (const auto& order : {std::vector<QString>{leaf, host}, std::vector<QString>{host, leaf}}) {
            Store store(dir.filePath(QStringLiteral("s%1.sqlite").arg(order.front() == leaf ? 1 : 0)).toStdString());
            ImporterRegistry reg;
            ImportRunner runner(store, reg);
            const auto sum = runner.run({order[0].toStdString(), order[1].toStdString()}, {});
            QVERIFY(!sum.anyFailed());
            QVERIFY(std::none_of(sum.diagnostics.begin(), sum.diagnostics.end(),
                                 [](const Diagnostic& d) { return d.severity != Severity::Info; }));
            const Fabric f = store.loadFabric(store.latestSnapshot()->id);
            QCOMPARE(describe(f), (std::vector<std::string>{"link gpu1:ens1f0np0 <-> leaf01:Ethernet0",
                                                            "link gpu2:b8:ce:f6:00:00:22 <-> leaf01:Ethernet4 (one end)",
                                                            "node gpu1 ca", "node gpu2 ca", "node leaf01 switch"}));
            QCOMPARE(f.ports.size(), std::size_t{4});  // the MAC-named duplicate of gpu1's port is gone
        }
        // Two interface names claiming the same switch port stay a conflict (miscabling, stale data).
        write(host, "lldp.ens1f0np0.via=LLDP\nlldp.ens1f0np0.chassis.name=leaf01\nlldp.ens1f0np0.port.ifname=Ethernet0\n"
                    "lldp.ens1f1np1.via=LLDP\nlldp.ens1f1np1.chassis.name=leaf01\nlldp.ens1f1np1.port.ifname=Ethernet0\n");
        const auto p = keyvalue(readFile(host), "gpu1.kv");
        QCOMPARE(p.fabric.links.size(), std::size_t{1});
        QCOMPARE(p.warnings.size(), std::size_t{1});
        QCOMPARE(p.warnings[0].line, std::int64_t{4});
    }

    // spine01 sees leaf01 without capabilities (assumed a host); leaf01's own capture, read after it
    // and in another form, says it is a bridge: the merged snapshot has it as a switch. leaf01's
    // view of spine01 (no capabilities) does not turn the switch back into a host.
    void neighbourUpgradedToSwitch() {
        QTemporaryDir dir;
        const QString caps = dir.filePath(QStringLiteral("caps"));
        QVERIFY(QDir().mkpath(caps));
        write(caps + "/spine01.kv", "lldp.Ethernet0.via=LLDP\nlldp.Ethernet0.chassis.name=leaf01\n"
                                      "lldp.Ethernet0.port.ifname=Ethernet48\n");
        write(caps + "/leaf01.json", R"({"local-chassis": {"chassis": {"leaf01": {"capability": [{"type": "Bridge", "enabled": true}]}}},
            "lldp": {"interface": {"Ethernet48": {"chassis": {"spine01": {"id": {"type": "mac", "value": "0c:42:a1:00:00:10"}}},
                                                  "port": {"id": {"type": "ifname", "value": "Ethernet0"}}}}}})");
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({(caps + "/spine01.kv").toStdString(), (caps + "/leaf01.json").toStdString()}, {});
        QVERIFY(!sum.anyFailed());
        const Fabric f = store.loadFabric(store.latestSnapshot()->id);
        QCOMPARE(describe(f), (std::vector<std::string>{"link leaf01:Ethernet48 <-> spine01:Ethernet0",
                                                        "node leaf01 switch", "node spine01 switch"}));
    }
};

QTEST_GUILESS_MAIN(TestRoceLldpForms)
#include "tst_roce_lldp_forms.moc"
