// perfquery and perfquery -x of the same ports in one capture directory (the ibsim captures were
// taken with the same `date +%s` lines): one sample per counter and time, the 64-bit value kept.
#include "ib_test_util.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <set>

using namespace fabscope;
using namespace ibtest;

class TestIbPerfqueryDuplicates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void basicAndExtendedFilesOfOneSnapshot() {
        ImporterRegistry registry;
        Store store(":memory:");
        ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ibsim/ibnetdiscover.txt"}, {});
        const auto s = ImportRunner(store, registry).run(
            {FABSCOPE_TEST_DATA "/ibsim/perfquery-series.txt", FABSCOPE_TEST_DATA "/ibsim/perfquery-x-series.txt"}, {});
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{2});
        std::size_t checked = 0;
        for (const auto& series : store.series()) {
            const auto d = store.loadSeries(series.id);
            const std::set<std::int64_t> unique(d.timesMs.begin(), d.timesMs.end());
            QVERIFY2(unique.size() == d.timesMs.size(),
                     (series.nodeRef + " p" + series.port + " " + series.counter + ": a timestamp holds two samples").c_str());
            ++checked;
        }
        QVERIFY(checked > 0);
        QVERIFY(std::any_of(s.diagnostics.begin(), s.diagnostics.end(), [](const Diagnostic& d) {
            return d.file.ends_with("perfquery-x-series.txt") && d.message.find("one kept per time, the 64-bit value") != std::string::npos;
        }));
        // leaf03 (LID 7) port 1 in the second snapshot: the basic PortXmitData is stuck at 2^32-1,
        // the extended one is not; the stored sample is the extended value (4-byte words x 4).
        const std::string x = readData("ibsim/perfquery-x-series.txt");
        const auto block = x.find("Lid 7 port 1 ", x.find("Lid 7 port 1 ") + 1);
        const auto field = x.find("PortXmitData:", block);
        const auto value = std::stod(x.substr(x.find_first_not_of('.', field + 13), 24));
        QVERIFY(x.substr(0, block).rfind("1796050457") != std::string::npos);  // the block belongs to the second time line
        const auto xmit = [&] {
            for (const auto& series : store.series())
                if (series.nodeRef == "0x200004" && series.port == "1" && series.counter == "xmit_bytes") return store.loadSeries(series.id);
            return SeriesData{};
        }();
        const auto at = std::find(xmit.timesMs.begin(), xmit.timesMs.end(), std::int64_t{1796050457000});
        QVERIFY(at != xmit.timesMs.end());
        QCOMPARE(xmit.values[static_cast<std::size_t>(at - xmit.timesMs.begin())], 4 * value);
        QVERIFY(4 * value != 4.0 * 4294967295.0);
    }
};

QTEST_GUILESS_MAIN(TestIbPerfqueryDuplicates)
#include "tst_ib_perfquery_duplicates.moc"
