// ibdiagnet2.cables (`ibdiagnet --get_cable_info`): what each port's module reported must reach
// the store against the right port, with ibdiagnet's quirks read as no reading (passive copper's
// 0C and 0 mA, -999.999 mW, inf mW), fail clearly when broken, and stand beside the findings
// about that link's health. The folder tests/data/ibdiagnet2-run/ holds a run with the file.
#include "core/analysis/analyze.h"
#include "core/analysis/optic_evidence.h"
#include "ib_test_util.h"
#include "importers/ibdiagnet_cables_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QTemporaryDir>

#include <sqlite3.h>

#include <fstream>

using namespace fabscope;
using namespace ibtest;

namespace {

const std::string kData = FABSCOPE_TEST_DATA;
const char* kFile = "ibdiagnet2.cables";
constexpr double kRunTime = 1743464598;  // "Running timestamp : 2025-03-31 23:43:18 UTC +0000"
const std::string kSwitch = "0xb0cf0e0300d33fc0", kOther = "0xfc6a1c030091cf00";

TopologyResult parse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr) {
    DiagnosticSink diag(kFile);
    auto r = IbdiagnetCablesImporter().parse(ImportInput{kFile, text, 0}, diag, {});
    if (warnings) *warnings = diag.items();
    return r;
}

Diagnostic failure(const std::string& text) { return failureOf(kFile, [&] { parse(text); }); }


const PortOptics* find(const std::vector<PortOptics>& all, const std::string& guid, const std::string& port) {
    for (const auto& o : all)
        if (o.nodeGuid == guid && o.port == port) return &o;
    return nullptr;
}

using Lanes = std::vector<std::optional<double>>;

std::optional<MetricValue> metric(const Finding& f, const std::string& name) {
    for (const auto& [k, v] : f.metrics)
        if (k == name) return v;
    return std::nullopt;
}

} // namespace

