#include "app/prometheus_pull_job.h"

#include "importers/remote/prometheus_pull.h"
#include "views/prometheus_pull_dialog.h"

#include <QApplication>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QtConcurrent/QtConcurrentRun>

namespace fabscope {
namespace {

struct PullOutcome {
    bool ok = false;
    QString message;
    std::vector<Diagnostic> diagnostics;
};

PullOutcome describe(const ImportSummary& s) {
    QStringList lines;
    for (const auto& d : s.diagnostics) lines << QString::fromStdString(d.format());
    if (s.cancelled) return {false, QObject::tr("Pull cancelled; the store is unchanged."), s.diagnostics};
    const QString head = s.count(FileStatus::AlreadyImported) ? QObject::tr("This pull is already in the store: nothing to do.")
                         : s.anyFailed()                       ? QObject::tr("The pull failed; the store is unchanged.")
                                                               : QObject::tr("Pulled %1 samples.").arg(s.files.empty() ? 0 : s.files.front().rows);
    if (s.anyFailed()) return {false, head + QStringLiteral("\n\n") + lines.join(QLatin1Char('\n')), s.diagnostics};
    return {true, head, s.diagnostics};
}

} // namespace

PrometheusPullJob::PrometheusPullJob(QWidget* parent) : QObject(parent), parent_(parent) {}

void PrometheusPullJob::askAndRun(const QString& storePath) {
    if (busy_) return;
    PrometheusPullDialog dialog(parent_);
    if (dialog.exec() != QDialog::Accepted) return;
    PullOptions o;
    o.url = dialog.url().toStdString();
    o.from = static_cast<double>(dialog.from().toSecsSinceEpoch());
    o.to = static_cast<double>(dialog.to().toSecsSinceEpoch());
    o.step = dialog.stepSeconds();
    for (const QString& s : dialog.selectors()) o.selectors.push_back(s.toStdString());
    QString store = storePath;
    if (store.isEmpty())
        store = QFileDialog::getSaveFileName(parent_, tr("Create a store for the import"), QStringLiteral("fabric.sqlite"),
                                             tr("FabScope stores (*.sqlite)"));
    if (!store.isEmpty()) run(store, o);
}

void PrometheusPullJob::run(const QString& storePath, const PullOptions& options) {
    busy_ = true;
    auto* progress = new QProgressDialog(tr("Pulling from %1…").arg(QString::fromStdString(options.url)), tr("Cancel"), 0, 1000, parent_);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    connect(progress, &QProgressDialog::canceled, this, [cancel] { cancel->store(true); });

    auto* watcher = new QFutureWatcher<PullOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, progress, storePath] {
        watcher->deleteLater();
        progress->deleteLater();
        busy_ = false;
        const PullOutcome r = watcher->result();
        if (!r.ok) {
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Import from Prometheus"), r.message, QMessageBox::Ok, parent_);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        Q_EMIT finished(storePath, r.ok, r.message.section(QLatin1Char('\n'), 0, 0), r.diagnostics);
    });
    // The network waits and the store writes happen on the worker; the GUI thread only paints.
    QPointer<QProgressDialog> guard(progress);
    watcher->setFuture(QtConcurrent::run([store = storePath.toStdString(), options, cancel, guard]() -> PullOutcome {
        try {
            Store s(store);
            return describe(pullPrometheus(s, options, [cancel, guard](double f) {
                QMetaObject::invokeMethod(qApp, [guard, f] {
                    if (guard) guard->setValue(static_cast<int>(f * 1000));
                });
                return !cancel->load();
            }));
        } catch (const std::exception& e) {
            return {false, QString::fromUtf8(e.what()), {}};
        }
    }));
}

} // namespace fabscope
