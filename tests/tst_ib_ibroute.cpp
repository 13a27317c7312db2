// Forwarding tables from ibsim (ibroute of one switch, dump_fts of all), stored for path tracing.
#include "ib_test_util.h"
#include "importers/ibroute_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QTemporaryDir>

using namespace fabscope;
using namespace ibtest;

namespace {

TopologyResult parse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr) {
    DiagnosticSink diag("routes.txt");
    auto r = IbrouteImporter().parse(ImportInput{"routes.txt", text, 0}, diag, {});
    if (warnings) *warnings = diag.items();
    return r;
}

std::size_t entries(const SwitchRoutes& r) {
    return static_cast<std::size_t>(std::count_if(r.egress.begin(), r.egress.end(), [](std::uint8_t p) { return p != SwitchRoutes::kNoRoute; }));
}

} // namespace

class TestIbIbroute : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneSwitchFromIbroute() {
        std::vector<Diagnostic> warnings;
        const auto r = parse(readData("ibsim/ibroute-leaf03.txt"), &warnings);
        QVERIFY(warnings.empty());
        QCOMPARE(r.routes.size(), std::size_t{1});
        const auto& leaf03 = r.routes.front();
        QCOMPARE(leaf03.nodeGuid, std::string("0x200004"));
        QCOMPARE(entries(leaf03), std::size_t{14});  // "14 valid lids dumped"
        QCOMPARE(int(leaf03.egress[12]), 4);  // gpu006 hangs off port 4 (the 1x link)
        QCOMPARE(int(leaf03.egress[7]), 0);   // itself
        QCOMPARE(int(leaf03.egress[1]), 1);   // spine01 up port 1
        QCOMPARE(int(leaf03.egress[0]), int(SwitchRoutes::kNoRoute));
        QVERIFY(r.fabric.nodes.empty());
    }

    void allSwitchesFromDumpFts() {
        const auto r = parse(readData("ibsim/dump_fts.txt"));
        QCOMPARE(r.routes.size(), std::size_t{6});
        std::size_t total = 0;
        for (const auto& s : r.routes) total += entries(s);
        QCOMPARE(total, std::size_t{84});  // 6 switches x 14 LIDs
    }

    void storedWithTheTopologyOrAttachedToTheLatest() {
        QTemporaryDir dir;
        ImporterRegistry registry;
        {
            Store store(dir.filePath(QStringLiteral("a.sqlite")).toStdString());
            const auto s = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibsim/ibnetdiscover.txt", FABSCOPE_TEST_DATA "/ibsim/dump_fts.txt"}, {});
            QCOMPARE(s.count(FileStatus::Imported), std::size_t{2});
            QCOMPARE(store.snapshots().size(), std::size_t{1});
            QCOMPARE(store.routes(store.latestSnapshot()->id).size(), std::size_t{6});
            QCOMPARE(store.info().switches, std::size_t{6});  // the route file adds no nodes
        }
        {
            Store store(dir.filePath(QStringLiteral("b.sqlite")).toStdString());
            ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibsim/ibnetdiscover.txt"}, {});
            const auto s = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibsim/ibroute-leaf03.txt"}, {});
            QCOMPARE(s.count(FileStatus::Imported), std::size_t{1});
            QCOMPARE(s.files.front().rows, std::int64_t{14});
            QCOMPARE(store.snapshots().size(), std::size_t{1});  // attached, no empty snapshot
            const auto routes = store.routes(store.latestSnapshot()->id);
            QCOMPARE(routes.size(), std::size_t{1});
            QCOMPARE(int(routes.front().egress[12]), 4);
        }
        {
            Store store(dir.filePath(QStringLiteral("c.sqlite")).toStdString());
            const auto s = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibsim/dump_fts.txt"}, {});
            QCOMPARE(s.count(FileStatus::Failed), std::size_t{1});
            QVERIFY(s.diagnostics.back().message.find("import ibnetdiscover output first") != std::string::npos);
            QVERIFY(store.imports().empty());
        }
    }

    void brokenLines() {
        try {
            parse("Unicast lids [0x0-0x2] of switch Lid 7 guid 0x0000000000200004 (leaf03):\n0x0001 001 : x\n0x0002 abc : y\n");
            QFAIL("a bad port must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{3});
        }
        QVERIFY_THROWS_EXCEPTION(ImportError, parse("0x0001 001 : (Switch ...)\n"));
        QVERIFY_THROWS_EXCEPTION(ImportError, parse("nothing\n"));
    }

    void detectedAsIbroute() {
        ImporterRegistry reg;
        for (const char* f : {"ibsim/ibroute-leaf03.txt", "ibsim/dump_fts.txt"}) {
            const auto* imp = reg.detect(readData(QString::fromLatin1(f)).substr(0, 16384));
            QVERIFY2(imp && imp->name() == "ibroute", f);
        }
    }
};

QTEST_GUILESS_MAIN(TestIbIbroute)
#include "tst_ib_ibroute.moc"
