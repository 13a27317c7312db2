// LST topology (ibdiagnet2.lst format) on the real 2005 Mellanox MTS chassis subnet.
#include "ib_test_util.h"
#include "importers/lst_importer.h"
#include "importers/registry.h"

using namespace fabscope;
using namespace ibtest;

namespace {

struct Parsed {
    TopologyResult result;
    std::vector<Diagnostic> warnings;
};

Parsed parse(const std::string& text) {
    DiagnosticSink diag("subnet.lst");
    Parsed p;
    p.result = LstImporter().parse(ImportInput{"subnet.lst", text, 0}, diag, {});
    p.warnings = diag.items();
    return p;
}

} // namespace

class TestIbLst : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void realSubnet() {
        const auto p = parse(readData("lst/subnet-2005.lst"));
        const Fabric& f = p.result.fabric;
        QVERIFY(p.warnings.empty());
        // 344 lines, each link listed from both ends (counted with a script over NodeGUID/PN pairs).
        QCOMPARE(f.links.size(), std::size_t{172});
        QCOMPARE(f.count(NodeType::Switch), std::size_t{62});
        QCOMPARE(f.count(NodeType::Ca), std::size_t{3});  // one of them "CA-SM", the SM's HCA
        QVERIFY(std::all_of(f.links.begin(), f.links.end(), [](const Link& l) { return l.seenFromBothEnds && l.width == 4; }));
        // No SPD= field in this old file: speed unknown, capacity 0, never guessed.
        QCOMPARE(f.links.front().speed, std::string("???"));
        const auto sw = std::find_if(f.nodes.begin(), f.nodes.end(), [](const Node& n) { return n.guid == "0x2c90109fb0000"; });
        QVERIFY(sw != f.nodes.end());
        QCOMPARE(sw->description, std::string("MT43132 Mellanox Technologies"));
        QCOMPARE(sw->lid, 2);
        QCOMPARE(sw->numPorts, 8);
    }

    void speedAndStateFields() {
        std::string text = readData("lst/subnet-2005.lst");
        text = replaceAll(text, "PHY=4x LOG=ACT", "PHY=4x LOG=ACT SPD=10");
        const Fabric f = parse(text).result.fabric;
        QCOMPARE(f.links.front().speed, std::string("QDR"));
        QCOMPARE(f.links.front().capacityBps, 40'000'000'000ULL);
    }

    void brokenLineFailsWithItsNumber() {
        std::string text = readData("lst/subnet-2005.lst");
        const auto second = text.find('\n') + 1;
        const auto pn = text.find(" PN:", second);
        text.erase(pn, 7);  // the second line's first endpoint loses its port number
        try {
            parse(text);
            QFAIL("an endpoint without PN must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{2});
            QCOMPARE(e.diagnostic().file, std::string("subnet.lst"));
        }
        QVERIFY_THROWS_EXCEPTION(ImportError, parse("no links here\n"));
    }

    void detectedAsLst() {
        ImporterRegistry reg;
        const auto* imp = reg.detect(readData("lst/subnet-2005.lst").substr(0, 16384));
        QVERIFY(imp && imp->name() == "lst");
        QCOMPARE(LstImporter().detect(readData("ibsim/ibnetdiscover.txt")), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbLst)
#include "tst_ib_lst.moc"
