// ibdiagnet2.db_csv: NODES/PORTS/LINKS as a topology, PM_INFO as counters of the same snapshot,
// and the broken variants a truncated or hand-edited capture produces.
#include "ib_test_util.h"
#include "importers/ibdiagnet_db_csv_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "store_dump.h"

#include <QTemporaryDir>

#include <fstream>

using namespace fabscope;
using namespace ibtest;

namespace {

const char* kFile = "ibdiagnet2.db_csv";

TopologyResult parse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr, double mtime = 1700000000) {
    DiagnosticSink diag(kFile);
    auto r = IbdiagnetDbCsvImporter().parse(ImportInput{kFile, text, mtime}, diag, {});
    if (warnings) *warnings = diag.items();
    return r;
}

Diagnostic failure(const std::string& text) { return failureOf(kFile, [&] { parse(text); }); }


const Node* nodeByGuid(const Fabric& f, const std::string& guid) {
    for (const auto& n : f.nodes)
        if (n.guid == guid) return &n;
    return nullptr;
}

const Link* linkAt(const Fabric& f, const std::string& guid, int port) {
    for (const auto& l : f.links)
        for (PortId p : {l.a, l.b})
            if (f.node(f.port(p).node).guid == guid && f.port(p).number == port) return &l;
    return nullptr;
}

std::optional<double> sample(const TopologyResult& r, const std::string& node, const std::string& port, const std::string& counter) {
    for (const auto& s : r.samples)
        if (s.node == node && s.port == port && s.counter.name == counter) return s.value;
    return std::nullopt;
}

bool mentions(const std::vector<Diagnostic>& items, const std::string& words) {
    return std::any_of(items.begin(), items.end(), [&](const Diagnostic& d) { return d.message.find(words) != std::string::npos; });
}

constexpr const char* kSwitch = "0xc42a103009d6eb6";
constexpr const char* kGpu01 = "0xc42a10300595394";
constexpr const char* kGpu02 = "0xc42a1030059a1b0";

} // namespace

