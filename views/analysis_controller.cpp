#include "views/analysis_controller.h"

#include "core/analysis/analyze.h"

namespace fabscope {

AnalysisController::AnalysisController(QObject* parent)
    : QObject(parent), job_(new BackgroundJob(QStringLiteral("analysisJob"), this)) {
    setObjectName(QStringLiteral("analysisController"));
    connect(job_, &BackgroundJob::cancelled, this, &AnalysisController::cancelled);
}

void AnalysisController::runIfNew(const QString& storePath, std::optional<TimeRange> window) {
    if (latest_ && latest_->first == storePath && latest_->second == window) return;
    run(storePath, window);
}

void AnalysisController::run(const QString& storePath, std::optional<TimeRange> window) {
    latest_.emplace(storePath, window);
    AnalysisWindow w;
    if (window) w.from = window->start, w.to = window->end;
    Q_EMIT started();
    job_->run(
        [path = storePath.toStdString(), w, config = config_](const JobToken& token) {
            Store store(path, Store::Mode::ReadOnly);
            return std::make_shared<const FindingsReport>(analyze(store, w, config, token.flag()));
        },
        [this](std::shared_ptr<const FindingsReport> report) { Q_EMIT finished(std::move(report)); },
        [this](const QString& error) { Q_EMIT failed(error); });
}

} // namespace fabscope
