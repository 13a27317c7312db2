// perfquery / perfquery -x: treydock's real per-switch captures and the ibsim time series.
#include "ib_test_util.h"
#include "importers/import_runner.h"
#include "importers/perfquery_importer.h"
#include "importers/registry.h"

#include <QTemporaryDir>

using namespace fabscope;
using namespace ibtest;

namespace {

CounterImport perf(const std::string& text, const std::string& file = "capture.txt", const std::string& topology = {}) {
    return importCounters(PerfqueryImporter(), text, file, 1700000000, topology);
}

std::int64_t ms(double s) { return static_cast<std::int64_t>(s * 1000); }

} // namespace

class TestIbPerfquery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void extendedCountersOfASwitchNamedByItsGuid() {
        const auto r = perf(readData("perfquery/0x7cfe9003009ce5b0.out"), "perfquery/0x7cfe9003009ce5b0.out");
        // Two port blocks of 22 counters each (PortSelect/CounterSelect are not counters).
        QCOMPARE(r.rows, std::int64_t{44});
        QVERIFY(r.warnings.empty());
        const auto xmit = r.series("0x7cfe9003009ce5b0", "1", "xmit_bytes");
        QVERIFY(xmit);
        QCOMPARE(xmit->values, std::vector<double>{36298026860928.0 * 4});  // words -> bytes
        QCOMPARE(xmit->timesMs, std::vector<std::int64_t>{ms(1700000000)});  // no time line: the mtime
        QCOMPARE(r.series("0x7cfe9003009ce5b0", "2", "xmit_wait")->values, std::vector<double>{36510964});
        QCOMPARE(r.series("0x7cfe9003009ce5b0", "2", "rcv_pkts")->values, std::vector<double>{93660802641});
        // Fields without a canonical name are kept under a snake_case name.
        QVERIFY(r.series("0x7cfe9003009ce5b0", "1", "port_multicast_rcv_pkts"));
        QVERIFY(r.series("0x7cfe9003009ce5b0", "1", "qp1_dropped"));
    }

    void errorCountersOfARealSwitch() {
        // Starts with a blank line; LinkDowned 1, XmitDiscards 20046, SwitchRelay 7.
        const auto r = perf(readData("perfquery/0x506b4b03005c2740.out"), "0x506b4b03005c2740.out");
        QCOMPARE(r.rows, std::int64_t{22});
        QCOMPARE(r.series("0x506b4b03005c2740", "1", "link_downed")->values, std::vector<double>{1});
        QCOMPARE(r.series("0x506b4b03005c2740", "1", "xmit_discards")->values, std::vector<double>{20046});
        QCOMPARE(r.series("0x506b4b03005c2740", "1", "port_rcv_switch_relay_errors")->values, std::vector<double>{7});
    }

    void receiveErrorDetails() {
        const auto r = perf(readData("perfquery/rcv-error/0x7cfe9003009ce5b0-1.out"), "rcv-error/0x7cfe9003009ce5b0-1.out");
        QCOMPARE(r.rows, std::int64_t{6});
        QVERIFY(r.series("0x7cfe9003009ce5b0", "1", "port_malformed_pkt_errors"));
        QVERIFY(r.series("0x7cfe9003009ce5b0", "1", "port_dlid_mapping_errors"));
    }

    void emptyFileIsAClearError() {
        try {
            perf(readData("perfquery/0x506b4b0300cc02a6.out"), "0x506b4b0300cc02a6.out");
            QFAIL("an empty capture must not import silently");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().file, std::string("0x506b4b0300cc02a6.out"));
            QVERIFY(e.diagnostic().message.find("no perfquery port block") != std::string::npos);
        }
    }

    void directoryOfPerSwitchFilesThroughTheRunner() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto summary = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/perfquery"}, {});
        // Four files with blocks, five receive-error files, and the empty file that says so.
        QCOMPARE(summary.count(FileStatus::Imported), std::size_t{9});
        QCOMPARE(summary.count(FileStatus::Failed), std::size_t{1});
        for (const auto& f : summary.files)
            if (f.status == FileStatus::Imported) QCOMPARE(f.format, std::string("perfquery"));
        const auto failed = std::find_if(summary.diagnostics.begin(), summary.diagnostics.end(),
                                         [](const Diagnostic& d) { return d.severity == Severity::Error; });
        QVERIFY(failed->file.ends_with("0x506b4b0300cc02a6.out"));
        QCOMPARE(failed->message, std::string("empty file"));
        // No topology: the switches are unmapped series, counted by info.
        QVERIFY(store.info().unmappedSeries > 0);
    }

    void ibsimSeriesMappedByLidThroughTheTopology() {
        const auto r = perf(readData("ibsim/perfquery-x-series.txt"), "perfquery-x-series.txt", readData("ibsim/ibnetdiscover.txt"));
        QCOMPARE(r.rows, std::int64_t{64});  // 4 ports x 8 counters x 2 snapshots
        QVERIFY(r.warnings.empty());
        QCOMPARE(r.store->info().unmappedSeries, std::size_t{0});
        // Lid 7 is leaf03 (0x200004), Lid 1 is spine01 (0x200000).
        const auto up = r.series("0x200004", "1", "xmit_bytes");
        QVERIFY(up);
        QCOMPARE(up->timesMs, (std::vector<std::int64_t>{ms(1796050453), ms(1796050457)}));
        QCOMPARE(up->values, (std::vector<double>{11160.0 * 4, 12024.0 * 4}));
        QCOMPARE(r.series("0x200000", "3", "rcv_bytes")->values, (std::vector<double>{11520.0 * 4, 12384.0 * 4}));
    }

    void ibsimErrorsSetThroughPerformanceSet() {
        const auto r = perf(readData("ibsim/perfquery-series.txt"), "perfquery-series.txt", readData("ibsim/ibnetdiscover.txt"));
        QCOMPARE(r.rows, std::int64_t{144});  // 4 ports x 18 counters x 2 snapshots
        QCOMPARE(r.series("0x200004", "4", "symbol_errors")->values, (std::vector<double>{0, 17}));
        QCOMPARE(r.series("0x200004", "4", "link_downed")->values, (std::vector<double>{0, 2}));
        QCOMPARE(r.series("0x200004", "4", "rcv_errors")->values, (std::vector<double>{0, 5}));
        QCOMPARE(r.series("0x200004", "1", "xmit_wait")->values, (std::vector<double>{0, 1000}));
        // The 32-bit PortXmitData stuck at 2^32-1 words is stored raw (x4) for the rate code to flag.
        QCOMPARE(r.series("0x200004", "1", "xmit_bytes")->values.back(), 4294967295.0 * 4);
    }

    void withoutTopologyLidsAreUnmappedAndSaySo() {
        const auto r = perf(readData("ibsim/perfquery-x-series.txt"));
        QVERIFY(r.series("lid:7", "1", "xmit_bytes"));
        QVERIFY(r.warned("LID 7 cannot be mapped: no topology imported yet"));
        QCOMPARE(r.store->info().unmappedSeries, std::size_t{32});  // 4 ports x 8 counters
    }

    void basicAndExtendedOfOnePortKeepThe64BitValue() {
        const auto basic = readData("ibsim/perfquery-series.txt");
        const auto ext = readData("ibsim/perfquery-x-series.txt");
        // First snapshot of each, concatenated under one time line.
        const auto cut = [](const std::string& s) { return s.substr(0, s.find("\n1796050457")); };
        const auto r = perf(cut(basic) + "\n" + cut(ext).substr(cut(ext).find('\n') + 1), "mixed.txt", readData("ibsim/ibnetdiscover.txt"));
        QCOMPARE(r.series("0x200000", "3", "xmit_bytes")->values, std::vector<double>{11520.0 * 4});  // -x, not 11952
        QVERIFY(r.warnings.empty());
    }

    void timeLinesIsoFormatBackwardsAndRepeats() {
        const std::string block = "# Port counters: Lid 7 port 4 (CapMask: 0x1300)\nSymbolErrorCounter:..............3\n";
        auto r = perf("2023-11-14T22:13:30+00:00\n" + block + "1700000000\n" + block + "1699999000\n" + block);
        QCOMPARE(r.series("lid:7", "4", "symbol_errors")->timesMs,
                 (std::vector<std::int64_t>{ms(1699999000), ms(1700000000), ms(1700000010)}));
        QVERIFY(r.warned("capture time goes backwards"));
        // The same port twice with no time line between: one sample, the later block, and a warning.
        r = perf(block + "# Port counters: Lid 7 port 4 (CapMask: 0x1300)\nSymbolErrorCounter:..............9\n");
        QCOMPARE(r.series("lid:7", "4", "symbol_errors")->values, std::vector<double>{9});
        QVERIFY(r.warned("appears twice in one snapshot"));
    }

    void terminalNoiseIsWarnedWithLineNumbers() {
        const auto r = perf("user@login01:~$ perfquery 7 4\n# Port counters: Lid 7 port 4 (CapMask: 0x1300)\n"
                            "SymbolErrorCounter:..............N/A\nLinkDownedCounter:...............2\nuser@login01:~$ \n");
        QCOMPARE(r.rows, std::int64_t{1});
        QCOMPARE(r.warnings.size(), std::size_t{4});  // prompt, LID unmapped, N/A value, prompt
        QCOMPARE(r.warnings[0].line, std::int64_t{1});
        QCOMPARE(r.warnings[2].line, std::int64_t{3});
        QCOMPARE(r.warnings[3].line, std::int64_t{5});
    }

    void brokenInputFailsWithFileAndLine() {
        const auto expect = [](const std::string& text, std::int64_t line, const char* words) {
            try {
                perf(text, "bad.txt");
                QFAIL("expected an import error");
            } catch (const ImportError& e) {
                QCOMPARE(e.diagnostic().line, line);
                QVERIFY2(e.diagnostic().format().starts_with("bad.txt:"), e.diagnostic().format().c_str());
                QVERIFY2(e.diagnostic().message.find(words) != std::string::npos, e.diagnostic().message.c_str());
            }
        };
        expect("SymbolErrorCounter:..............3\n", 1, "before any");
        expect("1700000000\n# Port counters: Lid seven port 4\nSymbolErrorCounter:.....3\n", 2, "without 'Lid N port P'");
        expect(std::string("# Port counters: Lid 7 port 4\0", 30), 0, "NUL");
    }

    void detectedAsPerfqueryOnly() {
        ImporterRegistry reg;
        for (const char* f : {"perfquery/0x7cfe9003009ce5b0.out", "perfquery/0x506b4b03005c2740.out",
                              "perfquery/rcv-error/0x7cfe9003009ce5b0-1.out", "ibsim/perfquery-x-series.txt",
                              "ibsim/perfquery-series.txt"}) {
            const auto* imp = reg.detect(readData(QString::fromLatin1(f)).substr(0, 16384));
            QVERIFY2(imp && imp->name() == "perfquery", f);
        }
        QCOMPARE(PerfqueryImporter().detect(readData("ibsim/ibnetdiscover.txt")), 0);
        QCOMPARE(PerfqueryImporter().detect("timestamp,node,port,counter,value\n"), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbPerfquery)
#include "tst_ib_perfquery.moc"
