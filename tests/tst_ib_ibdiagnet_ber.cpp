// ibdiagnet2.net_dump_ext (`ibdiagnet --get_phy_info`): each port's FEC mode and bit error rates
// must reach the store against the right port, with the file's quirks (aligned ':' columns, a
// Node Desc holding ':', empty cells and N/A for ports down or unread, BERs like 1.5e-254), fail
// clearly when broken, and a port whose BER after FEC (or after FEC and retransmission) is above
// the shared threshold must come out as an error_link on its link, receiver first, on the CLI and
// in the report. tests/data/ibdiagnet-net-dump-ext/ holds a file for the run of ibdiagnet2-run/.
#include "cli_run.h"
#include "core/analysis/analyze.h"
#include "core/analysis/format.h"
#include "ib_test_util.h"
#include "importers/ibdiagnet_net_dump_ext_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <fstream>
#include <sstream>

using namespace fabscope;
using namespace ibtest;
using clitest::runCli;

namespace {

const std::string kData = FABSCOPE_TEST_DATA;
const char* kFile = "ibdiagnet2.net_dump_ext";
const QString kRel = QStringLiteral("ibdiagnet-net-dump-ext/ibdiagnet2.net_dump_ext");
constexpr double kRunTime = 1743464598;  // "Running timestamp : 2025-03-31 23:43:18 UTC +0000"
const std::string kSwitchA = "0xb0cf0e0300d33fc0", kSwitchB = "0xfc6a1c030091cf00", kNode2 = "0x5c25730300d0b112";

TopologyResult parse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr) {
    DiagnosticSink diag(kFile);
    auto r = IbdiagnetNetDumpExtImporter().parse(ImportInput{kFile, text, 0}, diag, {});
    if (warnings) *warnings = diag.items();
    return r;
}

Diagnostic failure(const std::string& text) { return failureOf(kFile, [&] { parse(text); }); }

const PortBer* find(const std::vector<PortBer>& all, const std::string& guid, const std::string& port) {
    for (const auto& b : all)
        if (b.nodeGuid == guid && b.port == port) return &b;
    return nullptr;
}

std::optional<MetricValue> metric(const Finding& f, const std::string& name) {
    for (const auto& [k, v] : f.metrics)
        if (k == name) return v;
    return std::nullopt;
}

// The error_links whose receiving (first) port is `guid` port `port`.
std::vector<const Finding*> errorsReceivedAt(const FindingsReport& r, const std::string& guid, const std::string& port) {
    std::vector<const Finding*> out;
    for (const auto& f : r.findings)
        if (f.kind == FindingKind::ErrorLink && !f.ports.empty() && f.ports[0].guid == guid && f.ports[0].port == port) out.push_back(&f);
    return out;
}

// The run of tests/data/ibdiagnet2-run/ with the net_dump_ext beside it, as ibdiagnet leaves a folder.
QString runFolder(const QTemporaryDir& dir) {
    const QString run = dir.filePath(QStringLiteral("run"));
    QDir().mkpath(run);
    for (const char* f : {"ibdiagnet2.db_csv", "ibdiagnet2.net_dump_ext"}) {
        const std::string from = kData + (std::string(f).ends_with("ext") ? "/ibdiagnet-net-dump-ext/" : "/ibdiagnet2-run/") + f;
        if (!QFile::copy(QString::fromStdString(from), run + QLatin1Char('/') + QString::fromUtf8(f))) qFatal("cannot copy %s", f);
    }
    return run;
}

// The file as ibdiagnet writes it when it could read no port's PHY: every rate cell empty, the
// rest (FEC mode, counts) kept.
std::string withoutRates(const std::string& text) {
    std::istringstream in(text);
    std::string out, line;
    while (std::getline(in, line)) {
        if (line.starts_with("SW :") || line.starts_with("CA :")) {
            std::vector<std::string> cells;
            for (std::size_t at = 0;;) {
                const std::size_t sep = line.find(" : ", at);
                cells.push_back(line.substr(at, sep == std::string::npos ? std::string::npos : sep - at));
                if (sep == std::string::npos) break;
                at = sep + 3;
            }
            for (std::size_t c : {12, 13, 14}) cells.at(c).assign(cells.at(c).size(), ' ');  // Raw, Effective, Symbol BER
            line.clear();
            for (std::size_t c = 0; c < cells.size(); ++c) line += (c ? " : " : "") + cells[c];
        }
        out += line + '\n';
    }
    return out;
}

} // namespace

