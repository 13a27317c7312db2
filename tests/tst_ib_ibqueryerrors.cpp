// ibqueryerrors captured with ibsim: the error report after PerformanceSet, and --counters.
#include "ib_test_util.h"
#include "importers/ibqueryerrors_importer.h"
#include "importers/registry.h"

using namespace fabscope;
using namespace ibtest;

namespace {

CounterImport iqe(const std::string& text, const std::string& topology = {}) {
    return importCounters(IbqueryerrorsImporter(), text, "ibqueryerrors.txt", 1700000000, topology);
}

} // namespace

class TestIbIbqueryerrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void errorReportAfterPerformanceSet() {
        const auto r = iqe(readData("ibsim/ibqueryerrors-errors.txt"), readData("ibsim/ibnetdiscover.txt"));
        // leaf03 port 1: XmitWait 1000; port 4: SymbolError 17, LinkDowned 2, RcvErrors 5; "port ALL" skipped.
        QCOMPARE(r.rows, std::int64_t{4});
        QCOMPARE(r.series("0x200004", "4", "symbol_errors")->values, std::vector<double>{17});
        QCOMPARE(r.series("0x200004", "4", "link_downed")->values, std::vector<double>{2});
        QCOMPARE(r.series("0x200004", "4", "rcv_errors")->values, std::vector<double>{5});
        QCOMPARE(r.series("0x200004", "1", "xmit_wait")->values, std::vector<double>{1000});
        QCOMPARE(r.store->info().unmappedSeries, std::size_t{0});
        QVERIFY(r.warnings.empty());
    }

    void dataCountersOfEveryPort() {
        const auto r = iqe(readData("ibsim/ibqueryerrors-counters.txt"), readData("ibsim/ibnetdiscover.txt"));
        QCOMPARE(r.rows, std::int64_t{448});  // 56 ports x 8 data counters
        // Node GUIDs (gpu008 is node 0x10000e), data in 4-byte words: 2016 words = 7.875 KB.
        QCOMPARE(r.series("0x10000e", "1", "xmit_bytes")->values, std::vector<double>{8064});
        QCOMPARE(r.store->info().unmappedSeries, std::size_t{0});
    }

    void snapshotsAndNoise() {
        const std::string port4 = "   GUID 0x200004 port 4: [SymbolErrorCounter == 17]\n";
        const auto r = iqe("1700000000\nErrors for 0x200004 \"leaf03\"\n" + port4 + "user@host:~$ ibqueryerrors\n1700000060\n" +
                           "Errors for 0x200004 \"leaf03\"\n   GUID 0x200004 port 4: [SymbolErrorCounter == 30]\n");
        QCOMPARE(r.series("0x200004", "4", "symbol_errors")->values, (std::vector<double>{17, 30}));
        QCOMPARE(r.warnings.size(), std::size_t{1});
        QCOMPARE(r.warnings.front().line, std::int64_t{4});
    }

    void brokenAndEmpty() {
        try {
            iqe("Errors for 0x200004 \"leaf03\"\n   GUID 0x200004 port x: [SymbolErrorCounter == 17]\n");
            QFAIL("a bad port must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{2});
        }
        // A clean fabric without --counters prints only the summary: said clearly, nothing written.
        QVERIFY_THROWS_EXCEPTION(ImportError, iqe("\n## Summary: 14 nodes checked, 0 bad nodes found\n"));
    }

    void detectedAsIbqueryerrors() {
        ImporterRegistry reg;
        for (const char* f : {"ibsim/ibqueryerrors-errors.txt", "ibsim/ibqueryerrors-counters.txt"}) {
            const auto* imp = reg.detect(readData(QString::fromLatin1(f)).substr(0, 16384));
            QVERIFY2(imp && imp->name() == "ibqueryerrors", f);
        }
        QCOMPARE(IbqueryerrorsImporter().detect(readData("ibsim/perfquery-series.txt")), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbIbqueryerrors)
#include "tst_ib_ibqueryerrors.moc"
