#include "views/analysis_controller.h"

#include "core/analysis/analyze.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace fabscope {
namespace {

struct Outcome {
    std::shared_ptr<const FindingsReport> report;
    QString error;
    bool cancelled = false;
};

} // namespace

AnalysisController::AnalysisController(QObject* parent) : QObject(parent) { setObjectName(QStringLiteral("analysisController")); }

void AnalysisController::run(const QString& storePath, std::optional<TimeRange> window) {
    const int generation = ++generation_;
    if (cancel_) cancel_->store(true);  // the run under way is stale: let it stop early
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    Q_EMIT started();
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        const Outcome o = watcher->result();
        if (o.cancelled) {
            ++cancelledRuns_;
            Q_EMIT cancelled(generation);
        }
        if (generation != generation_ || o.cancelled) return;  // stale: a newer run is under way
        if (o.report) Q_EMIT finished(o.report);
        else Q_EMIT failed(o.error);
    });
    AnalysisWindow w;
    if (window) w.from = window->start, w.to = window->end;
    watcher->setFuture(QtConcurrent::run([path = storePath.toStdString(), w, config = config_, cancel = cancel_]() -> Outcome {
        try {
            Store store(path, Store::Mode::ReadOnly);
            return {std::make_shared<const FindingsReport>(analyze(store, w, config, cancel.get())), {}, false};
        } catch (const AnalysisCancelled&) {
            return {nullptr, {}, true};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromUtf8(e.what()), false};
        }
    }));
}

} // namespace fabscope
