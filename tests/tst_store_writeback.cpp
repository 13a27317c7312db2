// A bulk import writes its pages into the store's file while it inserts, and asks the kernel to
// start writing them (core/store/early_writeback.h), so the commit's fsync does not write the
// whole import at once. What an engineer relies on: the import's samples are all there after
// the commit, a rolled-back import leaves nothing behind, and the work reached the file early.
#include "core/store/early_writeback.h"
#include "core/store/sample_writer.h"
#include "core/store/store.h"

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <QtTest>

using namespace fabscope;

class TestStoreWriteback : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void startsWritebackEveryFewBytes() {
        const std::string path = dir_.filePath(QStringLiteral("some.file")).toStdString();
        std::ofstream(path) << "pages";
        EarlyWriteback wb(path, 1000);
        wb.wrote(999);
        QCOMPARE(wb.started(), 0);
        wb.wrote(1);
        QCOMPARE(wb.started(), 1);
        wb.wrote(2500);  // one request covers all that is dirty, however far past the mark
        QCOMPARE(wb.started(), 2);
        wb.wrote(999);
        QCOMPARE(wb.started(), 2);
    }

    void aFileThatCannotBeOpenedIsLeftAlone() {
        EarlyWriteback wb(dir_.filePath(QStringLiteral("missing/store.sqlite")).toStdString(), 10);
        wb.wrote(100);
        QCOMPARE(wb.started(), 0);
    }

    // 1,200 series of 1,000 samples (~10 MB of chunks): more than the import's page cache holds,
    // so most pages are in the file before the commit. Rolled back, the store is as it was;
    // committed, every sample is there.
    void aBulkImportReachesTheFileBeforeItCommits() {
        const std::string path = dir_.filePath(QStringLiteral("bulk.sqlite")).toStdString();
        Store store(path);
        const auto before = std::filesystem::file_size(path);
        writeBulk(store, path, before, false);
        {
            const Store reader(path, Store::Mode::ReadOnly);
            QCOMPARE(reader.info().samples, std::size_t{0});
            QCOMPARE(reader.info().series, std::size_t{0});
        }
        writeBulk(store, path, std::filesystem::file_size(path), true);
        const Store reader(path, Store::Mode::ReadOnly);
        const StoreInfo info = reader.info();
        QCOMPARE(info.series, std::size_t{kSeries});
        QCOMPARE(info.samples, std::size_t{kSeries} * kSamples);
        const auto series = reader.series();
        QCOMPARE(series.size(), std::size_t{kSeries});
        const SeriesData last = reader.loadSeries(series.back().id);
        QCOMPARE(last.values.size(), std::size_t{kSamples});
        QCOMPARE(last.timesMs.back(), std::int64_t{1767225600000} + (kSamples - 1) * 1000);
        QCOMPARE(last.values.back(), 1e9 * (kSamples - 1) + 0.5 * (kSeries - 1) + 0.25);
    }

private:
    static constexpr int kSeries = 1200, kSamples = 1000;

    static void writeBulk(Store& store, const std::string& path, std::uintmax_t before, bool commit) {
        Store::Transaction tx(store);
        SampleWriter writer(store);
        const CounterInfo xmit = *canonicalCounter("xmit_bytes");
        std::vector<std::vector<SampleWriter::TimedValue>> lists(kSeries);
        std::vector<SampleWriter::SeriesRun> runs;
        for (int s = 0; s < kSeries; ++s) {
            const auto h = writer.series("switch" + std::to_string(s / 32), std::to_string(s % 32 + 1), xmit);
            for (int i = 0; i < kSamples; ++i)  // fractional: stored as raw doubles, 8 bytes each
                lists[s].push_back({std::int64_t{1767225600000} + i * 1000, 1e9 * i + 0.5 * s + 0.25});
            runs.push_back({h, lists[s]});
        }
        writer.addRuns(runs);
        const auto during = std::filesystem::file_size(path);
        QVERIFY2(during > before + (std::uintmax_t{4} << 20),
                 qPrintable(QStringLiteral("file %1 -> %2 bytes before the commit").arg(before).arg(during)));
        if (commit) tx.commit();
    }
};

QTEST_GUILESS_MAIN(TestStoreWriteback)
#include "tst_store_writeback.moc"
