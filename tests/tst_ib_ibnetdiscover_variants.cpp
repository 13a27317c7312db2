// ibnetdiscover beyond the plain capture: the -p ports report, -g chassis grouping, routers, and
// captures mangled by terminal logging, which must give the same counts as the clean file.
#include "ib_test_util.h"
#include "importers/ibnetdiscover_importer.h"
#include "importers/ibnetdiscover_ports_importer.h"
#include "importers/registry.h"

#include <set>

using namespace fabscope;
using namespace ibtest;

namespace {

struct Parsed {
    TopologyResult result;
    std::vector<Diagnostic> warnings;
};

template <class Imp>
Parsed parseWith(const std::string& text, const FabricIndex* index = nullptr, const char* file = "capture.txt") {
    DiagnosticSink diag(file);
    Parsed p;
    p.result = Imp().parse(ImportInput{file, text, 0, index}, diag, {});
    p.warnings = diag.items();
    return p;
}

const Node* byDesc(const Fabric& f, const std::string& d) {
    auto it = std::find_if(f.nodes.begin(), f.nodes.end(), [&](const Node& n) { return n.description == d; });
    return it == f.nodes.end() ? nullptr : &*it;
}

std::set<std::string> guids(const Fabric& f) {
    std::set<std::string> out;
    for (const auto& n : f.nodes) out.insert(n.guid);
    return out;
}

} // namespace

