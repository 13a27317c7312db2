// SONiC `show pfc counters` / pfcstat tables as counter series: the real excerpts pasted in
// sonic-buildimage / sonic-utilities threads (tests/data/roce/sonic) and captures written here in
// the same table shape (two snapshots, `date +%s` before each, thousands separators, `N/A` cells).
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "importers/sonic_pfc_importer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace fabscope;

namespace {

std::string readData(const char* name) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/roce/sonic/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

const char* kRule = "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n";

// One `show pfc counters` capture: Rx then Tx, Ethernet0 and Ethernet4; rx PFC3 of Ethernet4 = rx3.
std::string capture(long t, const std::string& rx3, const std::string& tx3) {
    return std::to_string(t) + "\nadmin@leaf01:~$ show pfc counters\nLast cached time was 2024-05-01 10:00:00.123456\n"
           "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + kRule +
           "  Ethernet0       0       0       0       7       0       0       0     N/A\n"
           "  Ethernet4       0       0       0  " + rx3 + "       0       0       0     N/A\n\n"
           "    Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + kRule +
           "  Ethernet0       0       0       0       0       0       0       0     N/A\n"
           "  Ethernet4       0       0       0  " + tx3 + "       0       0       0     N/A\n\n";
}

const char* kPfcwd =
    "admin@leaf01:~$ show pfcwd stats\n"
    "      QUEUE       STATUS    STORM DETECTED/RESTORED    TX OK/DROP    RX OK/DROP    TX LAST OK/DROP    RX LAST OK/DROP\n"
    "-----------  -----------  -------------------------  ------------  ------------  -----------------  -----------------\n"
    "Ethernet4:3  operational                        2/2       0/56035  14053/371184                0/0        8634/316045\n\n";

bool hasWarning(const std::vector<Diagnostic>& ds, const char* text) {
    return std::any_of(ds.begin(), ds.end(), [text](const Diagnostic& d) {
        return d.severity == Severity::Warning && QString::fromStdString(d.message).contains(QLatin1String(text));
    });
}

} // namespace

