#pragma once
// Runs the analysis of a store off the GUI thread on a BackgroundJob: a newer run cancels the one
// under way (core's analyze() stops between detectors) and a stale result is never delivered.
#include "core/analysis/analysis_config.h"
#include "core/time_range.h"
#include "views/background_job.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <utility>

namespace fabscope {

struct FindingsReport;

class AnalysisController : public QObject {
    Q_OBJECT
public:
    explicit AnalysisController(QObject* parent = nullptr);
    [[nodiscard]] int generation() const { return job_->generation(); }
    // Runs that stopped early because a newer run superseded them.
    [[nodiscard]] int cancelledRuns() const { return job_->cancelledRuns(); }
    [[nodiscard]] BackgroundJob* job() const { return job_; }
    // The thresholds every later run uses (the GUI's copy of the shared analysis config).
    void setConfig(const AnalysisConfig& config) { config_ = config; }
    [[nodiscard]] const AnalysisConfig& config() const { return config_; }

public Q_SLOTS:
    // Analyses `storePath` over `window` (the whole sample span when empty).
    void run(const QString& storePath, std::optional<fabscope::TimeRange> window);
    // As run(), unless the latest run asked was of this store and window: a store's load resets the
    // time selection right after its first run was asked, and a second run would reset the
    // findings list (the user's selected finding with it) for the same result.
    void runIfNew(const QString& storePath, std::optional<fabscope::TimeRange> window);

Q_SIGNALS:
    void started();
    void finished(std::shared_ptr<const fabscope::FindingsReport> report);
    void failed(const QString& message);
    void cancelled(int generation);  // a superseded run stopped early

private:
    AnalysisConfig config_;
    BackgroundJob* job_;
    std::optional<std::pair<QString, std::optional<TimeRange>>> latest_;  // the latest run asked
};

} // namespace fabscope