class TestIbIbdiagnetBer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsEachPortsFecAndRates() {
        std::vector<Diagnostic> warnings;
        const auto r = parse(readData(kRel), &warnings);
        QVERIFY(warnings.empty());
        QVERIFY(r.fabric.nodes.empty());  // readings only: they attach to a snapshot
        QVERIFY(r.time);
        QCOMPARE(*r.time, kRunTime);
        // 11 rows: switch A port 4 is down and node-3 was never read (N/A, empty cells): not kept.
        QCOMPARE(r.ber.size(), std::size_t{9});
        QVERIFY(!find(r.ber, kSwitchA, "4"));
        QVERIFY(!find(r.ber, "0x5c25730300a1f4dc", "1"));

        const PortBer* bad = find(r.ber, kNode2, "1");
        QVERIFY(bad);
        QCOMPARE(bad->fecMode, std::string("RS_FEC_544_514"));
        QCOMPARE(bad->rawBer, std::optional<double>(8.7e-05));
        QCOMPARE(bad->effectiveBer, std::optional<double>(3.2e-10));
        QCOMPARE(bad->symbolBer, std::optional<double>(4.0e-13));
        QCOMPARE(bad->symbolErrors, std::optional<std::int64_t>(4));
        QCOMPARE(bad->effectiveErrors, std::optional<std::int64_t>(1632));
        QCOMPARE(bad->line, lineOf(readData(kRel), "0x5c25730300d0b112"));

