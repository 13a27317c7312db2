#include "views/analysis_controller.h"

#include "core/analysis/analyze.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace fabscope {
namespace {

struct Outcome {
    std::shared_ptr<const FindingsReport> report;
    QString error;
};

} // namespace

AnalysisController::AnalysisController(QObject* parent) : QObject(parent) { setObjectName(QStringLiteral("analysisController")); }

void AnalysisController::run(const QString& storePath, std::optional<TimeRange> window) {
    const int generation = ++generation_;
    running_ = true;
    Q_EMIT started();
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != generation_) return;  // stale: a newer run is under way
        running_ = false;
        const Outcome o = watcher->result();
        if (o.report) Q_EMIT finished(o.report);
        else Q_EMIT failed(o.error);
    });
    AnalysisWindow w;
    if (window) w.from = window->start, w.to = window->end;
    watcher->setFuture(QtConcurrent::run([path = storePath.toStdString(), w]() -> Outcome {
        try {
            Store store(path, Store::Mode::ReadOnly);
            return {std::make_shared<const FindingsReport>(analyze(store, w, AnalysisConfig{})), {}};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromUtf8(e.what())};
        }
    }));
}

} // namespace fabscope