class TestIbIbnetdiscoverVariants : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void portsReportOfTheIbsimFatTree() {
        const auto p = parseWith<IbnetdiscoverPortsImporter>(readData("ibsim/ibnetdiscover-p.txt"));
        const Fabric& f = p.result.fabric;
        QVERIFY(p.warnings.empty());
        QCOMPARE(f.count(NodeType::Switch), std::size_t{6});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{8});
        QCOMPARE(f.links.size(), std::size_t{16});
        const auto down = std::count_if(f.ports.begin(), f.ports.end(), [](const Port& x) { return x.state == PortState::Down; });
        QCOMPARE(down, 24);  // 4 unconnected ports on each of 6 switches
        const auto narrow = std::count_if(f.links.begin(), f.links.end(), [](const Link& l) { return l.width == 1; });
        QCOMPARE(narrow, 1);
        QCOMPARE(byDesc(f, "leaf03")->lid, 7);
        // With the plain capture stored first, CA port GUIDs name the same nodes.
        const Fabric disc = parseIbnetdiscover(readData("ibsim/ibnetdiscover.txt"));
        const FabricIndex index = FabricIndex::from(disc);
        QCOMPARE(guids(parseWith<IbnetdiscoverPortsImporter>(readData("ibsim/ibnetdiscover-p.txt"), &index).result.fabric), guids(disc));
    }

    void portsReportRealSamples_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("cas");
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("down");
        // Counted by hand: test.out has 9 lines, 3 CA<->SW links seen from both ends, one SW-SW, 2 unconnected.
        QTest::newRow("OSC EDR") << "ibnetdiscover-p/test.out" << 4 << 3 << 4 << 2;
        // test2 (trimmed from two captures): padded names, 3 unconnected, and the aggregation node's
        // port seen on two switches: the second claim is a conflict, so 2 links.
        QTest::newRow("HDR, padded names") << "ibnetdiscover-p/test2.out" << 5 << 2 << 2 << 3;
        QTest::newRow("unquoted name") << "ibnetdiscover-p/test3.out" << 1 << 0 << 0 << 1;
    }
    void portsReportRealSamples() {
        QFETCH(QString, file);
        QFETCH(int, switches);
        QFETCH(int, cas);
        QFETCH(int, links);
        QFETCH(int, down);
        const auto p = parseWith<IbnetdiscoverPortsImporter>(readData(file));
        const Fabric& f = p.result.fabric;
        QCOMPARE(static_cast<int>(f.count(NodeType::Switch)), switches);
        QCOMPARE(static_cast<int>(f.count(NodeType::Ca)), cas);
        QCOMPARE(static_cast<int>(f.links.size()), links);
        QCOMPARE(static_cast<int>(std::count_if(f.ports.begin(), f.ports.end(), [](const Port& x) { return x.state == PortState::Down; })), down);
    }

    void portsReportKeepsDescriptionsVerbatim() {
        const auto p2 = parseWith<IbnetdiscoverPortsImporter>(readData("ibnetdiscover-p/test2.out"));
        QCOMPARE(p2.warnings.size(), std::size_t{1});
        QCOMPARE(p2.warnings.front().line, std::int64_t{5});  // the aggregation node's second neighbour
        const Fabric& f = p2.result.fabric;
        QVERIFY(byDesc(f, " 5FB0406-spine-IB02 "));
        QVERIFY(byDesc(f, "Mellanox Technologies Aggregation Node"));
        QVERIFY(byDesc(parseWith<IbnetdiscoverPortsImporter>(readData("ibnetdiscover-p/test3.out")).result.fabric,
                       "Infiniscale-IV Mellanox Technologies"));
        const Fabric edr = parseWith<IbnetdiscoverPortsImporter>(readData("ibnetdiscover-p/test.out")).result.fabric;
        QCOMPARE(byDesc(edr, "ib-i1l1s01")->lid, 1719);
        QCOMPARE(edr.links.front().capacityBps, 100'000'000'000ULL);  // 4x EDR
    }

    void portsReportBrokenLines() {
        try {
            parseWith<IbnetdiscoverPortsImporter>("SW  1719 10 0x7cfe9003009ce5b0 4x EDR - CA   134  1 0x7cfe9003003b4bde ( 'a' - 'b' )\n"
                                                  "SW  1719 zz 0x7cfe9003009ce5b0 4x EDR - CA   134\n", nullptr, "p.txt");
            QFAIL("a broken port line must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{2});
            QCOMPARE(e.diagnostic().file, std::string("p.txt"));
        }
        QVERIFY_THROWS_EXCEPTION(ImportError, parseWith<IbnetdiscoverPortsImporter>("nothing here\n"));
    }

    void chassisGroupingOutputOfIbsim() {
        // ibnetdiscover -g adds "Non-Chassis Nodes" and "# " after switchguid lines.
        const auto p = parseWith<IbnetdiscoverImporter>(readData("ibsim/ibnetdiscover-g.txt"));
        QVERIFY(p.warnings.empty());
        QCOMPARE(p.result.fabric.count(NodeType::Switch), std::size_t{6});
        QCOMPARE(p.result.fabric.count(NodeType::Ca), std::size_t{8});
        QCOMPARE(p.result.fabric.links.size(), std::size_t{16});
    }

    void routerNodes() {
        // gpu008's block rewritten as a router (rtguid=, Rt, R-), and the leaf's port line too.
        std::string text = readData("ibsim/ibnetdiscover.txt");
        text = replaceAll(text, "caguid=0x10000e", "rtguid=0x10000e");
        text = replaceAll(text, "Ca\t1 \"H-000000000010000e\"", "Rt\t1 \"R-000000000010000e\"");
        text = replaceAll(text, "\"H-000000000010000e\"", "\"R-000000000010000e\"");
        const auto p = parseWith<IbnetdiscoverImporter>(text);
        QCOMPARE(p.result.fabric.count(NodeType::Router), std::size_t{1});
        QCOMPARE(p.result.fabric.count(NodeType::Ca), std::size_t{7});
        QCOMPARE(p.result.fabric.links.size(), std::size_t{16});
        QVERIFY(byDesc(p.result.fabric, "gpu008 mlx5_0")->type == NodeType::Router);
    }

    void terminalLogCaptureGivesTheSameCounts_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("cas");
        QTest::addColumn<int>("links");
        QTest::newRow("Selene storage") << "ibnetdiscover/selene-storage.txt" << 160 << 1247 << 3286;
        QTest::newRow("ibsim fat tree") << "ibsim/ibnetdiscover.txt" << 6 << 8 << 16;
    }
    void terminalLogCaptureGivesTheSameCounts() {
        QFETCH(QString, file);
        QFETCH(int, switches);
        QFETCH(int, cas);
        QFETCH(int, links);
        const std::string clean = readData(file);
        // What `script`/a terminal copy does: tabs become spaces (to the next tab stop or a single
        // one), CRLF or \r\r\n line ends, a log header line, the command, a trailing prompt.
        std::string tabStops;
        std::size_t col = 0;
        for (char c : clean) {
            if (c == '\t') { do { tabStops += ' '; ++col; } while (col % 8); }
            else { tabStops += c; col = c == '\n' ? 0 : col + 1; }
        }
        const std::string wrap = "Script started on 2021-02-23 14:02:00+00:00 [TERM=\"xterm\"]\r\nuser@login01:~$ ibnetdiscover\r\n";
        for (const std::string& body : {replaceAll(tabStops, "\n", "\r\n"), replaceAll(replaceAll(clean, "\t", " "), "\n", "\r\r\n")}) {
            const auto p = parseWith<IbnetdiscoverImporter>(wrap + body + "user@login01:~$ exit\r\n");
            const Fabric& f = p.result.fabric;
            QCOMPARE(static_cast<int>(f.count(NodeType::Switch)), switches);
            QCOMPARE(static_cast<int>(f.count(NodeType::Ca)), cas);
            QCOMPARE(static_cast<int>(f.links.size()), links);
            QCOMPARE(p.warnings.size(), std::size_t{3});  // header, command, prompt: each named by line
            QCOMPARE(p.warnings[0].line, std::int64_t{1});
            QCOMPARE(p.warnings[1].line, std::int64_t{2});
        }
    }

    void everySampleIsDetectedAsItsOwnFormat() {
        ImporterRegistry reg;
        const std::pair<const char*, const char*> files[] = {
            {"ibnetdiscover/selene-storage.txt", "ibnetdiscover"}, {"ibnetdiscover/ufm-lab-small.txt", "ibnetdiscover"},
            {"ibnetdiscover/psmn-x5.txt", "ibnetdiscover"},        {"ibnetdiscover/doc-sample-1.txt", "ibnetdiscover"},
            {"ibnetdiscover/doc-sample-2.txt", "ibnetdiscover"},   {"ibnetdiscover/doc-sample-3.txt", "ibnetdiscover"},
            {"ibnetdiscover/doc-sample-4.txt", "ibnetdiscover"},   {"ibnetdiscover/ndr-lone-hca.txt", "ibnetdiscover"},
            {"ibsim/ibnetdiscover.txt", "ibnetdiscover"},          {"ibsim/ibnetdiscover-g.txt", "ibnetdiscover"},
            {"ibsim/ibnetdiscover-p.txt", "ibnetdiscover-p"},      {"ibnetdiscover-p/test.out", "ibnetdiscover-p"},
            {"ibnetdiscover-p/test2.out", "ibnetdiscover-p"},      {"ibnetdiscover-p/test3.out", "ibnetdiscover-p"},
            {"ibsim/iblinkinfo.txt", "iblinkinfo"},                {"ibsim/iblinkinfo-l.txt", "iblinkinfo"},
            {"ibsim/perfquery-series.txt", "perfquery"},           {"ibsim/perfquery-x-series.txt", "perfquery"},
            {"perfquery/0x7cfe9003009ce5b0.out", "perfquery"},     {"perfquery/rcv-error/0x7cfe9003009ce5b0-1.out", "perfquery"},
            {"ibsim/ibqueryerrors-errors.txt", "ibqueryerrors"},  {"ibsim/ibqueryerrors-counters.txt", "ibqueryerrors"},
            {"prometheus/infiniband_exporter-switch.prom", "prometheus"}, {"prometheus/node_exporter-infiniband.prom", "prometheus"},
            {"prometheus/query_range_matrix_example.json", "prometheus-json"},
            {"prometheus/query_instant_vector_example.json", "prometheus-json"},
            {"ibsim/ibroute-leaf03.txt", "ibroute"},               {"ibsim/dump_fts.txt", "ibroute"},
            {"lst/subnet-2005.lst", "lst"},
        };
        for (const auto& [file, format] : files) {
            const auto* imp = reg.detect(readData(QString::fromLatin1(file)).substr(0, 16384));
            QVERIFY2(imp, file);
            QVERIFY2(imp->name() == format, (std::string(file) + " detected as " + std::string(imp->name())).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestIbIbnetdiscoverVariants)
#include "tst_ib_ibnetdiscover_variants.moc"
