// ibdiagnet2.pm (the port counters of one ibdiagnet run, the same reads as db_csv PM_INFO): read
// alone or from a folder without db_csv, each counter on the port the stored fabric places it on,
// in the same series db_csv would fill, dated by the run; two runs' files give the rates the
// findings are made of; broken files fail naming the line. Files: tests/data/ibdiagnet2-pm/.
#include "core/analysis/analyze.h"
#include "ib_test_util.h"
#include "importers/ibdiagnet_db_csv_importer.h"
#include "importers/ibdiagnet_pm_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QDir>
#include <QTemporaryDir>

#include <fstream>
#include <set>

using namespace fabscope;
using namespace ibtest;

namespace {

const std::string kData = FABSCOPE_TEST_DATA;
const char* kFile = "ibdiagnet2.pm";
const QString kFirst = QStringLiteral("ibdiagnet2-pm/run-2343/ibdiagnet2.pm");
const QString kSecond = QStringLiteral("ibdiagnet2-pm/run-2353/ibdiagnet2.pm");
constexpr std::int64_t kSecondMs = 1743465198000;  // "Running timestamp : 2025-03-31 23:53:18 UTC +0000"
const std::string kSwitchA = "0xb0cf0e0300d33fc0", kSwitchB = "0xfc6a1c030091cf00", kNode1 = "0x5c25730300e6706e";

std::string topology() { return readData(QStringLiteral("ibdiagnet2-run/ibdiagnet2.ibnetdiscover")); }

CounterImport importPm(const std::string& text, const std::string& topo = topology()) {
    return importCounters(IbdiagnetPmImporter(), text, kFile, 1700000000, topo);
}

Diagnostic failure(const std::string& text) {
    return failureOf(kFile, [&] { importPm(text); });
}

std::set<std::string> countersOf(const Store& store, const std::string& node, const std::string& port) {
    std::set<std::string> names;
    for (const auto& s : store.series())
        if (s.nodeRef == node && s.port == port) names.insert(s.counter);
    return names;
}

// The error_link finding on a port for one counter (one finding per port and counter).
const Finding* errorLinkOn(const FindingsReport& r, const std::string& guid, const std::string& port, const std::string& counter) {
    for (const auto& f : r.findings) {
        if (f.kind != FindingKind::ErrorLink) continue;
        const bool onPort = std::any_of(f.ports.begin(), f.ports.end(), [&](const auto& p) { return p.guid == guid && p.port == port; });
        const bool ofCounter = std::any_of(f.metrics.begin(), f.metrics.end(), [&](const auto& m) {
            return m.first == "counter" && std::holds_alternative<std::string>(m.second) && std::get<std::string>(m.second) == counter;
        });
        if (onPort && ofCounter) return &f;
    }
    return nullptr;
}

} // namespace