class TestIbIbdiagnet : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topologyFromNodesPortsLinks() {
        std::vector<Diagnostic> warnings;
        const auto r = parse(readData("ibdiagnet/small-fabric.db_csv"), &warnings);
        QCOMPARE(r.fabric.count(NodeType::Switch), std::size_t{1});
        QCOMPARE(r.fabric.count(NodeType::Ca), std::size_t{3});
        QCOMPARE(r.fabric.links.size(), std::size_t{3});
        const Node* sw = nodeByGuid(r.fabric, kSwitch);
        QVERIFY(sw);
        QCOMPARE(sw->description, std::string("MF0;leaf01:MQM8700/U1"));  // quoted, with ';' and ':'
        QCOMPARE(sw->lid, 1380);                                           // from port 0
        QCOMPARE(sw->numPorts, 41);
        // Width/speed come from PORTS: LinkWidthActv 2 = 4x, 1 = 1x; LinkSpeedActv 0x400 = HDR.
        const Link* gpu01 = linkAt(r.fabric, kGpu01, 1);
        QVERIFY(gpu01);
        QCOMPARE(gpu01->width, std::optional<int>(4));
        QCOMPARE(gpu01->speed, std::string("HDR"));
        QCOMPARE(gpu01->capacityBps, std::uint64_t{200'000'000'000});
        const Link* gpu02 = linkAt(r.fabric, kGpu02, 1);
        QVERIFY(gpu02);
        QCOMPARE(gpu02->width, std::optional<int>(1));
        QCOMPARE(gpu02->capacityBps, std::uint64_t{50'000'000'000});
        // Port 3 is listed as Down in PORTS and has no link.
        bool down = false;
        for (const auto& p : r.fabric.ports)
            if (r.fabric.node(p.node).guid == kSwitch && p.number == 3) down = p.state == PortState::Down;
        QVERIFY(down);
        QVERIFY(!linkAt(r.fabric, kSwitch, 3));
        // Sections not read are named once, with the line of the first.
        const std::string text = readData("ibdiagnet/small-fabric.db_csv");
        QVERIFY(std::any_of(warnings.begin(), warnings.end(), [&](const Diagnostic& d) {
            return d.file == kFile && d.line == lineOf(text, "START_NODES_INFO") &&
                   d.message.find("2 sections not read: NODES_INFO, SWITCHES") != std::string::npos;
        }));
    }

    void pmInfoCounters() {
        std::vector<Diagnostic> warnings;
        const auto r = parse(readData("ibdiagnet/small-fabric.db_csv"), &warnings, 1700000123.5);
        // The 64-bit extended data counter wins over a saturated basic one; both count 4-byte words.
        QCOMPARE(sample(r, kSwitch, "1", "xmit_bytes"), std::optional<double>(4.0 * 0x2e0d6bb900));
        QCOMPARE(sample(r, kSwitch, "1", "rcv_pkts"), std::optional<double>(0x5f5e110));
        // Extended N/A: the basic value is used. Hex and decimal values both read.
        QCOMPARE(sample(r, kSwitch, "2", "xmit_bytes"), std::optional<double>(4000));
        QCOMPARE(sample(r, kSwitch, "2", "symbol_errors"), std::optional<double>(0x1f4));
        QCOMPARE(sample(r, kSwitch, "2", "link_downed"), std::optional<double>(3));
        // -1 / N/A / 0xfffffffffffffffe are missing values, never numbers.
        QCOMPARE(sample(r, kGpu01, "1", "xmit_wait"), std::nullopt);
        QCOMPARE(sample(r, kSwitch, "2", "xmit_wait"), std::nullopt);
        QCOMPARE(sample(r, kGpu01, "1", "xmit_bytes"), std::optional<double>(4.0 * 198000000000));
        QCOMPARE(sample(r, kSwitch, "41", "xmit_bytes"), std::optional<double>(0));  // basic 0 kept, extended unsupported
        for (const auto& s : r.samples) {
            QVERIFY(s.value < 1.8e19);  // no unsupported marker slipped through as a number
            QCOMPARE(s.timeMs, std::int64_t{1700000123500});  // the file's mtime: db_csv holds no capture time
        }
        QVERIFY(mentions(warnings, "-1, N/A or 0xfffffffffffffffe"));
        // Counters without a canonical name keep the perfquery-style snake_case name.
        QCOMPARE(sample(r, kSwitch, "2", "port_rcv_switch_relay_errors"), std::optional<double>(0));
    }

    void importedAsOneSnapshotWithItsCounters() {
        QTemporaryDir dir;
        ImporterRegistry registry;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const auto s = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibdiagnet/small-fabric.db_csv"}, {});
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(s.files.front().format, std::string("ibdiagnet-db-csv"));
        const auto info = store.info();
        QCOMPARE(info.snapshots.size(), std::size_t{1});
        QCOMPARE(info.switches, std::size_t{1});
        QCOMPARE(info.links, std::size_t{3});
        QVERIFY(info.series > 0);
        QCOMPARE(info.unmappedSeries, std::size_t{0});  // PM_INFO GUIDs map onto the snapshot just written
        const auto parsed = parse(readData("ibdiagnet/small-fabric.db_csv"));
        QCOMPARE(info.samples, parsed.samples.size());
        QCOMPARE(s.files.front().rows,
                 std::int64_t(parsed.fabric.nodes.size() + parsed.fabric.links.size() + parsed.samples.size() + parsed.events.size()));
        // Re-importing is a no-op.
        const auto again = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibdiagnet/small-fabric.db_csv"}, {});
        QCOMPARE(again.count(FileStatus::AlreadyImported), std::size_t{1});
    }

    // ibdiagnet's own findings: WARNINGS_ rows as ibdiagnet 2.10 writes them (a Scope column, hex
    // port numbers, 0x00 for the node) and ERRORS_ rows in the same layout.
    void ownWarningsAndErrorsAreKeptWithTheirNodes() {
        const std::string text = readData("ibdiagnet/small-fabric.db_csv") +
                                 "\nSTART_WARNINGS_FW_CHECK\nScope,NodeGUID,PortGUID,PortNumber,EventName,Summary\n"
                                 "NODE,0x0c42a103009d6eb6,0x00,0x00,NODE_WRONG_FW_VERSION,\"Node has FW version 31.2012.1024 while the "
                                 "latest FW version for the same Devid/PSID on this fabric is 31.2012.1068\"\nEND_WARNINGS_FW_CHECK\n"
                                 "START_ERRORS_LINK_CHECK\nScope,NodeGUID,PortGUID,PortNumber,EventName,Summary\n"
                                 "PORT,0x0c42a10300595394,0x0c42a10300595394,0x01,PORT_SPEED_MISMATCH,\"Unexpected speed\"\n"
                                 "END_ERRORS_LINK_CHECK\n";
        std::vector<Diagnostic> notes;
        const auto r = parse(text, &notes);
        QCOMPARE(r.events.size(), std::size_t{2});
        const FabricEvent& fw = r.events[0];
        QCOMPARE(fw.nodeGuid, std::string(kSwitch));
        QCOMPARE(fw.port, std::string());  // 0x00: the node itself
        QVERIFY(!fw.error);
        QCOMPARE(fw.check, std::string("FW_CHECK"));
        QCOMPARE(fw.name, std::string("NODE_WRONG_FW_VERSION"));
        QVERIFY(fw.summary.starts_with("Node has FW version 31.2012.1024"));
        QCOMPARE(fw.line, lineOf(text, "NODE,0x0c42a103009d6eb6"));
        QCOMPARE(r.events[1].port, std::string("1"));
        QVERIFY(r.events[1].error);
        QVERIFY2(mentions(notes, "ibdiagnet reported 1 warning and 1 error (ERRORS_LINK_CHECK 1, WARNINGS_FW_CHECK 1)"), notes.front().message.c_str());
        QVERIFY(!mentions(notes, "FW_CHECK,"));  // read, not listed among the sections not read

        // Stored with the snapshot, in file order.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("fabric.db_csv")).toStdString();
        std::ofstream(path) << text;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        QVERIFY(!ImportRunner(store, registry).run({path}, {}).anyFailed());
        const auto stored = loadFabricEvents(store, store.latestSnapshot()->id);
        QCOMPARE(stored.size(), std::size_t{2});
        QCOMPARE(stored[0].summary, fw.summary);
        QCOMPARE(stored[1].nodeGuid, std::string(kGpu01));
        QVERIFY(stored[1].error);

        // A row naming no node or a port beyond 255 fails by line.
        const std::string badGuid = replaceAll(text, "PORT,0x0c42a10300595394,", "PORT,zz,");
        QCOMPARE(failure(badGuid).line, lineOf(badGuid, "PORT,zz,"));
        const std::string badPort = replaceAll(text, ",0x01,PORT_SPEED", ",0x1ff,PORT_SPEED");
        QCOMPARE(failure(badPort).line, lineOf(badPort, "0x1ff"));
    }

    void brokenFileLeavesTheStoreUntouched() {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        ImporterRegistry registry;
        { Store store(db); }
        const std::string before = dumpStore(db);
        std::string text = readData("ibdiagnet/small-fabric.db_csv");
        text = text.substr(0, text.find("END_PM_INFO"));  // cut inside the last section
        const std::string path = dir.filePath(QStringLiteral("ibdiagnet2.db_csv")).toStdString();
        std::ofstream(path) << text;
        Store store(db);
        const auto s = ImportRunner(store, registry).run({path}, {});
        QCOMPARE(s.count(FileStatus::Failed), std::size_t{1});
        QVERIFY(s.diagnostics.back().message.find("no END_PM_INFO") != std::string::npos);
        QCOMPARE(dumpStore(db), before);
    }

    void truncatedAtASectionBoundary() {
        const std::string full = readData("ibdiagnet/small-fabric.db_csv");
        // Cut right after END_PORTS: a topology without links, imported with a warning.
        const std::string cut = full.substr(0, full.find("END_PORTS") + 10);
        std::vector<Diagnostic> warnings;
        const auto r = parse(cut, &warnings);
        QCOMPARE(r.fabric.nodes.size(), std::size_t{4});
        QVERIFY(r.fabric.links.empty());
        QVERIFY(r.samples.empty());
        QVERIFY(std::any_of(warnings.begin(), warnings.end(), [&](const Diagnostic& d) {
            return d.line == lineOf(cut, "END_PORTS") && d.message.find("no START_LINKS section") != std::string::npos;
        }));
        // Cut right after START_LINKS: the section never ends.
        const std::string open = full.substr(0, full.find("START_LINKS") + 12);
        const auto d = failure(open);
        QCOMPARE(d.file, std::string(kFile));
        QCOMPARE(d.line, lineOf(open, "START_LINKS"));
        QVERIFY2(d.message.find("no END_LINKS, the file is truncated") != std::string::npos, d.message.c_str());
        // Nothing but comments: not a db_csv topology.
        QVERIFY(failure("# This database file was automatically generated by IBDIAG\n").message.find("no START_NODES") != std::string::npos);
    }

    void missingEndLine() {
        std::string text = readData("ibdiagnet/small-fabric.db_csv");
        text = replaceAll(text, "END_PORTS\n", "");
        const auto d = failure(text);
        QCOMPARE(d.line, lineOf(text, "START_SWITCHES"));
        QVERIFY2(d.message.find("section PORTS (started at line " + std::to_string(lineOf(text, "START_PORTS")) +
                                ") has no END_PORTS before START_SWITCHES") != std::string::npos,
                 d.message.c_str());
        // An END_ of another section.
        const std::string other = replaceAll(readData("ibdiagnet/small-fabric.db_csv"), "END_LINKS", "END_NODES");
        const auto e = failure(other);
        QCOMPARE(e.line, 1 + std::count(other.begin(), other.begin() + static_cast<std::ptrdiff_t>(other.rfind("END_NODES")), '\n'));
        QVERIFY(e.message.find("END_NODES ends section LINKS") != std::string::npos);
    }

    void wrongColumnCount() {
        const std::string good = "0x0c42a103009d6eb6,2,0x0c42a1030059a1b0,1\n";
        const std::string text = replaceAll(readData("ibdiagnet/small-fabric.db_csv"), good, "0x0c42a103009d6eb6,2,0x0c42a1030059a1b0\n");
        const auto d = failure(text);
        QCOMPARE(d.line, lineOf(text, "0x0c42a103009d6eb6,2,0x0c42a1030059a1b0"));
        QVERIFY2(d.message.find("3 fields in a LINKS row; its header has 4") != std::string::npos, d.message.c_str());
    }

    void badNumbers() {
        const std::string base = readData("ibdiagnet/small-fabric.db_csv");
        struct Case {
            std::string from, to, message;
        };
        const std::vector<Case> cases{
            {"0x0c42a103009d6eb6,2,0x0c42a1030059a1b0,1", "0x0c42a103009d6eb6,two,0x0c42a1030059a1b0,1", "bad number 'two' in column PortNum1"},
            {"0x0c42a103009d6eb6,41,0x0c42a103009d6ebe,1", "0xzz,41,0x0c42a103009d6ebe,1", "bad GUID '0xzz' in column NodeGuid1"},
            {",4000,8000,40,80,7,", ",4000,8000,40,80,7x,", "bad counter value '7x' in column PortXmitWait"},
            {"\"gpu02 mlx5_0\",1,1,", "\"gpu02 mlx5_0\",1,9,", "NodeType '9' is not 1 (CA), 2 (switch) or 3 (router)"},
            {"0x0c42a103009d6eb6,2,0x0c42a1030059a1b0,1", "0x0c42a103009d6eb6,2,0x1234,1", "node 0x1234 is not in the NODES section"},
        };
        for (const auto& c : cases) {
            const std::string text = replaceAll(base, c.from, c.to);
            QVERIFY2(text != base, c.from.c_str());
            const auto d = failure(text);
            QCOMPARE(d.file, std::string(kFile));
            QCOMPARE(d.line, lineOf(text, c.to));
            QVERIFY2(d.message.find(c.message) != std::string::npos, d.message.c_str());
        }
    }

    void crlfAndPaddedHeaders() {
        // Windows line ends and header names padded with spaces (seen in field scripts) read the same.
        std::string text = replaceAll(readData("ibdiagnet/small-fabric.db_csv"), "\n", "\r\n");
        text = replaceAll(text, ",PortXmitWait,", ", PortXmitWait ,");
        const auto r = parse(text);
        QCOMPARE(r.fabric.links.size(), std::size_t{3});
        QCOMPARE(sample(r, "0xc42a1030059a1b0", "1", "xmit_wait"), std::optional<double>(7));
    }

    void detected() {
        ImporterRegistry reg;
        const auto* imp = reg.detect(readData("ibdiagnet/small-fabric.db_csv").substr(0, 16384));
        QVERIFY(imp);
        QCOMPARE(imp->name(), std::string_view("ibdiagnet-db-csv"));
        QCOMPARE(IbdiagnetDbCsvImporter().detect("Unicast lids [0x0-0xe] of switch"), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbIbdiagnet)
#include "tst_ib_ibdiagnet.moc"
