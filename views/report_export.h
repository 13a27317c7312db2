#pragma once
// File > Export report…: asks for a file name (or takes a preset one: the test hook), builds the
// report of the store over the current time window on a worker (docs/ARCHITECTURE.md, conventions) and writes it in the
// format its extension names (HTML, PDF, CSV, JSON; core/report/report_writer.h), with a progress
// dialog. Cancel drops the result before anything is written.
#include "core/analysis/analysis_config.h"
#include "core/time_range.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>
#include <optional>

class QProgressDialog;
class QWidget;

namespace fabscope {

class BackgroundJob;
struct FindingsReport;

class ReportExporter : public QObject {
    Q_OBJECT
public:
    explicit ReportExporter(QWidget* dialogParent);
    // Test hook: the next export writes here instead of asking with a file dialog.
    void setPresetPath(const QString& path) { preset_ = path; }
    [[nodiscard]] bool isRunning() const;
    // The thresholds of the GUI's analysis, and its findings on screen: an export over their
    // window reuses them, so the report says what the window shows.
    void setAnalysis(const AnalysisConfig& config, std::shared_ptr<const FindingsReport> findings) {
        config_ = config;
        findings_ = std::move(findings);
    }

public Q_SLOTS:
    // Asks for the output file, then exports.
    void chooseAndExport(const QString& storePath, std::optional<fabscope::TimeRange> window);
    void exportTo(const QString& storePath, const QString& out, std::optional<fabscope::TimeRange> window);

Q_SIGNALS:
    void progress(int percent, const QString& stage);
    // ok: `message` is the written path; else why it failed.
    void finished(bool ok, const QString& message);

private:
    QWidget* parent_;
    QString preset_;
    BackgroundJob* job_;                // a newer export cancels and supersedes the one under way
    QPointer<QProgressDialog> dialog_;  // of the export under way
    AnalysisConfig config_;
    std::shared_ptr<const FindingsReport> findings_;
};

} // namespace fabscope