class TestIbIbdiagnetPm : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsEachPortsCountersAtTheRunsTime() {
        const auto r = importPm(readData(kSecond));
        // Switch B's port 3: 3,900 symbol errors and 12 link recoveries, dated by the header.
        const auto symbols = r.series(kSwitchB, "3", "symbol_errors");
        QVERIFY(symbols);
        QCOMPARE(symbols->timesMs.size(), std::size_t{1});
        QCOMPARE(symbols->timesMs[0], kSecondMs);
        QCOMPARE(symbols->values[0], 3900.0);
        QCOMPARE(r.series(kSwitchB, "3", "link_error_recovery")->values[0], 12.0);
        // Data counts 4-byte words; the 64-bit value wins over the 32-bit one stuck at 0xffffffff.
        const auto bytes = r.series(kSwitchA, "3", "xmit_bytes");
        QVERIFY(bytes);
        QCOMPARE(bytes->values[0], 4.0 * 0x0000072f5cb19800);
        // An HCA's counters on its node; its NA counters and ibdiagnet's rates are not series.
        QVERIFY(r.series(kNode1, "1", "xmit_bytes"));
        const auto hca = countersOf(*r.store, kNode1, "1");
        QVERIFY(!hca.count("port_vl_mapping_errors"));
        QVERIFY(!hca.count("retransmission_per_sec"));
        QVERIFY(!countersOf(*r.store, kSwitchA, "1").count("retransmission_per_sec"));
        QVERIFY(countersOf(*r.store, kSwitchA, "1").count("port_vl_mapping_errors"));
        QVERIFY(r.warned("NA (counter not supported by the port)"));
        QVERIFY(!r.warned("not in the stored topology"));
    }

    // The series names are db_csv's for the same counters: a run's two files fill one series.
    void fillsTheSeriesDbCsvFillsForTheSameCounters() {
        // A PM_INFO header with every column of a real ibdiagnet 2.10 run, one row for switch A's port 1.
        const std::string columns =
            "NodeGUID,PortGUID,PortNumber,LinkDownedCounter,LinkErrorRecoveryCounter,SymbolErrorCounter,PortRcvRemotePhysicalErrors,"
            "PortRcvErrors,PortXmitDiscards,PortRcvSwitchRelayErrors,ExcessiveBufferOverrunErrors,LocalLinkIntegrityErrors,"
            "PortRcvConstraintErrors,PortXmitConstraintErrors,VL15Dropped,PortXmitData,PortRcvData,PortXmitPkts,PortRcvPkts,PortXmitWait,"
            "PortXmitDataExtended,PortRcvDataExtended,PortXmitPktsExtended,PortRcvPktsExtended,PortUniCastXmitPkts,PortUniCastRcvPkts,"
            "PortMultiCastXmitPkts,PortMultiCastRcvPkts,SymbolErrorCounterExt,LinkErrorRecoveryCounterExt,LinkDownedCounterExt,"
            "PortRcvErrorsExt,PortRcvRemotePhysicalErrorsExt,PortRcvSwitchRelayErrorsExt,PortXmitDiscardsExt,PortXmitConstraintErrorsExt,"
            "PortRcvConstraintErrorsExt,LocalLinkIntegrityErrorsExt,ExcessiveBufferOverrunErrorsExt,VL15DroppedExt,PortXmitWaitExt,"
            "QP1DroppedExt,retransmission_per_sec, max_retransmission_rate,PortLocalPhysicalErrors,PortMalformedPacketErrors,"
            "PortBufferOverrunErrors,PortDLIDMappingErrors,PortVLMappingErrors,PortLoopingErrors,PortInactiveDiscards,"
            "PortNeighborMTUDiscards,PortSwLifetimeLimitDiscards,PortSwHOQLifetimeLimitDiscards";
        // 7 in every counter, N/A where the .pm has NA (a switch has no looping-error counter).
        std::string row = kSwitchA + "," + kSwitchA + ",1";
        QStringList names = QString::fromStdString(columns).split(QLatin1Char(','));
        for (int i = 3; i < names.size(); ++i) row += names[i] == QStringLiteral("PortLoopingErrors") ? ",N/A" : ",7";
        std::string db = readData(QStringLiteral("ibdiagnet2-run/ibdiagnet2.db_csv"));
        const auto from = db.find("START_PM_INFO"), to = db.find("END_PM_INFO");
        db.replace(from, to - from, "START_PM_INFO\n" + columns + "\n" + row + "\n");
        const auto delta = db.find("START_PM_DELTA");
        db.erase(delta, db.find("END_PM_DELTA") + 12 - delta);
        DiagnosticSink diag("ibdiagnet2.db_csv");
        const auto fromDb = IbdiagnetDbCsvImporter().parse(ImportInput{"ibdiagnet2.db_csv", db, 0}, diag, {});
        std::set<std::string> dbNames;
        for (const auto& s : fromDb.samples)
            if (s.node == kSwitchA && s.port == "1") dbNames.insert(s.counter.name);
        const auto pm = importPm(readData(kFirst));
        auto pmNames = countersOf(*pm.store, kSwitchA, "1");
        QCOMPARE(pmNames.size(), std::size_t{31});
        QCOMPARE(pmNames, dbNames);
    }

    // Two runs ten minutes apart: rates, and the finding a user looks for on the link between the
    // switches (symbol errors at 6.5/s on B's port 3); 44 GB/s out of A's port 3.
    void twoRunsGiveRatesAndTheLinksFindings() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry)
                           .run({kData + "/ibdiagnet2-run/ibdiagnet2.ibnetdiscover", kData + "/" + kFirst.toStdString(),
                                 kData + "/" + kSecond.toStdString()},
                                {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{3});
        const auto report = analyze(store, {}, AnalysisConfig{});
        const Finding* errors = errorLinkOn(report, kSwitchB, "3", "symbol_errors");
        QVERIFY2(errors, "no error_link for symbol errors on switch B port 3");
        QVERIFY2(errors->summary.find("3900 symbol errors in 600 s from 2025-03-31 23:43:18 UTC (6.5/s mean") != std::string::npos,
                 errors->summary.c_str());
        QVERIFY(errorLinkOn(report, kSwitchB, "3", "link_error_recovery"));
        QVERIFY(!findingOn(report, FindingKind::ErrorLink, kSwitchA, "1"));
        QCOMPARE(std::count_if(report.findings.begin(), report.findings.end(),
                               [](const Finding& f) { return f.kind == FindingKind::ErrorLink; }),
                 std::ptrdiff_t{2});
        // One interval is not enough for hot_link (3 in a row), but the rate is there: 44 GB/s.
        const auto all = store.series();
        const auto id = std::find_if(all.begin(), all.end(), [&](const auto& x) {
            return x.nodeRef == kSwitchA && x.port == "3" && x.counter == "xmit_bytes";
        });
        const auto bytes = store.loadSeries(id->id);
        QCOMPARE(bytes.timesMs.size(), std::size_t{2});
        QCOMPARE(bytes.timesMs[1] - bytes.timesMs[0], std::int64_t{600000});
        QCOMPARE(std::round((bytes.values[1] - bytes.values[0]) / 600 / 1e9), 44.0);
    }

    // A folder with the fabric and counters but no db_csv: both read (the .pm was refused before).
    void aFolderWithoutDbCsvReadsThePm() {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("ibdiagnet2"));
        QVERIFY(QDir().mkpath(run));
        std::ofstream(run.toStdString() + "/ibdiagnet2.ibnetdiscover") << topology();
        std::ofstream(run.toStdString() + "/ibdiagnet2.pm") << readData(kFirst);
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({run.toStdString()}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{2});
        QVERIFY(countersOf(store, kSwitchB, "3").count("symbol_errors"));
        QVERIFY(countersOf(store, kNode1, "1").count("xmit_bytes"));
    }

    void hcaPortsArePlacedByTheirPortGuid() {
        // node-1's port GUID differs from its node GUID, as on many adapters.
        const std::string topo = replaceAll(topology(), "[1](1)(5c25730300e6706e)", "[1](1)(5c25730300e6706f)");
        const auto r = importPm(replaceAll(readData(kFirst), "GUID=0x5c25730300e6706e", "GUID=0x5c25730300e6706f"), topo);
        QVERIFY(r.series(kNode1, "1", "xmit_bytes"));
        QVERIFY(!r.warned("not in the stored topology"));
        // A port the fabric lacks is kept under its GUID, with one warning on its line.
        const std::string text = replaceAll(readData(kFirst), "GUID=0x5c25730300e66e26", "GUID=0x5c25730300ffffff");
        const auto lost = importPm(text);
        QVERIFY(lost.series("0x5c25730300ffffff", "1", "xmit_bytes"));
        const auto w = std::find_if(lost.warnings.begin(), lost.warnings.end(),
                                    [](const Diagnostic& d) { return d.message.find("not in the stored topology") != std::string::npos; });
        QVERIFY(w != lost.warnings.end());
        QCOMPARE(w->message.substr(0, 23), std::string("1 ports' GUIDs are not "));
        QCOMPARE(w->line, lineOf(text, "GUID=0x5c25730300ffffff"));
    }

    void isDetectedAsItsOwnFormat() {
        ImporterRegistry registry;
        auto detected = [&](const QString& file) { return std::string(registry.detect(readData(file).substr(0, 4096))->name()); };
        QCOMPARE(detected(kFirst), std::string("ibdiagnet-pm"));
        QCOMPARE(detected(QStringLiteral("ibdiagnet2-run/ibdiagnet2.cables")), std::string("ibdiagnet-cables"));
        QCOMPARE(detected(QStringLiteral("ibdiagnet2-run/ibdiagnet2.db_csv")), std::string("ibdiagnet-db-csv"));
    }

    void brokenFilesFailNamingTheLine() {
        const std::string good = readData(kFirst);
        const std::string badValue = replaceAll(good, "symbol_error_counter=0x00000000\nport_rcv_remote",
                                                "symbol_error_counter=0x0000zz00\nport_rcv_remote");
        auto d = failure(badValue);
        QCOMPARE(d.line, lineOf(badValue, "0x0000zz00"));
        QVERIFY2(d.message.find("bad counter value '0x0000zz00' of symbol_error_counter") != std::string::npos, d.message.c_str());

        const std::string noPort = good.substr(0, good.find("-----")) + "link_down_counter=0x00000000\n";
        d = failure(noPort);
        QCOMPARE(d.line, lineOf(noPort, "link_down_counter"));
        QVERIFY2(d.message.find("before any 'Port=") != std::string::npos, d.message.c_str());

        const std::string badPort = replaceAll(good, "Port=2 Lid=0x00b4 GUID=0xb0cf0e0300d33fc0", "Port=2 Lid=0x00b4 GUID=");
        d = failure(badPort);
        QCOMPARE(d.line, lineOf(badPort, "Port=2 Lid"));

        const std::string cut = good.substr(0, good.find("-----"));  // the header only
        d = failure(cut);
        QCOMPARE(d.line, std::int64_t{1});
        QVERIFY2(d.message.find("not an ibdiagnet2.pm file") != std::string::npos, d.message.c_str());

        const std::string junk = replaceAll(good, "vl15_dropped=0x00000000\n", "vl15_dropped 0\n");
        d = failure(junk);
        QCOMPARE(d.line, lineOf(junk, "vl15_dropped 0"));
    }
};

QTEST_GUILESS_MAIN(TestIbIbdiagnetPm)
#include "tst_ib_ibdiagnet_pm.moc"
