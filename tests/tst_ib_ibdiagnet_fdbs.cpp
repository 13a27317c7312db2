// ibdiagnet2.fdbs forwarding tables: the ibsim fat tree's routes in ibdiagnet's layout must give
// the same tables as dump_fts, attach to the stored topology, and fail clearly when broken.
#include "ib_test_util.h"
#include "importers/ibdiagnet_fdbs_importer.h"
#include "importers/ibroute_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <map>

using namespace fabscope;
using namespace ibtest;

namespace {

const char* kFile = "ibdiagnet2.fdbs";

TopologyResult parse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr) {
    DiagnosticSink diag(kFile);
    auto r = IbdiagnetFdbsImporter().parse(ImportInput{kFile, text, 0}, diag, {});
    if (warnings) *warnings = diag.items();
    return r;
}

Diagnostic failure(const std::string& text) { return failureOf(kFile, [&] { parse(text); }); }


std::map<std::string, std::vector<std::uint8_t>> tables(const TopologyResult& r) {
    std::map<std::string, std::vector<std::uint8_t>> out;
    for (const auto& s : r.routes) {
        auto e = s.egress;
        while (!e.empty() && e.back() == SwitchRoutes::kNoRoute) e.pop_back();
        out[s.nodeGuid] = e;
    }
    return out;
}

} // namespace

class TestIbIbdiagnetFdbs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameTablesAsDumpFts() {
        std::vector<Diagnostic> warnings;
        const auto fdbs = parse(readData("ibdiagnet/ibsim-fattree.fdbs"), &warnings);
        QVERIFY(warnings.empty());
        DiagnosticSink diag("dump_fts.txt");
        const auto fts = IbrouteImporter().parse(ImportInput{"dump_fts.txt", readData("ibsim/dump_fts.txt"), 0}, diag, {});
        QCOMPARE(fdbs.routes.size(), fts.routes.size());
        QCOMPARE(tables(fdbs), tables(fts));
        QVERIFY(fdbs.fabric.nodes.empty());  // tables only: they attach to a stored topology
    }

    void unreachableAndPrivateTables() {
        std::string text = readData("ibdiagnet/ibsim-fattree.fdbs");
        text = replaceAll(text, "0x000E : 004  : 00   : yes\n\nosm_ucast_mgr_dump_ucast_routes: Switch 0x0000000000200005",
                          "0x000E : UNREACHABLE\n\nosm_ucast_mgr_dump_ucast_routes: Switch 0x0000000000200005");
        // Newer ibdiagnet versions print PLFT_NUM blocks; only table 0 is the switch's LFT.
        text += "osm_ucast_mgr_dump_ucast_routes: Switch 0x0000000000200001\nPLFT_NUM: 1\nLID    : Port : Hops : Optimal\n0x0001 : 009  : 00   : yes\n";
        std::vector<Diagnostic> warnings;
        const auto r = parse(text, &warnings);
        const auto t = tables(r);
        QCOMPARE(t.at("0x200001").size(), std::size_t{14});  // LID 14 unreachable: no entry
        QCOMPARE(int(t.at("0x200001")[1]), 1);                // the private table's port 9 was not taken
        QVERIFY(std::any_of(warnings.begin(), warnings.end(), [&](const Diagnostic& d) {
            return d.line == lineOf(text, "PLFT_NUM: 1") && d.message.find("private forwarding tables") != std::string::npos;
        }));
    }

    void attachedToTheStoredTopology() {
        ImporterRegistry registry;
        Store store(":memory:");
        ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibsim/ibnetdiscover.txt"}, {});
        const auto s = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibdiagnet/ibsim-fattree.fdbs"}, {});
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(s.files.front().format, std::string("ibdiagnet-fdbs"));
        QCOMPARE(store.snapshots().size(), std::size_t{1});
        const auto routes = store.routes(store.latestSnapshot()->id);
        QCOMPARE(routes.size(), std::size_t{6});
        const auto leaf03 = std::find_if(routes.begin(), routes.end(), [](const SwitchRoutes& r) { return r.nodeGuid == "0x200004"; });
        QVERIFY(leaf03 != routes.end());
        QCOMPARE(int(leaf03->egress[12]), 4);  // gpu006 behind leaf03 port 4, as ibroute says
    }

    void brokenVariants() {
        const std::string base = readData("ibdiagnet/ibsim-fattree.fdbs");
        struct Case {
            std::string from, to, message;
        };
        const std::vector<Case> cases{
            {"0x0005 : 001  : 00   : yes", "0x0005 : 0x1x  : 00   : yes", "bad egress port"},
            {"0x0005 : 001  : 00   : yes", "0xC005 : 001  : 00   : yes", "unicast LID (at most 0xBFFF)"},
            {"0x0005 : 001  : 00   : yes", "0x0005 : 300  : 00   : yes", "bad egress port"},
            {"Switch 0x0000000000200001", "Switch 0xnotaguid", "bad switch GUID"},
            {"Switch 0x0000000000200001", "Router 0x0000000000200001", "without 'Switch 0x<GUID>'"},
        };
        for (const auto& c : cases) {
            const std::string text = replaceAll(base, c.from, c.to);
            QVERIFY2(text != base, c.from.c_str());
            const auto d = failure(text);
            QCOMPARE(d.file, std::string(kFile));
            QCOMPARE(d.line, lineOf(text, c.to));
            QVERIFY2(d.message.find(c.message) != std::string::npos, d.message.c_str());
        }
        // Cut before the first header: route lines with no switch.
        const std::string headless = base.substr(base.find("0x0001"));
        const auto d = failure(headless);
        QCOMPARE(d.line, std::int64_t{1});
        QVERIFY(d.message.find("before any 'osm_ucast_mgr_dump_ucast_routes") != std::string::npos);
        QVERIFY(failure("\n# nothing\n").message.find("no forwarding table found") != std::string::npos);
        // A stray line (a prompt) is a warning with its line, not a failure.
        std::vector<Diagnostic> warnings;
        parse(base + "[root@ufm ~]# \n", &warnings);
        QCOMPARE(warnings.size(), std::size_t{1});
        QCOMPARE(warnings.front().line, lineOf(base + "[root@ufm ~]# \n", "[root@ufm"));
    }

    void detected() {
        ImporterRegistry reg;
        const auto* imp = reg.detect(readData("ibdiagnet/ibsim-fattree.fdbs").substr(0, 16384));
        QVERIFY(imp);
        QCOMPARE(imp->name(), std::string_view("ibdiagnet-fdbs"));
        QCOMPARE(IbdiagnetFdbsImporter().detect(readData("ibsim/dump_fts.txt")), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbIbdiagnetFdbs)
#include "tst_ib_ibdiagnet_fdbs.moc"
