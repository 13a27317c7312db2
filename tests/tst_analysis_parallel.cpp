// A 32k-GPU store is scanned for hot links, and its link rates loaded for the views, on
// workerThreads() threads (core/analysis/hot_link.cpp, core/timeseries/link_series.cpp). The
// engineer must get what one thread gives: the k=48 fat tree with hot ports spread over every
// thread's blocks of links, read read-only (2 and 3 threads, FABSCOPE_THREADS) and read-write (one).
#include "core/analysis/analyze.h"
#include "core/analysis/context.h"
#include "core/analysis/detectors.h"
#include "core/demo_fabric.h"
#include "core/once_by_index.h"
#include "core/store/sample_writer.h"
#include "core/tiers.h"
#include "core/timeseries/link_series.h"
#include "core/worker_threads.h"

#include <QTemporaryDir>
#include <cmath>
#include <set>
#include <thread>
#include <QtTest>

using namespace fabscope;

class TestAnalysisParallel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static std::vector<std::string> summaries(const Store& s) {
        const StoreInfo info = s.info();
        const AnalysisContext ctx(s, *info.timeStart, *info.timeEnd, AnalysisConfig{});
        std::vector<Finding> found;
        detectHotLinks(ctx, found);
        std::vector<std::string> out;
        for (const auto& f : found) out.push_back(f.summary);
        return out;
    }

private Q_SLOTS:
    void manyThreadsFindWhatOneFinds() {
        const std::string path = dir_.filePath(QStringLiteral("large.sqlite")).toStdString();
        const Fabric fabric = demoFabric(DemoOptions::Scale::Large);
        QVERIFY(fabric.links.size() > 8192);
        // Hot transmitters on links in many 64-link blocks (even and odd), plus quiet ones.
        std::set<std::size_t> hotLinks;
        for (std::size_t l = 0; l < fabric.links.size(); l += 3 * 499) hotLinks.insert(l);
        for (std::size_t threads : {2, 3}) {
            std::set<std::size_t> shares;
            for (std::size_t l : hotLinks) shares.insert(l / 64 % threads);
            QCOMPARE(shares.size(), threads);  // every thread has hot links to find
        }
        {
            Store s(path);
            Store::Transaction tx(s);
            s.writeSnapshot(fabric, "large", 1700000000);
            SampleWriter w(s);
            const CounterInfo xmit = *canonicalCounter("xmit_bytes");
            for (std::size_t l = 0; l < fabric.links.size(); l += 499) {
                const Port& p = fabric.port(fabric.links[l].a);
                const auto h = w.series(fabric.node(p.node).guid, p.name, xmit);
                const double util = hotLinks.count(l) ? 0.95 : 0.2;
                const double bps = util * static_cast<double>(fabric.links[l].capacityBps);
                for (int i = 0; i < 20; ++i) w.add(h, (1700000000LL + 10 * i) * 1000, bps / 8 * 10 * i);
            }
            w.flush();
            s.recordImport("synthetic", "sha-parallel", "test", w.samples());
            tx.commit();
        }
        const Store readWrite(path);  // one thread
        const Store readOnly(path, Store::Mode::ReadOnly);  // workerThreads() threads
        QVERIFY(!readWrite.readOnly() && readOnly.readOnly());
        auto one = summaries(readWrite);
        QCOMPARE(one.size(), hotLinks.size());
        std::sort(one.begin(), one.end());
        const Fabric loaded = readOnly.loadFabric(readOnly.latestSnapshot()->id);
        const auto tiers = computeTiers(loaded);
        const auto serial = loadLinkTimeSeries(readWrite, 1, loaded, tiers);
        QVERIFY(serial.bins > 0);
        const auto sameCells = [](const std::vector<float>& x, const std::vector<float>& y) {
            return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), [](float a, float b) {
                       return (std::isnan(a) && std::isnan(b)) || a == b;
                   });
        };
        for (const char* threads : {"2", "3"}) {
            qputenv("FABSCOPE_THREADS", threads);
            QCOMPARE(workerThreads(), static_cast<std::size_t>(std::atoi(threads)));
            auto many = summaries(readOnly);
            std::sort(many.begin(), many.end());
            QCOMPARE(many, one);
            // The views' link rates: every cell the same, and the hot links at ~95%.
            const auto parallel = loadLinkTimeSeries(readOnly, 1, loaded, tiers);
            QCOMPARE(parallel.bins, serial.bins);
            QVERIFY(sameCells(parallel.utilUp, serial.utilUp) && sameCells(parallel.utilDown, serial.utilDown));
            QCOMPARE(parallel.upIsAtoB, serial.upIsAtoB);
            for (std::size_t l : hotLinks) QVERIFY2(std::abs(parallel.peak(LinkMetric::UtilMax, l) - 95.0f) < 0.5f, std::to_string(l).c_str());
        }
        qunsetenv("FABSCOPE_THREADS");

        // And the whole analysis, numbered and sorted, is the same list.
        const auto a = analyze(readWrite, {}, AnalysisConfig{}), b = analyze(readOnly, {}, AnalysisConfig{});
        QCOMPARE(a.findings.size(), b.findings.size());
        for (std::size_t i = 0; i < a.findings.size(); ++i) {
            QCOMPARE(b.findings[i].id, a.findings[i].id);
            QCOMPARE(b.findings[i].summary, a.findings[i].summary);
        }
    }

    // The what-if's caches (core/once_by_index.h) filled by threads asking for the same indices at
    // once: every thread gets the one kept value of an index, whole, and each index is made at
    // least once (a thread that lost the race made a copy that was dropped).
    void valuesMadeOnceAreSharedWhole() {
        constexpr std::size_t kIndices = 512, kThreads = 4;
        OnceByIndex<std::vector<std::size_t>> cache(kIndices);
        std::atomic<std::size_t> made{0};
        std::vector<std::vector<const std::vector<std::size_t>*>> seen(kThreads, std::vector<const std::vector<std::size_t>*>(kIndices));
        {
            std::vector<std::jthread> threads;
            for (std::size_t t = 0; t < kThreads; ++t)
                threads.emplace_back([&, t] {
                    for (std::size_t i = 0; i < kIndices; ++i)
                        seen[t][i] = &cache.get(i, [&] {
                            ++made;
                            return std::vector<std::size_t>(1000, i);
                        });
                });
        }
        QVERIFY(made >= kIndices);
        for (std::size_t i = 0; i < kIndices; ++i) {
            for (std::size_t t = 1; t < kThreads; ++t) QCOMPARE(seen[t][i], seen[0][i]);
            QCOMPARE(*seen[0][i], std::vector<std::size_t>(1000, i));
            QCOMPARE(&cache.get(i, [] { return std::vector<std::size_t>{}; }), seen[0][i]);  // kept, not made again
        }
    }
};

QTEST_GUILESS_MAIN(TestAnalysisParallel)
#include "tst_analysis_parallel.moc"
