// iblinkinfo (default and -l) captured with ibsim: nodes, links, Down ports and "Could be" hints.
#include "ib_test_util.h"
#include "importers/iblinkinfo_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QTemporaryDir>

#include <set>

using namespace fabscope;
using namespace ibtest;

namespace {

struct Parsed {
    TopologyResult result;
    std::vector<Diagnostic> warnings;
};

Parsed parse(const std::string& text, const FabricIndex* index = nullptr, const char* file = "iblinkinfo.txt") {
    DiagnosticSink diag(file);
    Parsed p;
    p.result = IblinkinfoImporter().parse(ImportInput{file, text, 0, index}, diag, {});
    p.warnings = diag.items();
    return p;
}

const Link* linkOf(const Fabric& f, const std::string& desc) {
    for (const auto& l : f.links)
        if (f.node(f.port(l.a).node).description == desc || f.node(f.port(l.b).node).description == desc) return &l;
    return nullptr;
}

std::set<std::string> guids(const Fabric& f) {
    std::set<std::string> out;
    for (const auto& n : f.nodes) out.insert(n.guid);
    return out;
}

} // namespace

class TestIbIblinkinfo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bothFormsGiveTheIbsimFatTree_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("default") << "ibsim/iblinkinfo.txt";
        QTest::newRow("-l") << "ibsim/iblinkinfo-l.txt";
    }
    void bothFormsGiveTheIbsimFatTree() {
        QFETCH(QString, file);
        const auto p = parse(readData(file));
        const Fabric& f = p.result.fabric;
        QVERIFY(p.warnings.empty());
        // fattree.net: 2 spines + 4 leaves, 8 HCAs; 8 spine-leaf and 8 leaf-host links.
        QCOMPARE(f.count(NodeType::Switch), std::size_t{6});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{8});
        QCOMPARE(f.links.size(), std::size_t{16});
        QVERIFY(std::all_of(f.links.begin(), f.links.end(), [](const Link& l) { return l.seenFromBothEnds; }));
        // Ports 5-8 of every switch are Down: kept as ports, not links.
        const auto down = std::count_if(f.ports.begin(), f.ports.end(), [](const Port& x) { return x.state == PortState::Down; });
        QCOMPARE(down, 24);
        QCOMPARE(f.ports.size(), std::size_t{56});
        // The 1x link of the net file; the others run 4xHDR (53.125 Gb/s signalling per lane).
        const Link* narrow = linkOf(f, "gpu006 mlx5_0");
        QVERIFY(narrow);
        QCOMPARE(narrow->width, std::optional<int>(1));
        QCOMPARE(narrow->speed, std::string("HDR"));
        QCOMPARE(narrow->capacityBps, 50'000'000'000ULL);
        QCOMPARE(linkOf(f, "gpu005 mlx5_0")->capacityBps, 200'000'000'000ULL);
        const auto leaf03 = std::find_if(f.nodes.begin(), f.nodes.end(), [](const Node& n) { return n.description == "leaf03"; });
        QCOMPARE(leaf03->guid, std::string("0x200004"));
        QCOMPARE(leaf03->lid, 7);
        QVERIFY(leaf03->type == NodeType::Switch);
        // Every active port says it "Could be 12X": a hint, stored as evidence.
        QCOMPARE(p.result.hints.size(), std::size_t{32});
        QVERIFY(std::all_of(p.result.hints.begin(), p.result.hints.end(), [](const PortHint& h) { return h.width == 12; }));
    }

    void sameFabricAsIbnetdiscoverOfTheSameCapture() {
        const Fabric disc = parseIbnetdiscover(readData("ibsim/ibnetdiscover.txt"));
        const FabricIndex index = FabricIndex::from(disc);
        for (const char* file : {"ibsim/iblinkinfo.txt", "ibsim/iblinkinfo-l.txt"}) {
            const Fabric f = parse(readData(QString::fromLatin1(file)), &index).result.fabric;
            // With the stored topology, CA port GUIDs name the same nodes ibnetdiscover names.
            QCOMPARE(guids(f), guids(disc));
            QCOMPARE(f.links.size(), disc.links.size());
        }
        // Without it, a CA is named by its first port GUID (ibsim: node 0x10000a, port 0x10000b).
        const Fabric alone = parse(readData("ibsim/iblinkinfo.txt")).result.fabric;
        QVERIFY(guids(alone).count("0x10000b"));
        QVERIFY(!guids(alone).count("0x10000a"));
    }

    void hintsReachTheStoreThroughTheRunner() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto summary = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibsim/iblinkinfo-l.txt"}, {});
        QCOMPARE(summary.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(summary.files.front().format, std::string("iblinkinfo"));
        const auto info = store.info();
        QCOMPARE(info.links, std::size_t{16});
        QCOMPARE(info.ports, std::size_t{32});  // connected ports only; Down ones are stored but not counted
        const auto hints = store.portHints(store.latestSnapshot()->id);
        QCOMPARE(hints.size(), std::size_t{32});
        QCOMPARE(hints.front().width, std::optional<int>(12));
    }

    void speedHintsAndFdr10() {
        const std::string text =
            "Switch: 0x0000000000000010 sw1:\n"
            "           3    1[  ] ==( 4X      10.0 Gbps (FDR10) Active/  LinkUp)==>       4    1[  ] \"h1\" ( Could be 14.0625 Gbps)\n"
            "           3    2[  ] ==( 1X        25.78125 Gbps Active/  LinkUp)==>       5    1[  ] \"h2\" (Could be 4X Could be 53.125 Gbps)\n"
            "           3    3[  ] ==( 4X           2.5 Gbps Active/  LinkUp)==>       6    1[  ] \"Port not available\" ( )\n";
        const auto p = parse(text);
        const Fabric& f = p.result.fabric;
        QCOMPARE(f.links.size(), std::size_t{2});  // "Port not available" has no neighbour
        QCOMPARE(linkOf(f, "h1")->speed, std::string("FDR10"));
        QCOMPARE(linkOf(f, "h2")->capacityBps, 25'000'000'000ULL);
        QCOMPARE(p.result.hints.size(), std::size_t{2});
        QCOMPARE(p.result.hints[0].speed, std::string("FDR"));
        QCOMPARE(p.result.hints[1].width, std::optional<int>(4));
        QCOMPARE(p.result.hints[1].speed, std::string("HDR"));
        // The remote LIDs 4 and 5 are not described in this file: nodes kept by description, said so.
        QCOMPARE(p.warnings.size(), std::size_t{2});
        QCOMPARE(p.warnings[0].line, std::int64_t{2});
    }

    void terminalLogCaptureGivesTheSameCounts() {
        std::string text = readData("ibsim/iblinkinfo.txt");
        text = "Script started on 2026-11-30 14:53:00+00:00\r\n" + replaceAll(text, "\n", "\r\n") + "user@login01:~$ ";
        const auto p = parse(text);
        QCOMPARE(p.result.fabric.links.size(), std::size_t{16});
        QCOMPARE(p.result.fabric.count(NodeType::Ca), std::size_t{8});
        QCOMPARE(p.warnings.size(), std::size_t{2});
        QCOMPARE(p.warnings[0].line, std::int64_t{1});
        QCOMPARE(p.warnings[1].line, std::int64_t{72});
    }

    void brokenLinesFailWithFileAndLine() {
        const auto expect = [](const std::string& text, std::int64_t line, const char* words) {
            try {
                parse(text, nullptr, "bad.txt");
                QFAIL("expected an import error");
            } catch (const ImportError& e) {
                QCOMPARE(e.diagnostic().line, line);
                QCOMPARE(e.diagnostic().file, std::string("bad.txt"));
                QVERIFY2(e.diagnostic().message.find(words) != std::string::npos, e.diagnostic().message.c_str());
            }
        };
        expect("           3    1[  ] ==( 4X 53.125 Gbps Active/ LinkUp)==>  4  2[  ] \"leaf01\" ( )\n", 1, "before any");
        expect("Switch: 0x10 sw:\n    3  x[  ] ==( 4X 53.125 Gbps Active/ LinkUp)==>  4  2[  ] \"leaf01\" ( )\n", 2, "LID or port");
        expect("Switch: 0x10 sw:\n    3  1[  ] ==( 4X 53.125 Gbps Active/ LinkUp)==>  4  2[  ] \"leaf01 ( )\n", 2, "in quotes");
        expect("just text\n", 0, "no iblinkinfo port line");
    }

    void detectedAsIblinkinfoOnly() {
        ImporterRegistry reg;
        for (const char* f : {"ibsim/iblinkinfo.txt", "ibsim/iblinkinfo-l.txt"}) {
            const auto* imp = reg.detect(readData(QString::fromLatin1(f)).substr(0, 16384));
            QVERIFY2(imp && imp->name() == "iblinkinfo", f);
        }
        QCOMPARE(IblinkinfoImporter().detect(readData("ibsim/ibnetdiscover.txt")), 0);
        QCOMPARE(IblinkinfoImporter().detect(readData("ibsim/perfquery-series.txt")), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbIblinkinfo)
#include "tst_ib_iblinkinfo.moc"
