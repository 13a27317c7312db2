#include "views/report_export.h"

#include "core/report/report_data.h"
#include "core/report/report_writer.h"
#include "core/store/store.h"

#include <QApplication>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QPointer>
#include <QProgressDialog>
#include <QtConcurrent/QtConcurrentRun>

namespace fabscope {
namespace {

struct ExportOutcome {
    bool ok = false;
    bool cancelled = false;
    QString message;
};

} // namespace

ReportExporter::ReportExporter(QWidget* dialogParent) : QObject(dialogParent), parent_(dialogParent) {
    setObjectName(QStringLiteral("reportExporter"));
}

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
    if (running_ && cancel_) cancel_->store(true);  // the newer export wins
    running_ = true;
    const int generation = ++generation_;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = cancel_;

    auto* dialog = new QProgressDialog(tr("Exporting the report…"), tr("Cancel"), 0, 100, parent_);
    dialog->setObjectName(QStringLiteral("reportProgress"));
    dialog->setAccessibleName(tr("Report export progress"));
    dialog->setWindowModality(Qt::NonModal);
    dialog->setMinimumDuration(300);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    connect(dialog, &QProgressDialog::canceled, this, [cancel] { cancel->store(true); });
    connect(this, &ReportExporter::progress, dialog, [dialog](int percent, const QString& stage) {
        dialog->setValue(percent);
        dialog->setLabelText(stage);
    });

    QPointer<ReportExporter> self(this);
    auto stage = [self, generation](int percent, const QString& text) {
        QMetaObject::invokeMethod(qApp, [self, generation, percent, text] {
            if (self && self->generation_ == generation) Q_EMIT self->progress(percent, text);
        });
    };
    auto* watcher = new QFutureWatcher<ExportOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, dialog, generation] {
        watcher->deleteLater();
        dialog->deleteLater();
        if (generation != generation_) return;  // superseded by a newer export
        running_ = false;
        const ExportOutcome r = watcher->result();
        Q_EMIT finished(r.ok, r.message);
    });
    watcher->setFuture(QtConcurrent::run([store = storePath.toStdString(), path = out, window, f = *format, cancel, stage, config = config_, findings = findings_]() -> ExportOutcome {
        try {
            stage(5, tr("Opening the store…"));
            const Store s(store, Store::Mode::ReadOnly);
            ReportOptions options;
            if (window) options.window = AnalysisWindow{window->start, window->end};
            options.config = config;
            options.findings = findings;
            options.cancel = cancel.get();
            stage(15, tr("Analysing and summarising the fabric…"));
            std::optional<ReportData> data;
            try {
                data.emplace(buildReportData(s, options));
            } catch (const AnalysisCancelled&) {
                cancel->store(true);
            }
            if (cancel->load()) return {false, true, tr("Export cancelled; nothing was written.")};
            stage(80, tr("Writing %1…").arg(path));
            writeReport(*data, f, path.toStdString());
            stage(100, tr("Done."));
            return {true, false, path};
        } catch (const std::exception& e) {
            return {false, false, tr("Cannot export the report: %1").arg(QString::fromUtf8(e.what()))};
        }
    }));
}

} // namespace fabscope