        // A switch port named by its #IB number, not its 1/2/1 label; 1.5e-254 read as the number it is.
        const PortBer* healthy = find(r.ber, kSwitchA, "3");
        QVERIFY(healthy);
        QCOMPARE(healthy->fecMode, std::string("MLNX_RS_271_257_PLR"));
        QCOMPARE(healthy->effectiveBer, std::optional<double>(1.5e-254));
        QCOMPARE(find(r.ber, kSwitchB, "3")->symbolBer, std::optional<double>(2.5e-12));
    }

    void brokenFilesFailByLine() {
        const std::string good = readData(kRel);
        const std::string badBer = replaceAll(good, "3.2e-10 ", "3.2e-1O ");
        Diagnostic d = failure(badBer);
        QCOMPARE(d.line, lineOf(badBer, "3.2e-1O"));
        QVERIFY2(d.message == "Effective BER '3.2e-1O' is not an error rate from 0 to 1", d.message.c_str());
        const std::string above = replaceAll(good, "2.5e-12 ", "2.5     ");
        QCOMPARE(failure(above).line, lineOf(above, "2.5     "));
        const std::string negative = replaceAll(good, "8.7e-05 ", "-8.7e-05");
        QVERIFY2(failure(negative).message.find("Raw BER '-8.7e-05'") != std::string::npos, failure(negative).message.c_str());

        const std::string badPort = replaceAll(good, ": 1/2/1            : 3   :", ": 1/2/1            : x3  :");
        d = failure(badPort);
        QCOMPARE(d.line, lineOf(badPort, "x3"));
        QVERIFY2(d.message.find("port 'x3'") != std::string::npos, d.message.c_str());
        const std::string badGuid = replaceAll(good, "0x5c25730300e66e26", "0xzz");
        QCOMPARE(failure(badGuid).line, lineOf(badGuid, "0xzz"));
        const std::string badCount = replaceAll(good, ": 1632 ", ": lots ");
        QVERIFY2(failure(badCount).message == "Effective Err 'lots' is not a count", failure(badCount).message.c_str());

        // A row cut short (a copy that lost its tail): the line and the fields it has.
        const std::string cut = good.substr(0, good.find(": 4.4e-06")) + "\n";
        d = failure(cut);
        QCOMPARE(d.line, lineOf(cut, "0xfc6a1c030091cf00 : 13   (0xd )  : ACT  : LINK UP : 4x      : 100     : 180"));
        QVERIFY2(d.message == "expected 18 ':'-separated fields, got 12", d.message.c_str());

        const std::string header = good.substr(good.find("Ty : #"), good.find('\n', good.find("Ty : #")) - good.find("Ty : #"));
        const std::string headless = replaceAll(good, header + "\n", "");
        QCOMPARE(failure(headless).line, lineOf(headless, "SW : 1/1/1"));
        d = failure("# This database file was automatically generated by IBDIAG\n\n");
        QVERIFY2(d.message.find("not an ibdiagnet2.net_dump_ext file") != std::string::npos, d.message.c_str());

        // A port listed twice: the later row wins, with a warning naming its line.
        const std::string row = good.substr(good.find("CA : 1                : 1   : 0x5c25730300e66e26"));
        const std::string twice = good + replaceAll(row.substr(0, row.find('\n')), "2.3e-07", "9.9e-07") + "\n";
        std::vector<Diagnostic> warnings;
        const auto r = parse(twice, &warnings);
        QCOMPARE(r.ber.size(), std::size_t{9});
        QCOMPARE(find(r.ber, "0x5c25730300e66e26", "1")->rawBer, std::optional<double>(9.9e-07));
        QCOMPARE(warnings.size(), std::size_t{1});
        QCOMPARE(warnings[0].line, lineOf(twice, "9.9e-07"));

        // Below the smallest double: no error worth a number, not a failure.
        QCOMPARE(find(parse(replaceAll(good, "1.5e-254", "1.5e-400")).ber, kSwitchA, "1")->effectiveBer, std::optional<double>(0));
    }

    void detectedAmongIbdiagnetsFiles() {
        const ImporterRegistry registry;
        const std::string text = readData(kRel);
        QCOMPARE(registry.detect(text.substr(0, 4096))->name(), std::string_view("ibdiagnet-net-dump-ext"));
        // Cut inside its first rows, as detection sees a large file's head.
        QCOMPARE(registry.detect(text.substr(0, text.find("SW : 1/1/2") + 40))->name(), std::string_view("ibdiagnet-net-dump-ext"));
        // ibdiagnet2.net_dump has a like header per switch, without the rates: not this format.
        const std::string netDump = "# This database file was automatically generated by IBDIAG\n\n"
                                    "\"Quantum-2 Mellanox Technologies\", Mellanox, 0xb0cf0e0300e5b940, LID 24\n"
                                    "  #          : IB# : Sta  : PhysSta    : MTU : LWA     : LSA     : FEC mode            : Retran : Neighbor Guid\n"
                                    "  1/1/1      : 1   : ACT  : LINK UP    : 5   : 4x      : 100     : RS_FEC_544_514      : NO-RTR : 0x5c25730300c06f60\n";
        QCOMPARE(IbdiagnetNetDumpExtImporter().detect(netDump), 0);
        for (const char* other : {"ibdiagnet2-run/ibdiagnet2.db_csv", "ibdiagnet2-run/ibdiagnet2.cables", "ibdiagnet2-run/ibdiagnet2.ibnetdiscover"})
            QCOMPARE(IbdiagnetNetDumpExtImporter().detect(readData(QString::fromUtf8(other)).substr(0, 4096)), 0);
    }

    void formatsRatesAsEngineersWriteThem() {
        QCOMPARE(numfmt::ber(3.2e-10), std::string("3.2e-10"));
        QCOMPARE(numfmt::ber(1e-12), std::string("1e-12"));
        QCOMPARE(numfmt::ber(1.5e-254), std::string("1.5e-254"));
        QCOMPARE(numfmt::ber(9.96e-5), std::string("1e-4"));
        QCOMPARE(numfmt::ber(0), std::string("0"));
    }

    // The folder as ibdiagnet leaves it: the rates join the run's snapshot, and the ports above
    // the threshold become error_links on their links, receiver first; the healthy ones do not.
    void folderImportFindsTheLinksAboveTheThreshold() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({runFolder(dir).toStdString()}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{2});  // db_csv and net_dump_ext, one snapshot
        QCOMPARE(store.snapshots().size(), std::size_t{1});
        const auto stored = loadPortBer(store, store.latestSnapshot()->id);
        QCOMPARE(stored.size(), std::size_t{9});
        const auto parsed = parse(readData(kRel)).ber;
        for (const PortBer& b : stored) {  // every field back as read
            const PortBer* p = find(parsed, b.nodeGuid, b.port);
            QVERIFY(p);
            QCOMPARE(b.fecMode, p->fecMode);
            QCOMPARE(b.rawBer, p->rawBer);
            QCOMPARE(b.effectiveBer, p->effectiveBer);
            QCOMPARE(b.symbolBer, p->symbolBer);
            QCOMPARE(b.symbolErrors, p->symbolErrors);
            QCOMPARE(b.effectiveErrors, p->effectiveErrors);
            QCOMPARE(b.line, p->line);
        }

        const auto report = analyze(store, {}, AnalysisConfig{});
        // node-2 receives at 3.2e-10 after FEC: 320x the 1e-12 threshold, critical (>= 10x).
        auto at = errorsReceivedAt(report, kNode2, "1");
        QCOMPARE(at.size(), std::size_t{1});
        const Finding& bad = *at[0];
        QVERIFY(bad.severity == FindingSeverity::Critical);
        QCOMPARE(bad.ports.size(), std::size_t{2});
        QCOMPARE(bad.ports[1].guid, kSwitchA);  // the transmitter: the switch port that feeds it
        QCOMPARE(bad.ports[1].port, std::string("2"));
        QCOMPARE(std::get<std::string>(*metric(bad, "counter")), std::string("effective_ber"));
        QCOMPARE(std::get<double>(*metric(bad, "ber")), 3.2e-10);
        QCOMPARE(std::get<double>(*metric(bad, "threshold_ber")), 1e-12);
        QCOMPARE(std::get<std::string>(*metric(bad, "fec_mode")), std::string("RS_FEC_544_514"));
        QCOMPARE(std::get<double>(*metric(bad, "snapshot_time")), kRunTime);
        QVERIFY2(bad.summary.find("node-2 mlx5_0 p1 <- MF0;sw-mgmt:MQM9700/U1 p2: bit error rate after FEC 3.2e-10 (threshold 1e-12), "
                                  "after FEC and retransmission 4e-13, before FEC 8.7e-5; FEC RS_FEC_544_514; 4 symbol errors") == 0,
                 bad.summary.c_str());
        QVERIFY2(bad.summary.find("2025-03-31 23:43:18 UTC") != std::string::npos, bad.summary.c_str());
        // Switch B port 3 only above the threshold after retransmission: a warning (2.5x) on its uplink.
        at = errorsReceivedAt(report, kSwitchB, "3");
        QCOMPARE(at.size(), std::size_t{1});
        QVERIFY(at[0]->severity == FindingSeverity::Warning);
        QCOMPARE(std::get<std::string>(*metric(*at[0], "counter")), std::string("symbol_ber"));
        QCOMPARE(at[0]->ports[1].guid, kSwitchA);
        // The threshold is named beside the rate above it only (5e-13 after FEC is below it).
        QVERIFY2(at[0]->summary.find("bit error rate after FEC 5e-13, after FEC and retransmission 2.5e-12 (threshold 1e-12), before FEC") !=
                     std::string::npos,
                 at[0]->summary.c_str());
        // Nothing else: 1.5e-254 everywhere else, and the raw (pre-FEC) 8.7e-5 is not judged.
        const auto errors = std::count_if(report.findings.begin(), report.findings.end(), [](const Finding& f) { return f.kind == FindingKind::ErrorLink; });
        QCOMPARE(errors, 2);

        // The thresholds are the shared config's.
        const AnalysisConfig lenient = parseAnalysisConfig(R"({"error_link": {"effective_ber": 1e-9, "symbol_ber": 1e-11}})");
        QCOMPARE(lenient.errorLink.effectiveBer, 1e-9);
        const auto quiet = analyze(store, {}, lenient);
        QVERIFY(errorsReceivedAt(quiet, kNode2, "1").empty() && errorsReceivedAt(quiet, kSwitchB, "3").empty());
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseAnalysisConfig(R"({"error_link": {"effective_ber": 2}})"));
    }

    // Rates of another ibdiagnet run than the fabric's (the real NDR folder's net_dump_ext is 16.7
    // days older than its db_csv, like its .cables) are kept, with a warning saying how far apart.
    void ratesFromAnotherRunAreSaidToBe() {
        QTemporaryDir dir;
        const QString run = runFolder(dir);
        const std::string file = run.toStdString() + "/ibdiagnet2.net_dump_ext";
        std::ofstream(file) << replaceAll(readData(kRel), "Running timestamp : 2025-03-31 23:43:18", "Running timestamp : 2025-03-15 06:54:44");
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        auto s = ImportRunner(store, registry).run({run.toStdString()}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QVERIFY2(messages(s).find("ibdiagnet2.net_dump_ext: warning: bit error rates taken 2025-03-15 06:54:44 UTC, 16.7 days before "
                                  "the topology snapshot they join (2025-03-31 23:43:18 UTC)") != std::string::npos,
                 messages(s).c_str());
        QCOMPARE(loadPortBer(store, store.latestSnapshot()->id).size(), std::size_t{9});  // kept
        // The same run's rates: no warning.
        QTemporaryDir same;
        Store other(same.filePath(QStringLiteral("s.sqlite")).toStdString());
        s = ImportRunner(other, registry).run({runFolder(same).toStdString()}, {});
        QVERIFY2(messages(s).find("bit error rates taken") == std::string::npos, messages(s).c_str());
    }

    void ratesAloneNeedATopologyThenJoinTheLatest() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const std::string file = kData + "/ibdiagnet-net-dump-ext/ibdiagnet2.net_dump_ext";
        auto s = ImportRunner(store, registry).run({file}, {});
        QVERIFY(s.anyFailed());
        QVERIFY2(messages(s).find("bit error rates need a topology") != std::string::npos, messages(s).c_str());
        QVERIFY(store.info().imports.empty());  // nothing half-written

        s = ImportRunner(store, registry).run({kData + "/ibdiagnet2-run/ibdiagnet2.ibnetdiscover"}, {});
        QVERIFY(!s.anyFailed());
        s = ImportRunner(store, registry).run({file}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(store.snapshots().size(), std::size_t{1});  // joined the stored one, no new snapshot
        QCOMPARE(loadPortBer(store, store.latestSnapshot()->id).size(), std::size_t{9});
    }

    void aStoreBeforeSchema16ReadsNoRates() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("old.sqlite")).toStdString();
        {
            Store s(path);
            ImporterRegistry registry;
            QVERIFY(!ImportRunner(s, registry).run({runFolder(dir).toStdString()}, {}).anyFailed());
            sqlite3_exec(s.handle(), "DROP TABLE port_ber; PRAGMA user_version=15;", nullptr, nullptr, nullptr);
        }
        const Store old(path, Store::Mode::ReadOnly);  // as analyze and the GUI open it: no migration
        QCOMPARE(old.schemaVersion(), 15);
        QVERIFY(loadPortBer(old, old.latestSnapshot()->id).empty());
        QVERIFY(errorsReceivedAt(analyze(old, {}, AnalysisConfig{}), kNode2, "1").empty());
    }

    // What a user runs: import the folder, analyze --json, and the report's error table.
    void cliAndReportNameTheLink() {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("s.sqlite"));
        auto r = runCli({QStringLiteral("import"), QStringLiteral("--db"), store, runFolder(dir)});
        QVERIFY2(r.code == 0, r.err.constData());
        r = runCli({QStringLiteral("analyze"), QStringLiteral("--db"), store, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray findings = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("findings")).toArray();
        int ber = 0;
        for (const auto& v : findings) {
            const QJsonObject f = v.toObject();
            if (f.value(QStringLiteral("kind")).toString() != QStringLiteral("error_link")) continue;
            const QJsonObject m = f.value(QStringLiteral("metrics")).toObject();
            if (!m.contains(QStringLiteral("effective_ber"))) continue;
            ++ber;
            if (f.value(QStringLiteral("ports")).toArray().at(0).toObject().value(QStringLiteral("guid")).toString() == QString::fromStdString(kNode2)) {
                QCOMPARE(f.value(QStringLiteral("severity")).toString(), QStringLiteral("critical"));
                QCOMPARE(m.value(QStringLiteral("effective_ber")).toDouble(), 3.2e-10);
                QCOMPARE(m.value(QStringLiteral("fec_mode")).toString(), QStringLiteral("RS_FEC_544_514"));
            }
        }
        QCOMPARE(ber, 2);

        const QString csv = dir.filePath(QStringLiteral("report.csv"));
        r = runCli({QStringLiteral("report"), QStringLiteral("--db"), store, QStringLiteral("--out"), csv});
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains(QStringLiteral("Bit error rate (threshold)")), qPrintable(text.left(2000)));
        QVERIFY2(text.contains(QStringLiteral("3.2e-10 (1e-12)")), qPrintable(text.left(4000)));
        QVERIFY2(text.contains(QStringLiteral("2.5e-12 (1e-12)")), qPrintable(text.left(4000)));
        // The check is said to have run, with what it found, beside the modules.
        QVERIFY2(text.contains(QStringLiteral("Ports with bit error rates read (ibdiagnet2.net_dump_ext),9")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Above the bit error rate threshold (in Erroring links),2")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("RS_FEC_544_514 on 7 ports, MLNX_RS_271_257_PLR on 2")), qPrintable(text));
    }


    // Two runs compared: a port above the threshold in the bad run is new there; against a good
    // run that read no rates (ibdiagnet without --get_phy_info) it is said to be unmeasured there.
    void compareTellsAnUnmeasuredGoodRun() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.sqlite")), unread = dir.filePath(QStringLiteral("unread.sqlite")),
                      healthy = dir.filePath(QStringLiteral("healthy.sqlite"));
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), bad, runFolder(dir)}).code, 0);
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), unread, QString::fromStdString(kData + "/ibdiagnet2-run/ibdiagnet2.db_csv")}).code, 0);
        const QString healthyRun = dir.filePath(QStringLiteral("healthy"));
        QDir().mkpath(healthyRun);
        QVERIFY(QFile::copy(QString::fromStdString(kData + "/ibdiagnet2-run/ibdiagnet2.db_csv"), healthyRun + QStringLiteral("/ibdiagnet2.db_csv")));
        std::ofstream(healthyRun.toStdString() + "/ibdiagnet2.net_dump_ext")
            << replaceAll(replaceAll(readData(kRel), "3.2e-10 ", "1.5e-254"), "2.5e-12 ", "1.5e-254");
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), healthy, healthyRun}).code, 0);

        auto r = runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), healthy, QStringLiteral("--bad-db"), bad});
        QVERIFY2(r.code == 0, r.err.constData());
        QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QStringLiteral("new in the bad run: node-2 mlx5_0 p1 <- MF0;sw-mgmt:MQM9700/U1 p2: bit error rate after FEC 3.2e-10")),
                 qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("read no bit error rates")), qPrintable(out));

        r = runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), unread, QStringLiteral("--bad-db"), bad});
        QVERIFY2(r.code == 0, r.err.constData());
        out = QString::fromUtf8(r.out);
        QCOMPARE(out.count(QStringLiteral("(the good run read no bit error rates)")), 2);

        // A good run whose net_dump_ext holds its ports but no rate (no port's PHY read) read none either.
        const QString blankRun = dir.filePath(QStringLiteral("blank"));
        QDir().mkpath(blankRun);
        QVERIFY(QFile::copy(QString::fromStdString(kData + "/ibdiagnet2-run/ibdiagnet2.db_csv"), blankRun + QStringLiteral("/ibdiagnet2.db_csv")));
        const std::string blankText = withoutRates(readData(kRel));
        QVERIFY(parse(blankText).ber.size() == parse(readData(kRel)).ber.size());  // every port still read
        for (const PortBer& b : parse(blankText).ber) QVERIFY(!b.hasRates());
        std::ofstream(blankRun.toStdString() + "/ibdiagnet2.net_dump_ext") << blankText;
        const QString blank = dir.filePath(QStringLiteral("blank.sqlite"));
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), blank, blankRun}).code, 0);
        r = runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), blank, QStringLiteral("--bad-db"), bad});
        QVERIFY2(r.code == 0, r.err.constData());
        out = QString::fromUtf8(r.out);
        QCOMPARE(out.count(QStringLiteral("(the good run read no bit error rates)")), 2);
    }
};

QTEST_GUILESS_MAIN(TestIbIbdiagnetBer)
#include "tst_ib_ibdiagnet_ber.moc"
