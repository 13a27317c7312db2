#include "views/report_export.h"

#include "core/report/report_data.h"
#include "core/report/report_writer.h"
#include "core/store/store.h"

#include "views/background_job.h"

#include <QFileDialog>
#include <QProgressDialog>

namespace fabscope {
namespace {

struct ExportOutcome {
    bool ok = false;
    QString message;
};

} // namespace

ReportExporter::ReportExporter(QWidget* dialogParent)
    : QObject(dialogParent), parent_(dialogParent), job_(new BackgroundJob(QStringLiteral("reportJob"), this)) {
    setObjectName(QStringLiteral("reportExporter"));
    connect(job_, &BackgroundJob::progress, this,
            [this](double fraction, const QString& stage) { Q_EMIT progress(static_cast<int>(fraction * 100), stage); });
}

bool ReportExporter::isRunning() const { return job_->busy(); }

void ReportExporter::chooseAndExport(const QString& storePath, std::optional<TimeRange> window) {
    if (storePath.isEmpty()) {
        Q_EMIT finished(false, tr("Open a store first."));
        return;
    }
    QString out = preset_;
    preset_.clear();
    if (out.isEmpty())
        out = QFileDialog::getSaveFileName(parent_, tr("Export report"), QStringLiteral("fabscope-report.html"),
                                           tr("HTML (*.html);;PDF (*.pdf);;CSV (*.csv);;JSON (*.json)"));
    if (!out.isEmpty()) exportTo(storePath, out, window);
}

void ReportExporter::exportTo(const QString& storePath, const QString& out, std::optional<TimeRange> window) {
    const auto format = reportFormatFor(out.toStdString());
    if (!format) {
        Q_EMIT finished(false, tr("A report file ends in .html, .pdf, .csv or .json: %1").arg(out));
        return;
    }
    if (dialog_) dialog_->deleteLater();  // the export under way is superseded: its result is dropped
    auto* dialog = new QProgressDialog(tr("Exporting the report…"), tr("Cancel"), 0, 100, parent_);
    dialog_ = dialog;
    dialog->setObjectName(QStringLiteral("reportProgress"));
    dialog->setAccessibleName(tr("Report export progress"));
    dialog->setWindowModality(Qt::NonModal);
    dialog->setMinimumDuration(300);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    connect(dialog, &QProgressDialog::canceled, job_, &BackgroundJob::cancel);
    connect(this, &ReportExporter::progress, dialog, [dialog](int percent, const QString& stage) {
        dialog->setValue(percent);
        dialog->setLabelText(stage);
    });
    auto deliver = [this, dialog](const ExportOutcome& r) {
        dialog->deleteLater();
        Q_EMIT finished(r.ok, r.message);
    };
    job_->run(
        [store = storePath.toStdString(), path = out, window, f = *format, config = config_, findings = findings_](const JobToken& token) -> ExportOutcome {
            try {
                token.progress(0.05, tr("Opening the store…"));
                const Store s(store, Store::Mode::ReadOnly);
                ReportOptions options;
                if (window) options.window = AnalysisWindow{window->start, window->end};
                options.config = config;
                options.findings = findings;
                options.cancel = token.flag();
                // The building's stages between 15 % and 80 % of the bar.
                options.progress = [&token](double fraction, const std::string& stage) {
                    token.progress(0.15 + 0.65 * fraction, QString::fromStdString(stage));
                };
                std::optional<ReportData> data;
                try {
                    data.emplace(buildReportData(s, options));
                } catch (const AnalysisCancelled&) {
                }
                if (token.cancelled()) return {false, tr("Export cancelled; nothing was written.")};
                token.progress(0.80, tr("Writing %1…").arg(path));
                writeReport(*data, f, path.toStdString());
                token.progress(1.0, tr("Done."));
                return {true, path};
            } catch (const std::exception& e) {
                return {false, tr("Cannot export the report: %1").arg(QString::fromUtf8(e.what()))};
            }
        },
        deliver);
}

} // namespace fabscope