class TestRoceSonic : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(capture(1700000000, "1,234", "5"))->name(), std::string_view("sonic-pfc"));
        QCOMPARE(reg.detect(readData("real-switch-excerpts.txt"))->name(), std::string_view("sonic-pfc"));
        SonicPfcImporter imp;
        QCOMPARE(imp.detect("1700000000\n$ ethtool -S eth0\nNIC statistics:\n     rx_prio3_pause: 4\n"), 0);
        QCOMPARE(imp.detect("# Port counters: Lid 1 port 1 (CapMask: 0x5300)\nPortXmitData:....5\n"), 0);
        QCOMPARE(imp.detect("time,node,port,counter,value\n1,a,1,xmit_bytes,2\n"), 0);
        // a pfcwd-only file is claimed weakly, so its parse error names the missing table
        QVERIFY(imp.detect(kPfcwd) > 0 && imp.detect(kPfcwd) < 40);
    }

    void twoSnapshotsSeparatorsAndNA() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("leaf01.pfc.txt")).toStdString();
        std::ofstream(file) << capture(1700000000, "1,234", "15,437") << kPfcwd
                            << capture(1700000060, "1,234,567", "15,500");
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({file}, {});
        QVERIFY(!sum.anyFailed());
        // 2 snapshots x 2 tables x 2 ports x 7 priorities (PFC7 is N/A everywhere)
        QCOMPARE(sum.files[0].rows, std::int64_t{2 * 2 * 2 * 7});
        QVERIFY(hasWarning(sum.diagnostics, "8 `N/A` cell(s) skipped"));
        QVERIFY(hasWarning(sum.diagnostics, "1 `show pfcwd stats` table(s) ignored"));
        bool sawRx = false, sawTx = false;
        for (const auto& s : store.series()) {
            QCOMPARE(s.nodeRef, std::string("leaf01"));
            QVERIFY(s.counter != "pfc_rx_pause_prio7" && s.counter != "pfc_tx_pause_prio7");
            if (s.port != "Ethernet4") continue;
            const auto d = store.loadSeries(s.id);
            if (s.counter == "pfc_rx_pause_prio3") {
                QCOMPARE(d.timesMs, (std::vector<std::int64_t>{1700000000000, 1700000060000}));
                QCOMPARE(d.values, (std::vector<double>{1234, 1234567}));
                QCOMPARE(s.unit, std::string("frames"));
                sawRx = true;
            }
            if (s.counter == "pfc_tx_pause_prio3") {
                QCOMPARE(d.values, (std::vector<double>{15437, 15500}));
                sawTx = true;
            }
        }
        QVERIFY(sawRx && sawTx);
    }

    void nodeLineAndMtime() {
        SonicPfcImporter imp;
        Store store(":memory:");
        SampleWriter w(store);
        DiagnosticSink diag("dir/capture.txt");
        std::string body = capture(0, "3", "4");
        body = "# node: spine01\n" + body.substr(body.find('\n') + 1);  // no time line
        QCOMPARE(imp.parse({"dir/capture.txt", body, 1690000000.0, nullptr}, w, diag, {}), std::int64_t{28});
        w.flush();
        QVERIFY(hasWarning(diag.items(), "mtime"));
        for (const auto& s : store.series()) {
            QCOMPARE(s.nodeRef, std::string("spine01"));
            QCOMPARE(store.loadSeries(s.id).timesMs, std::vector<std::int64_t>{1690000000000});
        }
    }

    void brokenRowGivesLine() {
        SonicPfcImporter imp;
        Store store(":memory:");
        SampleWriter w(store);
        DiagnosticSink diag("sw.txt");
        std::string body = capture(1700000000, "12x", "4");  // line 7: Ethernet4's Rx row
        try {
            imp.parse({"sw.txt", body, 0, nullptr}, w, diag, {});
            QFAIL("expected an error");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().file, std::string("sw.txt"));
            QCOMPARE(e.diagnostic().line, std::int64_t{7});
            QVERIFY(QString::fromStdString(e.diagnostic().message).contains(QLatin1String("PFC3 of Ethernet4")));
        }
        // misplaced separator is not a count either
        try {
            imp.parse({"sw.txt", capture(1700000000, "12,34", "4"), 0, nullptr}, w, diag, {});
            QFAIL("expected an error");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{7});
        }
    }

    void realExcerptsStopAtTheTruncatedRow() {
        // The real excerpts end the first Tx table with a row cut by the issue thread (line 19).
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("sonic-10432.pfc.txt")).toStdString();
        std::ofstream(file) << readData("real-switch-excerpts.txt");
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({file}, {});
        QCOMPARE(sum.count(FileStatus::Failed), std::size_t{1});
        const auto err = std::find_if(sum.diagnostics.begin(), sum.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
        QVERIFY(err != sum.diagnostics.end());
        QCOMPARE(err->file, file);
        QCOMPARE(err->line, std::int64_t{19});
        QVERIFY(store.series().empty());  // a failed file leaves the store untouched

        // Without the cut row the rest reads: 6 Tx rows + 2 Tx rows after "Last cached time was".
        std::string body = readData("real-switch-excerpts.txt");
        const auto cut = body.find(" Ethernet12       0       0       0       0       0\n");
        QVERIFY(cut != std::string::npos);
        body.erase(cut, body.find('\n', cut) + 1 - cut);
        const auto note = body.find("[excerpt truncated in source corpus]\n");  // the corpus' note, not output
        QVERIFY(note != std::string::npos);
        body.erase(note, body.find('\n', note) + 1 - note);
        std::ofstream(file, std::ios::trunc) << "1700000000\n" << body;
        const auto sum2 = runner.run({file}, {});
        QVERIFY(!sum2.anyFailed());
        QCOMPARE(sum2.files[0].rows, std::int64_t{(6 + 2) * 8});
        QVERIFY(hasWarning(sum2.diagnostics, "3 `show pfcwd stats` table(s) ignored"));
        bool saw = false;
        for (const auto& s : store.series())
            if (s.port == "Ethernet6" && s.counter == "pfc_tx_pause_prio3") {
                QCOMPARE(s.nodeRef, std::string("sonic-10432"));
                QCOMPARE(store.loadSeries(s.id).values, std::vector<double>{15437});
                saw = true;
            }
        QVERIFY(saw);
    }
};

QTEST_GUILESS_MAIN(TestRoceSonic)
#include "tst_roce_sonic.moc"
