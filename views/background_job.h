#pragma once
// The one way the GUI runs work off its thread (docs/ARCHITECTURE.md, "Background work"), in the
// manner of hotspot's job tracker. A BackgroundJob is one kind of work a window or view runs
// (an analysis, an import, a panel load, a heatmap image). Every run gets:
//   - a generation: a result of a run that a newer run superseded is dropped, never delivered;
//   - a cancel token the core work takes (JobToken::flag() for analyze(), cancelled() for a
//     progress callback); a newer run cancels the one under way (Policy::Replace);
//   - progress, delivered on the GUI thread for the current run only;
//   - a busy state (busy(), busyChanged) for guards such as "one import at a time".
// Policy::Coalesce is for redraws: one run at a time; a request while busy waits, the latest
// only, and the running one's result is dropped when it lands.
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace fabscope {

class BackgroundJob;

// What the work running on a pool thread may use: its cancel flag and a progress reporter.
class JobToken {
public:
    JobToken(std::shared_ptr<std::atomic<bool>> flag, int generation, QPointer<BackgroundJob> job)
        : flag_(std::move(flag)), generation_(generation), job_(std::move(job)) {}
    [[nodiscard]] bool cancelled() const { return flag_->load(); }
    [[nodiscard]] const std::atomic<bool>* flag() const { return flag_.get(); }
    [[nodiscard]] int generation() const { return generation_; }
    // Thread-safe: queued to the GUI thread, emitted there if this run is still the current one.
    void progress(double fraction, const QString& text = {}) const;

private:
    std::shared_ptr<std::atomic<bool>> flag_;
    int generation_;
    QPointer<BackgroundJob> job_;
};

// The threads every BackgroundJob runs on: its own pool, not Qt's global one, which Qt's raster
// painting waits on (drawing a progress bar while an import and a reader blocked on the
// import's lock held both global threads froze the window until the import ended).
QThreadPool* jobPool();

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    enum class Policy { Replace, Coalesce };
    explicit BackgroundJob(const QString& name, QObject* parent, Policy policy = Policy::Replace);

    // Runs `work(token)` on the thread pool. `done(result)` runs on the GUI thread if no newer
    // run started meanwhile; `failed(message)` instead when the work threw. A run that threw
    // after its token was cancelled stopped early: cancelled(generation) is emitted instead.
    // Returns the run's generation.
    template <typename Work, typename Done>
    int run(Work work, Done done, std::function<void(const QString&)> failed = {});

    // Sets the cancel flag of the run under way (its result is still delivered if it returns).
    void cancel();
    // Makes every run under way stale: none of their results will be delivered.
    void drop();
    [[nodiscard]] bool busy() const { return inFlight_ > 0; }
    [[nodiscard]] int generation() const { return generation_; }
    [[nodiscard]] int cancelledRuns() const { return cancelledRuns_; }  // runs that stopped early
    [[nodiscard]] int droppedResults() const { return droppedResults_; }  // stale results not delivered

Q_SIGNALS:
    void busyChanged(bool busy);
    void progress(double fraction, const QString& text);
    void cancelled(int generation);

private:
    friend class JobToken;
    template <typename R>
    struct Outcome {
        std::optional<R> value;
        QString error;
        bool stoppedEarly = false;  // threw after its token was cancelled
    };
    int begin();                    // a new generation and cancel flag; cancels the old run
    void started();                 // busy bookkeeping
    bool landed(int generation, bool stoppedEarly);  // true: deliver; starts a pending coalesced run
    void reportProgress(int generation, double fraction, const QString& text);

    Policy policy_;
    int generation_ = 0;
    int inFlight_ = 0;
    int cancelledRuns_ = 0;
    int droppedResults_ = 0;
    std::shared_ptr<std::atomic<bool>> flag_;
    std::function<void()> pending_;  // Coalesce: the latest request made while busy
};

template <typename Work, typename Done>
int BackgroundJob::run(Work work, Done done, std::function<void(const QString&)> failed) {
    using R = std::invoke_result_t<Work&, const JobToken&>;
    const int generation = begin();
    JobToken token(flag_, generation, this);
    auto start = [this, generation, token, work = std::move(work), done = std::move(done), failed = std::move(failed)]() mutable {
        started();
        auto* watcher = new QFutureWatcher<Outcome<R>>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, generation, done = std::move(done), failed = std::move(failed)]() mutable {
                    watcher->deleteLater();
                    Outcome<R> o = watcher->result();
                    if (!landed(generation, o.stoppedEarly)) return;
                    if (o.value) done(std::move(*o.value));
                    else if (failed) failed(o.error);
                });
        watcher->setFuture(QtConcurrent::run(jobPool(), [work = std::move(work), token]() mutable -> Outcome<R> {
            try {
                return {work(token), {}};
            } catch (const std::exception& e) {
                return {std::nullopt, QString::fromUtf8(e.what()), token.cancelled()};
            }
        }));
    };
    if (policy_ == Policy::Coalesce && busy()) pending_ = std::move(start);
    else start();
    return generation;
}

} // namespace fabscope
