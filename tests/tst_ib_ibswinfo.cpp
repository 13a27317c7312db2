// ibswinfo (an unmanaged switch's identity, uptime, power supplies, temperature and fans; real
// outputs from treydock/infiniband_exporter's fixtures in tests/data/ibswinfo/): every status that
// is not OK is kept on the switch with its line, the rest is said in one note per switch; broken
// captures fail naming the line; on a stored fabric `info` counts what ibswinfo reported, and a
// file alone in an empty store fails without writing anything.
#include "cli_run.h"
#include "ib_test_util.h"
#include "importers/ibswinfo_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <fstream>

using namespace fabscope;
using namespace ibtest;

namespace {

const char* kFile = "sw.ibswinfo";

TopologyResult parse(const std::string& text, std::vector<Diagnostic>* notes = nullptr) {
    DiagnosticSink diag(kFile);
    auto r = IbswinfoImporter().parse(ImportInput{kFile, text, 0}, diag, {});
    if (notes) *notes = diag.items();
    return r;
}

Diagnostic failure(const std::string& text) {
    return failureOf(kFile, [&] { parse(text); });
}

std::string data(const char* name) { return readData(QStringLiteral("ibswinfo/") + QString::fromLatin1(name)); }

} // namespace

class TestIbIbswinfo : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void aFanNotOkIsAnErrorOnTheSwitch() {
        std::vector<Diagnostic> notes;
        const auto r = parse(data("test1.out"), &notes);
        QVERIFY(r.fabric.nodes.empty());
        QCOMPARE(r.events.size(), std::size_t{1});
        const FabricEvent& e = r.events.front();
        QCOMPARE(e.tool, std::string("ibswinfo"));
        QCOMPARE(e.nodeGuid, std::string("0x1c34da0300010540"));
        QVERIFY(e.port.empty());
        QVERIFY(e.error);
        QCOMPARE(e.check, std::string("FANS"));
        QCOMPARE(e.summary, std::string("fan status ERROR"));
        QCOMPARE(e.line, lineOf(data("test1.out"), "fan status         | ERROR"));
        QCOMPARE(notes.size(), std::size_t{1});
        QCOMPARE(notes.front().message, std::string("switch 0x1c34da0300010540 (MSB7790-ES2F SN MT1943X00498, firmware 11.2008.2102): "
                                                    "up 160d-10:38:53, 45 °C (highest seen 57 °C), PSU0 72 W, PSU1 71 W, 8 fans at "
                                                    "7156-8493 rpm; 1 not OK (fan status ERROR)"));
    }

    void aPowerSupplyWithoutDcPowerAndItsFan() {
        const auto r = parse(data("test3.out"));
        QCOMPARE(r.events.size(), std::size_t{2});
        QCOMPARE(r.events[0].summary, std::string("PSU1 DC power ERROR"));
        QCOMPARE(r.events[0].name, std::string("PSU_DC_POWER"));
        QCOMPARE(r.events[0].line, std::int64_t{24});
        QCOMPARE(r.events[1].summary, std::string("PSU1 fan ERROR"));
        QCOMPARE(r.events[1].name, std::string("PSU_FAN"));
        QCOMPARE(r.events[1].line, std::int64_t{25});
        // The switch's own fans are OK (line 30): not a problem, though a PSU's fan came before.
        for (const auto& e : r.events) QVERIFY(e.check == "PSU");
    }

    void allOkIsNoEventAndAMissingStatusAWarning() {
        std::vector<Diagnostic> notes;
        QVERIFY(parse(data("test2.out"), &notes).events.empty());
        QVERIFY2(notes.front().message.ends_with("9 fans at 5251-6125 rpm; every status OK"), notes.front().message.c_str());
        const auto missing = parse(data("test1-missing.out"), &notes);
        QCOMPARE(missing.events.size(), std::size_t{1});
        QVERIFY(!missing.events.front().error);
        QCOMPARE(missing.events.front().summary, std::string("PSU1 status not reported"));
        QVERIFY2(notes.front().message.find("7 fans at") != std::string::npos, notes.front().message.c_str());  // fan#1 is empty
    }

    void severalSwitchesInOneFile() {
        const auto r = parse(data("test1.out") + data("test2.out") + data("test3.out"));
        QCOMPARE(r.events.size(), std::size_t{3});
        QCOMPARE(r.events[0].nodeGuid, std::string("0x1c34da0300010540"));
        QCOMPARE(r.events[1].nodeGuid, std::string("0x8c0eb0300add20e"));  // GUIDs as the store keeps them: no leading zeros
        QCOMPARE(r.events[1].line, std::int64_t{40 + 41 + 24});
    }

    void brokenCapturesFailNamingTheLine() {
        for (const auto& [file, what] : std::vector<std::pair<const char*, std::string>>{
                 {"test-err1.out", "power (W) 'foo'"}, {"test-err2.out", "temperature (C) 'foo'"}, {"test-err3.out", "fan#1 (rpm) 'foo'"}}) {
            const std::string text = data(file);
            const Diagnostic d = failure(text);
            QVERIFY2(d.message.find(what + " is not a number") != std::string::npos, d.message.c_str());
            QCOMPARE(d.line, lineOf(text, "| foo"));
        }
        const std::string good = data("test2.out");
        const std::string noGuid = replaceAll(good, "GUID               | 0x08c0eb0300d9f672\n", "");
        QCOMPARE(failure(noGuid).line, std::int64_t{1});
        QVERIFY(failure(noGuid).message.find("without a 'GUID | 0x..' line") != std::string::npos);
        const std::string badGuid = replaceAll(good, "| 0x08c0eb0300d9f672", "| nope");
        QCOMPARE(failure(badGuid).line, lineOf(badGuid, "| nope"));
        const std::string headless = good.substr(good.find("part number"));
        QCOMPARE(failure(headless).line, std::int64_t{1});
        const std::string junk = replaceAll(good, "revision           | AJ", "revision AJ");
        QCOMPARE(failure(junk).line, lineOf(junk, "revision AJ"));
    }

    void detectedAsItsOwnFormat() {
        ImporterRegistry registry;
        for (const char* f : {"test1.out", "test2.out", "test3.out", "test1-missing.out"})
            QCOMPARE(std::string(registry.detect(data(f).substr(0, 4096))->name()), std::string("ibswinfo"));
    }

    // On a stored fabric (switch A of tests/data/ibdiagnet2-run/ stands in for test3's switch):
    // kept with the switch, counted by `info`; alone in an empty store: refused, nothing written.
    void storedWithTheSwitchAndCountedByInfo() {
        const QString report = dir_.filePath(QStringLiteral("swA.ibswinfo"));
        std::ofstream(report.toStdString()) << replaceAll(data("test3.out"), "0x08c0eb0300add20e", "0xb0cf0e0300d33fc0");
        const QString empty = dir_.filePath(QStringLiteral("empty.sqlite"));
        const auto alone = clitest::runCli({QStringLiteral("import"), QStringLiteral("--db"), empty, report});
        QCOMPARE(alone.code, 1);
        QVERIFY2(alone.err.contains("switch reports need a topology"), alone.err.constData());

        const QString db = dir_.filePath(QStringLiteral("run.sqlite"));
        QCOMPARE(clitest::runCli({QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral(FABSCOPE_TEST_DATA "/ibdiagnet2-run")}).code, 0);
        const auto imported = clitest::runCli({QStringLiteral("import"), QStringLiteral("--db"), db, report});
        QCOMPARE(imported.code, 0);
        QVERIFY2(imported.err.contains("2 not OK (PSU1 DC power ERROR, PSU1 fan ERROR)"), imported.err.constData());
        const auto json = clitest::runCli({QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        const QJsonObject j = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(j[QStringLiteral("ibswinfo")].toObject()[QStringLiteral("errors")].toInt(), 2);
        QCOMPARE(j[QStringLiteral("ibdiagnet")].toObject()[QStringLiteral("warnings")].toInt(), 1);  // the db_csv's, kept
        const auto text = clitest::runCli({QStringLiteral("info"), QStringLiteral("--db"), db});
        QVERIFY2(text.out.contains("ibswinfo   0 warnings, 2 errors\n"), text.out.constData());
        const Store store(db.toStdString(), Store::Mode::ReadOnly);
        const auto events = loadFabricEvents(store, store.latestSnapshot()->id);
        QCOMPARE(std::count_if(events.begin(), events.end(), [](const FabricEvent& e) { return e.tool == "ibswinfo"; }), std::ptrdiff_t{2});
        QCOMPARE(std::count_if(events.begin(), events.end(), [](const FabricEvent& e) { return e.tool == "ibdiagnet"; }), std::ptrdiff_t{1});
    }
};

QTEST_GUILESS_MAIN(TestIbIbswinfo)
#include "tst_ib_ibswinfo.moc"
