// ibnetdiscover on real captures and on the ways captures get mangled.
#include "importers/ibnetdiscover_importer.h"

#include <QFile>
#include <QtTest>

#include <algorithm>

using namespace fabscope;

namespace {

std::string readData(const char* name) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/ibnetdiscover/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

struct Parsed {
    TopologyResult result;
    std::vector<Diagnostic> warnings;
};

Parsed parse(const std::string& text, const char* file = "test.txt") {
    IbnetdiscoverImporter imp;
    DiagnosticSink diag(file);
    Parsed p;
    p.result = imp.parse(ImportInput{file, text, 0}, diag, {});
    p.warnings = diag.items();
    return p;
}

const Node* findNode(const Fabric& f, const std::string& desc) {
    auto it = std::find_if(f.nodes.begin(), f.nodes.end(), [&](const Node& n) { return n.description == desc; });
    return it == f.nodes.end() ? nullptr : &*it;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
    return s;
}

} // namespace

class TestIbnetdiscover : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seleneStorageFabricCounts() {
        const auto p = parse(readData("selene-storage.txt"));
        const Fabric& f = p.result.fabric;
        QCOMPARE(f.count(NodeType::Switch), std::size_t{160});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{1247});
        QCOMPARE(f.links.size(), std::size_t{3286});
        QVERIFY(p.warnings.empty());
        // Header time "Tue Feb 23 14:02:12 2021", taken as UTC.
        QCOMPARE(*p.result.time, 1614088932.0);
        const Node* leaf = findNode(f, "MF0;SLG04-16:MQM8700/U1");
        QVERIFY(leaf);
        QCOMPARE(leaf->guid, std::string("0xc42a103009d6eb6"));
        QCOMPARE(leaf->lid, 1380);
        QCOMPARE(leaf->numPorts, 41);
    }

    void everyLinkIsSeenFromBothEndsInAFullCapture() {
        const Fabric f = parse(readData("selene-storage.txt")).result.fabric;
        const auto oneSided = std::count_if(f.links.begin(), f.links.end(), [](const Link& l) { return !l.seenFromBothEnds; });
        QCOMPARE(oneSided, 0);
    }

    void hostLinkWidthSpeedAndCapacity() {
        const Fabric f = parse(readData("selene-storage.txt")).result.fabric;
        // "ai400x-157 HCA-1" hangs off leaf port 1 at 4xEDR = 100 Gb/s.
        const auto it = std::find_if(f.links.begin(), f.links.end(), [&](const Link& l) {
            return f.node(f.port(l.b).node).description == "ai400x-157 HCA-1" || f.node(f.port(l.a).node).description == "ai400x-157 HCA-1";
        });
        QVERIFY(it != f.links.end());
        QCOMPARE(it->width, std::optional<int>(4));
        QCOMPARE(it->speed, std::string("EDR"));
        QCOMPARE(it->capacityBps, 100'000'000'000ULL);
    }

    void descriptionsWithHashAndSemicolon() {
        const Fabric f = parse(readData("psmn-x5.txt")).result.fabric;
        QVERIFY(findNode(f, "Voltaire 4036 # 4036-8C5C"));
    }

    void docSamples_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("cas");
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("warnings");
        // Counted by hand from the files (switch-to-switch lines appear twice, self-loops twice).
        QTest::newRow("man page, ends disagree on 1x twice") << "doc-sample-1.txt" << 2 << 4 << 7 << 2;
        QTest::newRow("IBM") << "doc-sample-2.txt" << 1 << 2 << 2 << 0;
        QTest::newRow("stray stderr line, self-loops") << "doc-sample-3.txt" << 2 << 6 << 10 << 1;
        QTest::newRow("whitespace-only line") << "doc-sample-4.txt" << 1 << 1 << 1 << 0;
        QTest::newRow("lone NDR HCA, no links") << "ndr-lone-hca.txt" << 0 << 1 << 0 << 0;
        QTest::newRow("UFM lab, FDR10 loops, aggregation node") << "ufm-lab-small.txt" << 2 << 13 << 16 << 0;
    }
    void docSamples() {
        QFETCH(QString, file);
        QFETCH(int, switches);
        QFETCH(int, cas);
        QFETCH(int, links);
        QFETCH(int, warnings);
        const auto p = parse(readData(file.toLatin1().constData()), file.toLatin1().constData());
        const Fabric& f = p.result.fabric;
        QCOMPARE(static_cast<int>(f.count(NodeType::Switch)), switches);
        QCOMPARE(static_cast<int>(f.count(NodeType::Ca)), cas);
        QCOMPARE(static_cast<int>(f.links.size()), links);
        QCOMPARE(static_cast<int>(p.warnings.size()), warnings);
    }

    void whenEndsDisagreeTheNarrowWidthIsKept() {
        // The man page sample has two links reported 4x by the switch and 1x by the other end.
        const Fabric f = parse(readData("doc-sample-1.txt")).result.fabric;
        const auto narrow = std::count_if(f.links.begin(), f.links.end(), [](const Link& l) { return l.width == 1; });
        QCOMPARE(narrow, 2);
        for (const auto& l : f.links)
            if (l.width == 1) QCOMPARE(l.capacityBps, 2'500'000'000ULL);
    }

    void switchSelfLoopsAreOneLinkEach() {
        const Fabric f = parse(readData("doc-sample-3.txt")).result.fabric;
        const auto loops = std::count_if(f.links.begin(), f.links.end(),
                                         [&](const Link& l) { return f.port(l.a).node == f.port(l.b).node; });
        QCOMPARE(loops, 3);  // ports 1<->2, 19<->21, 29<->30
    }

    void aPortNamedAsItsOwnNeighbourIsNoLink() {
        // Damaged input (found by fuzz_importer): port 1 cabled to port 1 of the same switch.
        const auto p = parse("Switch 36 \"S-e41d2d030003e470\" # \"sw1\" base port 0 lid 268 lmc 0\n"
                             "[1] \"S-e41d2d030003e470\"[1] # \"sw1\" lid 268 4xEDR\n"
                             "[2] \"S-e41d2d030003e470\"[3] # \"sw1\" lid 268 4xEDR\n");
        const Fabric& f = p.result.fabric;
        QCOMPARE(f.links.size(), std::size_t{1});  // 2 <-> 3 only
        for (const Link& l : f.links) QVERIFY(!(l.a == l.b));
        QVERIFY(std::any_of(p.warnings.begin(), p.warnings.end(), [](const Diagnostic& d) {
            return d.line == 2 && d.message.find("its own neighbour") != std::string::npos;
        }));
    }

    void crlfAndDoubleCrCapturesParseTheSame() {
        const std::string text = readData("selene-storage.txt");
        const auto crlf = parse(replaceAll(text, "\n", "\r\n")).result.fabric;
        const auto crcr = parse(replaceAll(text, "\n", "\r\r\n")).result.fabric;
        QCOMPARE(crlf.links.size(), std::size_t{3286});
        QCOMPARE(crcr.links.size(), std::size_t{3286});
        QCOMPARE(crlf.count(NodeType::Ca), std::size_t{1247});
    }

    void unknownWidthAndSpeedKeptAsUnknown() {
        const Fabric f = parse(replaceAll(readData("doc-sample-4.txt"), "4xQDR", "??x???")).result.fabric;
        const auto unknown = std::count_if(f.links.begin(), f.links.end(), [](const Link& l) { return !l.width; });
        QCOMPARE(unknown, 1);
        for (const auto& l : f.links)
            if (!l.width) {
                QCOMPARE(l.capacityBps, 0ULL);
                QCOMPARE(l.speed, std::string("???"));
            }
        // One end unknown, the other known: the known report wins.
        const Fabric half = parse(replaceAll(readData("doc-sample-2.txt"), "lid 1 4xSDR", "lid 1 ??x???")).result.fabric;
        for (const auto& l : half.links) QCOMPARE(l.width, std::optional<int>(4));
    }

    void quotesInsideDescriptions() {
        std::string text = readData("doc-sample-2.txt");
        text = replaceAll(text, "compute-00-01 HCA-1", "rack \"A\" # node;1 HCA-1 ");
        const Fabric f = parse(text).result.fabric;
        QVERIFY(findNode(f, "rack \"A\" # node;1 HCA-1 "));
        QCOMPARE(f.links.size(), std::size_t{2});
    }

    void trailingShellPromptIsAWarningNotAFailure() {
        const auto p = parse(readData("doc-sample-2.txt") + "user@login01:~$ \n");
        QCOMPARE(p.result.fabric.links.size(), std::size_t{2});
        QCOMPARE(p.warnings.size(), std::size_t{1});
        QVERIFY(p.warnings.front().line > 0);
    }

    void brokenPortLineFailsWithItsLineNumber() {
        std::string text = readData("doc-sample-2.txt");
        text = replaceAll(text, "[2]     \"H-0002c9030002847c\"[2]", "[2]     \"H-0002c9030002847c");
        try {
            parse(text, "broken.txt");
            QFAIL("a truncated port line must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().file, std::string("broken.txt"));
            QCOMPARE(e.diagnostic().line, std::int64_t{12});
            QVERIFY(e.diagnostic().format().starts_with("broken.txt:12: "));
        }
    }

    void notIbnetdiscoverAtAll() {
        QVERIFY_THROWS_EXCEPTION(ImportError, parse("hello\nworld\n"));
        QVERIFY_THROWS_EXCEPTION(ImportError, parse(std::string("Switch 4 \"S-00\0", 16)));
        QCOMPARE(IbnetdiscoverImporter().detect("timestamp,node,port,counter,value\n"), 0);
        QVERIFY(IbnetdiscoverImporter().detect(readData("doc-sample-1.txt")) > 50);
    }
};

QTEST_GUILESS_MAIN(TestIbnetdiscover)
#include "tst_ibnetdiscover.moc"
