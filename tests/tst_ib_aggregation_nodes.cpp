// A switch's internal SHARP aggregation node is a CA in the files but no host: classified as such
// (by its description, or by its place on the last port of a 41/65-port switch when a node-name
// map renamed it), left out of host counts and of the tiers' host seeds.
#include "ib_test_util.h"
#include "core/tiers.h"
#include "importers/ibnetdiscover_ports_importer.h"

using namespace fabscope;
using namespace ibtest;

namespace {

Fabric parsePorts(const std::string& text) {
    DiagnosticSink diag("ports.txt");
    return IbnetdiscoverPortsImporter().parse(ImportInput{"ports.txt", text, 0}, diag, {}).fabric;
}

std::vector<std::string> flagged(const Fabric& f) {
    std::vector<std::string> out;
    const auto agg = findAggregationNodes(f);
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (agg[i]) out.push_back(f.nodes[i].guid);
    return out;
}

std::size_t indexOf(const Fabric& f, const std::string& guid) {
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (f.nodes[i].guid == guid) return i;
    qFatal("no node %s", guid.c_str());
}

// A 41-port spine whose only CA is its aggregation node on port 41, above a leaf with one host.
const char* kSpineWithAggregationNode =
    "Switch\t41 \"S-0000000000000a01\"\t\t# \"spine01\" enhanced port 0 lid 1 lmc 0\n"
    "[1]\t\"S-0000000000000b01\"[1]\t\t# \"leaf01\" lid 2 4xHDR\n"
    "[41]\t\"H-0000000000000a09\"[1](a09) \t\t# \"Mellanox Technologies Aggregation Node\" lid 3 4xHDR\n"
    "\n"
    "Switch\t41 \"S-0000000000000b01\"\t\t# \"leaf01\" enhanced port 0 lid 2 lmc 0\n"
    "[1]\t\"S-0000000000000a01\"[1]\t\t# \"spine01\" lid 1 4xHDR\n"
    "[40]\t\"H-0000000000000c01\"[1](c01) \t\t# \"gpu01 mlx5_0\" lid 4 4xHDR\n"
    "\n"
    "Ca\t1 \"H-0000000000000a09\"\t\t# \"Mellanox Technologies Aggregation Node\"\n"
    "[1](a09) \t\"S-0000000000000a01\"[41]\t\t# lid 3 lmc 0 \"spine01\" lid 1 4xHDR\n"
    "\n"
    "Ca\t1 \"H-0000000000000c01\"\t\t# \"gpu01 mlx5_0\"\n"
    "[1](c01) \t\"S-0000000000000b01\"[40]\t\t# lid 4 lmc 0 \"leaf01\" lid 2 4xHDR\n";

} // namespace

class TestIbAggregationNodes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ufmLabFabric() {
        const Fabric f = parseIbnetdiscover(readData("ibnetdiscover/ufm-lab-small.txt"));
        QCOMPARE(flagged(f), std::vector<std::string>{"0xb8599f0300fc6dec"});  // port 41 of the QM8700
        QCOMPARE(countHosts(f), f.count(NodeType::Ca) - 1);
    }

    void portsReportSeenFromTwoSwitches() {
        const Fabric f = parsePorts(readData("ibnetdiscover-p/test2.out"));
        QCOMPARE(flagged(f), std::vector<std::string>{"0x946dae0300630bfe"});
        QCOMPARE(countHosts(f), f.count(NodeType::Ca) - 1);
    }

    void renamedByANodeNameMapStillFound() {
        const std::string renamed = replaceAll(readData("ibnetdiscover/ufm-lab-small.txt"), "Mellanox Technologies Aggregation Node", "sw95-an");
        QCOMPARE(flagged(parseIbnetdiscover(renamed)), std::vector<std::string>{"0xb8599f0300fc6dec"});
        // A host on an ordinary port of the same kind of switch is not one.
        const Fabric f = parseIbnetdiscover(replaceAll(kSpineWithAggregationNode, "Mellanox Technologies Aggregation Node", "an"));
        QCOMPARE(flagged(f), std::vector<std::string>{"0xa09"});
        QCOMPARE(countHosts(f), std::size_t{1});
    }

    void aSpineHoldingOneIsNoLeaf() {
        const Fabric f = parseIbnetdiscover(kSpineWithAggregationNode);
        const auto tiers = computeTiers(f);
        QCOMPARE(tiers[indexOf(f, "0xb01")], 1);  // leaf: touches the host
        QCOMPARE(tiers[indexOf(f, "0xa01")], 2);  // spine, though a CA (its aggregation node) hangs off it
        QCOMPARE(tiers[indexOf(f, "0xc01")], 0);
        QCOMPARE(tiers[indexOf(f, "0xa09")], 0);  // drawn with the hosts' row, never a seed
    }
};

QTEST_GUILESS_MAIN(TestIbAggregationNodes)
#include "tst_ib_aggregation_nodes.moc"
