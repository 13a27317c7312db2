// The GUI's one job layer (views/background_job.h): a newer run cancels and supersedes the one
// under way, whose result never arrives; coalesced redraws run the latest request only; progress
// of a stale run is not shown; busy goes up and down once; a failure reaches the caller.
#include "views/background_job.h"

#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace fabscope;

namespace {

// Spins until the token is cancelled or `release` is set (10 s at most, so a broken cancel fails
// the test instead of hanging it); throws when cancelled, as core's analyze() does.
int waitFor(const JobToken& token, const std::atomic<bool>& release, int value) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!release.load() && std::chrono::steady_clock::now() < deadline) {
        if (token.cancelled()) throw std::runtime_error("stopped");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return value;
}

} // namespace

class TestBackgroundJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aNewerRunSupersedesAndCancelsTheOneUnderWay() {
        BackgroundJob job(QStringLiteral("t"), nullptr);
        QSignalSpy busy(&job, &BackgroundJob::busyChanged);
        QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
        std::atomic<bool> never{false}, release{false};
        QList<int> delivered;
        const int first = job.run([&](const JobToken& t) { return waitFor(t, never, 1); }, [&](int v) { delivered << v; });
        job.run([&](const JobToken& t) { return waitFor(t, release, 2); }, [&](int v) { delivered << v; });
        QVERIFY(job.busy());
        QTRY_COMPARE(cancelled.count(), 1);  // the first stopped early, without being released
        QCOMPARE(cancelled.front().front().toInt(), first);
        release = true;
        QTRY_VERIFY(!job.busy());
        QCOMPARE(delivered, QList<int>{2});
        QCOMPARE(job.cancelledRuns(), 1);
        QCOMPARE(busy.count(), 2);  // up once, down once
        QCOMPARE(busy.at(0).front().toBool(), true);
        QCOMPARE(busy.at(1).front().toBool(), false);
    }

    void aStaleResultThatDidNotStopIsDroppedNotDelivered() {
        BackgroundJob job(QStringLiteral("t"), nullptr);
        std::atomic<bool> release{false};
        QList<int> delivered;
        // This work ignores its token: it runs to its end, and its result is stale by then.
        job.run([&](const JobToken&) {
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return 1;
        },
                [&](int v) { delivered << v; });
        job.run([](const JobToken&) { return 2; }, [&](int v) { delivered << v; });
        QTRY_COMPARE(delivered, QList<int>{2});
        release = true;
        QTRY_VERIFY(!job.busy());
        QCOMPARE(delivered, QList<int>{2});
        QCOMPARE(job.droppedResults(), 1);
        QCOMPARE(job.cancelledRuns(), 0);
    }

    void coalescedRequestsRunTheLatestOnly() {
        BackgroundJob job(QStringLiteral("t"), nullptr, BackgroundJob::Policy::Coalesce);
        std::atomic<bool> release{false};
        std::atomic<int> started{0};
        QList<int> delivered;
        for (int i = 1; i <= 4; ++i)
            job.run([&, i](const JobToken&) {
                ++started;
                while (i == 1 && !release) std::this_thread::sleep_for(std::chrono::milliseconds(2));
                return i;
            },
                    [&](int v) { delivered << v; });
        QTRY_COMPARE(started.load(), 1);  // the others wait
        release = true;
        QTRY_VERIFY(!job.busy());
        QCOMPARE(started.load(), 2);  // the first and the latest; 2 and 3 never ran
        QCOMPARE(delivered, QList<int>{4});
    }

    void progressOfAStaleRunIsNotShown() {
        BackgroundJob job(QStringLiteral("t"), nullptr);
        QSignalSpy progress(&job, &BackgroundJob::progress);
        std::atomic<bool> reported{false}, release{false};
        job.run([&](const JobToken& t) {
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            t.progress(0.5, QStringLiteral("old"));  // after the newer run started
            reported = true;
            return 0;
        },
                [](int) {});
        job.run([](const JobToken& t) {
            t.progress(0.25, QStringLiteral("new"));
            return 0;
        },
                [](int) {});
        release = true;
        QTRY_VERIFY(reported.load());
        QTRY_VERIFY(!job.busy());
        QCoreApplication::processEvents();
        QCOMPARE(progress.count(), 1);
        QCOMPARE(progress.front().at(1).toString(), QStringLiteral("new"));
    }

    void aFailureReachesTheCallerWithItsMessage() {
        BackgroundJob job(QStringLiteral("t"), nullptr);
        QString error;
        bool done = false;
        job.run([](const JobToken&) -> int { throw std::runtime_error("disk I/O error"); }, [&](int) { done = true; },
                [&](const QString& e) { error = e; });
        QTRY_COMPARE(error, QStringLiteral("disk I/O error"));
        QVERIFY(!done);
        QCOMPARE(job.cancelledRuns(), 0);  // a failure is not a cancel
    }

    void dropMakesTheRunUnderWayStale() {
        BackgroundJob job(QStringLiteral("t"), nullptr);
        std::atomic<bool> release{false};
        bool delivered = false;
        job.run([&](const JobToken&) {
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return 1;
        },
                [&](int) { delivered = true; });
        job.drop();
        release = true;
        QTRY_VERIFY(!job.busy());
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestBackgroundJob)
#include "tst_background_job.moc"
