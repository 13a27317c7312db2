#include "views/background_job.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>

namespace fabscope {

void JobToken::progress(double fraction, const QString& text) const {
    QMetaObject::invokeMethod(qApp, [job = job_, generation = generation_, fraction, text] {
        if (job) job->reportProgress(generation, fraction, text);
    });
}

QThreadPool* jobPool() {
    // Owned by the application, so its threads are joined before QApplication goes; a later
    // application (a test's next) gets a new one.
    static QPointer<QThreadPool> pool;
    if (!pool) {
        pool = new QThreadPool(QCoreApplication::instance());
        pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    }
    return pool;
}

BackgroundJob::BackgroundJob(const QString& name, QObject* parent, Policy policy) : QObject(parent), policy_(policy) {
    setObjectName(name);
}

int BackgroundJob::begin() {
    if (flag_ && policy_ == Policy::Replace) flag_->store(true);  // the run under way is stale: let it stop early
    flag_ = std::make_shared<std::atomic<bool>>(false);
    return ++generation_;
}

void BackgroundJob::started() {
    if (inFlight_++ == 0) Q_EMIT busyChanged(true);
}

bool BackgroundJob::landed(int generation, bool stoppedEarly) {
    const bool current = generation == generation_;
    if (stoppedEarly) {
        ++cancelledRuns_;
        Q_EMIT cancelled(generation);
    } else if (!current) {
        ++droppedResults_;
    }
    if (pending_) {  // Coalesce: the latest request starts now; this result is stale anyway
        auto start = std::move(pending_);
        pending_ = nullptr;
        start();
    }
    if (--inFlight_ == 0) Q_EMIT busyChanged(false);
    return current && !stoppedEarly;
}

void BackgroundJob::cancel() {
    if (flag_) flag_->store(true);
}

void BackgroundJob::drop() {
    cancel();
    flag_ = std::make_shared<std::atomic<bool>>(false);
    ++generation_;
    pending_ = nullptr;
}

void BackgroundJob::reportProgress(int generation, double fraction, const QString& text) {
    if (generation == generation_) Q_EMIT progress(fraction, text);
}

} // namespace fabscope