class TestIbIbdiagnetCables : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The run's folder, then symbol errors rising at 60/s on the managed switch's port 1 (its
    // module near its alarm temperature, its lanes 4.1 dB apart) for ten minutes.
    QString storeWithErrors() {
        const QString path = dir_.filePath(QStringLiteral("errors.sqlite"));
        if (QFile::exists(path)) return path;
        const std::string csv = dir_.filePath(QStringLiteral("errors.csv")).toStdString();
        {
            std::ofstream out(csv);
            out << "timestamp,node,port,counter,value\n";
            for (int i = 0; i <= 60; ++i) out << static_cast<std::int64_t>(kRunTime) + 60 + 10 * i << "," << kSwitch << ",1,symbol_errors," << 600 * i << "\n";
        }
        Store store(path.toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/ibdiagnet2-run/", csv}, {});
        if (s.anyFailed()) qFatal("%s", messages(s).c_str());
        return path;
    }

private Q_SLOTS:
    void readsEachModuleWithItsQuirks() {
        std::vector<Diagnostic> warnings;
        const auto r = parse(readData("ibdiagnet2-run/ibdiagnet2.cables"), &warnings);
        QVERIFY(warnings.empty());
        QCOMPARE(r.optics.size(), std::size_t{5});
        QVERIFY(r.time);
        QCOMPARE(*r.time, kRunTime);
        QVERIFY(r.fabric.nodes.empty());  // readings only: they attach to a snapshot

        const PortOptics* optic = find(r.optics, kSwitch, "1");
        QVERIFY(optic);
        QCOMPARE(optic->vendor, std::string("ACME OPTICS"));
        QCOMPARE(optic->partNumber, std::string("OSFP-400G-SR4-T"));
        QCOMPARE(optic->serial, std::string("AC25010001"));
        QCOMPARE(optic->type, std::string("850 nm VCSEL"));
        QCOMPARE(optic->length, std::string());  // "NA"
        QCOMPARE(optic->firmware, std::string("2.1.0"));
        QCOMPARE(optic->temperatureC, std::optional<double>(77));
        QCOMPARE(optic->temperatureAlarmC, std::optional<double>(80));
        QCOMPARE(optic->rxPowerDbm, (Lanes{1.2, -2.8, 1.1, 1.3}));
        QCOMPARE(optic->txPowerDbm, (Lanes{1.0, 0.9, std::nullopt, 1.1}));  // -999.999 mW: no reading, not 0 dBm
        QCOMPARE(optic->txBiasMa, (Lanes{7.12, 7.08, 7.15, 7.11}));
        QVERIFY(optic->alarms.empty());  // every flag 0x00
        QCOMPARE(optic->line, lineOf(readData("ibdiagnet2-run/ibdiagnet2.cables"), "Port=1 "));

        // Passive copper: 0C against a 0C alarm, 0 mA and a meaningless bias flag: no readings.
        const PortOptics* copper = find(r.optics, kSwitch, "2");
        QVERIFY(copper);
        QCOMPARE(copper->length, std::string("2 m"));
        QVERIFY(!copper->temperatureC && !copper->temperatureAlarmC);
        QVERIFY(copper->rxPowerDbm.empty() && copper->txBiasMa.empty() && copper->alarms.empty());

        // An optic that saw no light: no lane has a reading.
        const PortOptics* dark = find(r.optics, kSwitch, "3");
        QVERIFY(dark);
        QCOMPARE(dark->rxPowerDbm, (Lanes(4)));
        QVERIFY(!dark->rxMinDbm());

        // "inf mW, 65496.000 dBm" is no reading; set flags are kept as written, spaces collapsed.
        const PortOptics* lol = find(r.optics, kOther, "3");
        QVERIFY(lol);
        QCOMPARE(lol->rxPowerDbm, (Lanes{std::nullopt, std::nullopt, -0.5, -0.6}));
        QCOMPARE(lol->alarms, (std::vector<std::string>{"Latched TX / RX LOL Indicator 0x0f", "TX Bias Alarm and Warning 0x3333"}));
    }

    void brokenFilesFailByLine() {
        const std::string good = readData("ibdiagnet2-run/ibdiagnet2.cables");
        const std::string badPort = replaceAll(good, "Port=3 Lid=0x00b4", "Port=x3 Lid=0x00b4");
        Diagnostic d = failure(badPort);
        QCOMPARE(d.line, lineOf(badPort, "Port=x3"));
        QVERIFY2(d.message.find("Port=<1-255>") != std::string::npos, d.message.c_str());

        const std::string badGuid = replaceAll(good, "GUID=0xfc6a1c030091cf00", "GUID=0xzz");
        QCOMPARE(failure(badGuid).line, lineOf(badGuid, "GUID=0xzz"));

        const std::string noColon = replaceAll(good, "SN: AC25010003", "SN AC25010003");
        d = failure(noColon);
        QCOMPARE(d.line, lineOf(noColon, "SN AC25010003"));
        QVERIFY2(d.message.find("Key: Value") != std::string::npos, d.message.c_str());

        const std::string orphan = "Vendor: ACME\n" + good;
        QCOMPARE(failure(orphan).line, std::int64_t{1});

        d = failure("# This database file was automatically generated by IBDIAG\n\n");
        QVERIFY2(d.message.find("not an ibdiagnet2.cables file") != std::string::npos, d.message.c_str());

        // A port listed twice: the later block wins, with a warning naming its line.
        const std::string twice = good + "\nPort=1 Lid=0x00b4 GUID=0xb0cf0e0300d33fc0 Port Name=x\nTemperature: 40C\nAlarmTemperatureHighThresh: 80C\n";
        std::vector<Diagnostic> warnings;
        const auto r = parse(twice, &warnings);
        QCOMPARE(r.optics.size(), std::size_t{5});
        QCOMPARE(find(r.optics, kSwitch, "1")->temperatureC, std::optional<double>(40));
        QCOMPARE(warnings.size(), std::size_t{1});
        QCOMPARE(warnings[0].line, lineOf(twice, "Port Name=x"));
    }

    void detectedAmongIbdiagnetsFiles() {
        const ImporterRegistry registry;
        const std::string head = readData("ibdiagnet2-run/ibdiagnet2.cables").substr(0, 4096);
        QCOMPARE(registry.detect(head)->name(), std::string_view("ibdiagnet-cables"));
        // ibdiagnet's other files open with the same banner and are not taken for it.
        for (const char* other : {"ibdiagnet2-run/ibdiagnet2.ibnetdiscover", "ibdiagnet2-run/ibdiagnet2.db_csv"})
            QVERIFY(IbdiagnetCablesImporter().detect(readData(other).substr(0, 4096)) == 0);
        // ibdiagnet2.pm opens its blocks with the same Port= lines, then counter=value lines.
        const std::string pm = "# This database file was automatically generated by IBDIAG\n\n"
                               "-------------------------------------------------------\n"
                               "Port=1 Lid=0x00b4 GUID=0xb0cf0e0300d33fc0 Device=54002 Port Name=sw-mgmt/U1/P1/1/1\n"
                               "-------------------------------------------------------\n"
                               "link_down_counter=0x00000000\nsymbol_error_counter=0x00000000\n";
        QCOMPARE(IbdiagnetCablesImporter().detect(pm), 0);
        QVERIFY(!registry.detect(pm) || registry.detect(pm)->name() != "ibdiagnet-cables");
        // Trimmed to its blocks, without the banner, it is still recognised.
        const std::string blocks = readData("ibdiagnet2-run/ibdiagnet2.cables").substr(readData("ibdiagnet2-run/ibdiagnet2.cables").find("Port=1"));
        QVERIFY(IbdiagnetCablesImporter().detect(blocks.substr(0, 4096)) > 0);
    }

    void folderImportAttachesReadingsToTheRunsPorts() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/ibdiagnet2-run/"}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{2});  // db_csv and cables, one snapshot
        QCOMPARE(store.snapshots().size(), std::size_t{1});
        // One warning counts the reading of a port the fabric lacks, on the file that holds it.
        const auto drop = std::find_if(s.diagnostics.begin(), s.diagnostics.end(), [](const Diagnostic& d) {
            return d.message == "1 of 5 module readings name ports not in the topology: dropped";
        });
        QVERIFY2(drop != s.diagnostics.end(), messages(s).c_str());
        QVERIFY2(drop->file.ends_with("/ibdiagnet2.cables"), drop->file.c_str());
        const auto stored = loadPortOptics(store, store.latestSnapshot()->id);
        QCOMPARE(stored.size(), std::size_t{4});
        const auto parsed = parse(readData("ibdiagnet2-run/ibdiagnet2.cables")).optics;
        for (const PortOptics& o : stored) {  // every field back as read
            const PortOptics* p = find(parsed, o.nodeGuid, o.port);
            QVERIFY(p);
            QCOMPARE(o.serial, p->serial);
            QCOMPARE(o.temperatureC, p->temperatureC);
            QCOMPARE(o.rxPowerDbm, p->rxPowerDbm);
            QCOMPARE(o.txPowerDbm, p->txPowerDbm);
            QCOMPARE(o.txBiasMa, p->txBiasMa);
            QCOMPARE(o.alarms, p->alarms);
            QCOMPARE(o.line, p->line);
        }
    }

    // The snapshot is dated and named by the file with the fabric (db_csv's RUN_INFO, its run's
    // folder), not by the .cables listed before it, even when that one has no date and a later mtime.
    void theSnapshotTakesTheFabricsTimeAndNameNotTheCables() {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(run));
        QVERIFY(QFile::copy(QString::fromStdString(kData + "/ibdiagnet2-run/ibdiagnet2.db_csv"), run + QStringLiteral("/ibdiagnet2.db_csv")));
        std::ofstream(run.toStdString() + "/ibdiagnet2.cables")
            << replaceAll(readData("ibdiagnet2-run/ibdiagnet2.cables"), "# Running timestamp", "# Stamp");
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({run.toStdString()}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(store.latestSnapshot()->time, kRunTime);
        // Named by the run's folder, also when its files are listed one by one (.cables first).
        Store listed(dir.filePath(QStringLiteral("listed.sqlite")).toStdString());
        const auto l = ImportRunner(listed, registry).run({run.toStdString() + "/ibdiagnet2.cables", run.toStdString() + "/ibdiagnet2.db_csv"}, {});
        QVERIFY2(!l.anyFailed(), messages(l).c_str());
        QCOMPARE(listed.latestSnapshot()->label, std::string("run"));
        QCOMPARE(listed.latestSnapshot()->time, kRunTime);
        // A .cables listed before the fabric of another folder: the fabric's folder names it.
        Store other(dir.filePath(QStringLiteral("other.sqlite")).toStdString());
        const auto o = ImportRunner(other, registry).run({run.toStdString() + "/ibdiagnet2.cables", kData + "/ibdiagnet2-run/ibdiagnet2.ibnetdiscover"}, {});
        QVERIFY2(!o.anyFailed(), messages(o).c_str());
        QCOMPARE(other.latestSnapshot()->label, std::string("ibdiagnet2-run"));
    }

    // Module readings of another run than the fabric's (the real NDR folder holds a .cables two
    // weeks older than its db_csv) are kept, with a warning saying how far apart they are.
    void readingsFromAnotherRunAreSaidToBe() {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(run));
        QVERIFY(QFile::copy(QString::fromStdString(kData + "/ibdiagnet2-run/ibdiagnet2.db_csv"), run + QStringLiteral("/ibdiagnet2.db_csv")));
        const std::string cables = readData("ibdiagnet2-run/ibdiagnet2.cables");
        std::ofstream(run.toStdString() + "/ibdiagnet2.cables")
            << replaceAll(cables, "Running timestamp : 2025-03-31 23:43:18", "Running timestamp : 2025-03-15 06:54:44");
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        auto s = ImportRunner(store, registry).run({run.toStdString()}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QVERIFY2(messages(s).find("ibdiagnet2.cables: warning: module readings taken 2025-03-15 06:54:44 UTC, 16.7 days before the "
                                  "topology snapshot they join (2025-03-31 23:43:18 UTC)") != std::string::npos,
                 messages(s).c_str());
        QCOMPARE(loadPortOptics(store, store.latestSnapshot()->id).size(), std::size_t{4});  // kept
        // The same run's readings: no warning.
        QTemporaryDir same;
        Store other(same.filePath(QStringLiteral("s.sqlite")).toStdString());
        s = ImportRunner(other, registry).run({kData + "/ibdiagnet2-run/"}, {});
        QVERIFY2(messages(s).find("module readings taken") == std::string::npos, messages(s).c_str());
    }

    void readingsAloneNeedATopologyThenJoinTheLatest() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const std::string cables = kData + "/ibdiagnet2-run/ibdiagnet2.cables";
        auto s = ImportRunner(store, registry).run({cables}, {});
        QVERIFY(s.anyFailed());
        QVERIFY2(messages(s).find("module readings need a topology") != std::string::npos, messages(s).c_str());
        QVERIFY(store.info().imports.empty());  // nothing half-written

        s = ImportRunner(store, registry).run({kData + "/ibdiagnet2-run/ibdiagnet2.ibnetdiscover"}, {});
        QVERIFY(!s.anyFailed());
        s = ImportRunner(store, registry).run({cables}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(store.snapshots().size(), std::size_t{1});  // joined the stored one, no new snapshot
        QCOMPARE(loadPortOptics(store, store.latestSnapshot()->id).size(), std::size_t{4});
    }

    void anHcaIsFoundByItsPortGuid() {
        Store store(":memory:");
        Fabric f;
        f.nodes.push_back({NodeType::Ca, "0x1000", "gpu1 mlx5_0", "gpu1", 1, 0});
        Port p;
        p.node = NodeId(std::uint32_t{0});
        p.name = "1";
        p.portGuid = "0x1001";  // an HCA's port GUID differs from its node GUID
        f.ports.push_back(p);
        Store::Transaction tx(store);
        const auto sid = store.writeSnapshot(f, "t", kRunTime);
        PortOptics o;
        o.nodeGuid = "0x1001";
        o.port = "1";
        o.serial = "S1";
        QCOMPARE(writePortOptics(store, sid, {o}), std::size_t{1});
        tx.commit();
        const auto back = loadPortOptics(store, sid);
        QCOMPARE(back.size(), std::size_t{1});
        QCOMPARE(back[0].nodeGuid, std::string("0x1000"));
        QCOMPARE(back[0].serial, std::string("S1"));
    }

    void aStoreBeforeSchema12ReadsNoModules() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("old.sqlite")).toStdString();
        {
            Store s(path);
            sqlite3_exec(s.handle(), "DROP TABLE port_optics; PRAGMA user_version=11;", nullptr, nullptr, nullptr);
        }
        const Store old(path, Store::Mode::ReadOnly);  // as analyze and the GUI open it: no migration
        QCOMPARE(old.schemaVersion(), 11);
        QVERIFY(loadPortOptics(old, 1).empty());
    }

    void lanesRoundTripThroughTheirText() {
        const Lanes lanes{1.2, std::nullopt, -0.123456789, std::nullopt};
        QCOMPARE(lanesText(lanes), std::string("1.2,-,-0.123456789,-"));
        QCOMPARE(lanesFromText(lanesText(lanes)), lanes);
        QCOMPARE(lanesFromText(""), Lanes{});
        QCOMPARE(lanesFromText(lanesText(Lanes(1))), Lanes(1));  // one lane without a reading is not none
    }

    void errorFindingNamesTheLinksModule() {
        const Store store(storeWithErrors().toStdString(), Store::Mode::ReadOnly);
        const auto report = analyze(store, {}, AnalysisConfig{});
        const Finding* f = findingOn(report, FindingKind::ErrorLink, kSwitch, "1");
        QVERIFY(f);
        QVERIFY2(f->summary.find("module at 77 °C (its alarm 80 °C)") != std::string::npos, f->summary.c_str());
        QVERIFY2(f->summary.find("receive lanes 4.1 dB apart (-2.8 to 1.3 dBm)") != std::string::npos, f->summary.c_str());
        QCOMPARE(std::get<double>(*metric(*f, "optic_temperature_c")), 77.0);
        QCOMPARE(std::get<double>(*metric(*f, "optic_temperature_alarm_c")), 80.0);
        QCOMPARE(std::get<double>(*metric(*f, "optic_rx_min_dbm")), -2.8);
        const std::string modules = std::get<std::string>(*metric(*f, "optic_modules"));
        QVERIFY2(modules.find("ACME OPTICS OSFP-400G-SR4-T 850 nm VCSEL SN AC25010001") != std::string::npos, modules.c_str());
        // In the findings JSON as numbers and text.
        const std::string json = findingsJson(report);
        QVERIFY(json.find("\"optic_temperature_c\": 77") != std::string::npos);

        // The thresholds come from the shared config: 2 °C of margin and 5 dB of spread say nothing.
        AnalysisConfig strict;
        strict.optics.temperatureMarginC = 2;
        strict.optics.rxLaneSpreadDb = 5;
        const auto strictReport = analyze(store, {}, strict);
        const Finding* quiet = findingOn(strictReport, FindingKind::ErrorLink, kSwitch, "1");
        QVERIFY(quiet);
        QVERIFY2(quiet->summary.find("module") == std::string::npos, quiet->summary.c_str());
        QVERIFY(metric(*quiet, "optic_temperature_c"));  // the readings stay in the metrics
        QCOMPARE(parseAnalysisConfig(R"({"optics": {"temperature_margin_c": 2, "rx_lane_spread_db": 5}})").optics.rxLaneSpreadDb, 5.0);
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseAnalysisConfig(R"({"optics": {"margin": 2}})"));
    }

    void evidenceOnlyForLinkHealthFindings() {
        PortOptics o;
        o.nodeGuid = kSwitch;
        o.port = "1";
        o.temperatureC = 79;
        o.temperatureAlarmC = 80;
        std::vector<Finding> findings(2);
        findings[0].kind = FindingKind::HotLink;
        findings[1].kind = FindingKind::LinkFlap;
        for (auto& f : findings) f.ports = {PortRef{"sw-mgmt", kSwitch, "1"}, PortRef{"node-1", "0x5c25730300e6706e", "1"}};
        addOpticEvidence({o}, OpticsConfig{}, findings);
        QVERIFY(findings[0].metrics.empty());  // a hot link is load, not the module
        QVERIFY(metric(findings[1], "optic_temperature_c"));
        QVERIFY2(findings[1].summary.find("sw-mgmt p1 module at 79 °C") != std::string::npos, findings[1].summary.c_str());
    }
};

QTEST_GUILESS_MAIN(TestIbIbdiagnetCables)
#include "tst_ib_ibdiagnet_cables.moc"
