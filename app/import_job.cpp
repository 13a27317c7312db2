#include "app/import_job.h"

#include "importers/import_runner.h"
#include "importers/remote/prometheus_pull.h"
#include "views/background_job.h"
#include "views/prometheus_pull_dialog.h"

#include <QFileDialog>
#include <QProgressDialog>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

namespace fabscope {
namespace {

QStringList lines(const ImportSummary& s) {
    QStringList out;
    for (const auto& d : s.diagnostics) out << QString::fromStdString(d.format());
    return out;
}

ImportOutcome describeFiles(const ImportSummary& s) {
    if (s.cancelled) {
        // What the Cancel left: the files stored before it stay, the rest are named to import again.
        QStringList left;
        for (const auto& f : s.files)
            if (f.status == FileStatus::Cancelled) left << QString::fromStdString(f.file);
        QString text = QObject::tr("Import cancelled: %1 imported before the Cancel are kept, %2 not imported.")
                           .arg(s.count(FileStatus::Imported))
                           .arg(left.size());
        constexpr qsizetype kListed = 20;  // a folder of thousands: the Import diagnostics dock lists them all
        const qsizetype more = left.size() - std::min(left.size(), kListed);
        if (more > 0) left = left.mid(0, kListed) << QObject::tr("… and %1 more (see Import diagnostics)").arg(more);
        if (!left.isEmpty()) text += QStringLiteral("\n\n") + QObject::tr("Not imported:") + QLatin1Char('\n') + left.join(QLatin1Char('\n'));
        return {false, text, s.diagnostics};
    }
    const QString head = QObject::tr("%1 imported, %2 already in the store, %3 skipped (not needed), %4 failed")
                             .arg(s.count(FileStatus::Imported))
                             .arg(s.count(FileStatus::AlreadyImported))
                             .arg(s.count(FileStatus::Skipped))
                             .arg(s.count(FileStatus::Failed));
    if (s.anyFailed()) return {false, head + QStringLiteral("\n\n") + lines(s).join(QLatin1Char('\n')), s.diagnostics};
    return {true, head, s.diagnostics};
}

ImportOutcome describePull(const ImportSummary& s) {
    if (s.cancelled) return {false, QObject::tr("Pull cancelled; the store is unchanged."), s.diagnostics};
    const QString head = s.count(FileStatus::AlreadyImported) ? QObject::tr("This pull is already in the store: nothing to do.")
                         : s.anyFailed()                       ? QObject::tr("The pull failed; the store is unchanged.")
                                                               : QObject::tr("Pulled %1 samples.").arg(s.files.empty() ? 0 : s.files.front().rows);
    if (s.anyFailed()) return {false, head + QStringLiteral("\n\n") + lines(s).join(QLatin1Char('\n')), s.diagnostics};
    return {true, head, s.diagnostics};
}

} // namespace

ImportJob::ImportJob(QWidget* parent)
    : QObject(parent), parent_(parent), job_(new BackgroundJob(QStringLiteral("importJob"), this)) {}

bool ImportJob::busy() const { return job_->busy(); }

template <typename Work>
void ImportJob::start(const QString& storePath, const QString& label, Work work) {
    auto* dialog = new QProgressDialog(label, tr("Cancel"), 0, 1000, parent_);
    dialog->setWindowModality(Qt::WindowModal);
    // Shown once the import has run 300 ms, and kept until it ends: the bar follows the parse,
    // and the rows are written after it (seconds for a large file), when QProgressDialog alone
    // would show nothing new (a parse under 300 ms) or have closed at its end.
    dialog->setMinimumDuration(std::numeric_limits<int>::max());
    dialog->setAutoReset(false);
    dialog->setAutoClose(false);
    auto* showLater = new QTimer(dialog);
    showLater->setSingleShot(true);
    connect(showLater, &QTimer::timeout, dialog, &QProgressDialog::show);
    showLater->start(300);
    connect(dialog, &QProgressDialog::canceled, job_, &BackgroundJob::cancel);
    connect(job_, &BackgroundJob::progress, dialog, [dialog](double f, const QString& text) {
        if (!text.isEmpty()) dialog->setLabelText(text);
        dialog->setValue(static_cast<int>(f * 1000));
    });
    auto finish = [this, dialog, showLater, storePath](ImportOutcome outcome) {
        // Stop the timers that would show the dialog before any nested message-box loop: a
        // dialog only deleteLater'd would pop up over the result and stay there.
        showLater->stop();
        dialog->reset();
        dialog->hide();
        dialog->deleteLater();
        Q_EMIT finished(storePath, outcome);
    };
    job_->run(
        [store = storePath.toStdString(), work = std::move(work)](const JobToken& token) {
            Store s(store);
            // The bar has 1,000 steps: a call that would not move it posts nothing to the GUI
            // thread (a large file's writing asks after every block of series).
            double shown = -1.0;
            const ProgressFn progress = [&token, &shown](double f) {
                if (std::abs(f - shown) >= 1e-3) {
                    shown = f;
                    token.progress(f);
                }
                return !token.cancelled();
            };
            // A new label (the file being read), at the bar's place.
            const auto say = [&token, &shown](const QString& text) { token.progress(std::max(shown, 0.0), text); };
            return work(s, progress, say);
        },
        finish, [finish](const QString& error) { finish({false, error, {}}); });
}

void ImportJob::importFiles(const QString& storePath, const QStringList& files, const QString& format) {
    if (busy()) return;
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.toStdString());
    ImportOptions options;
    options.format = format.toStdString();
    start(storePath, tr("Importing %n file(s)…", nullptr, static_cast<int>(files.size())),
          [paths, options](Store& s, const ProgressFn& progress, const auto& say) {
              // A folder (an ibdiagnet2 run's) holds many files: the dialog names the one being read.
              ImportOptions named = options;
              named.onFile = [&say](std::size_t number, std::size_t count, const std::string& path) {
                  say(tr("Importing file %1 of %2: %3…")
                          .arg(number)
                          .arg(count)
                          .arg(QString::fromStdString(std::filesystem::path(path).filename().string())));
              };
              ImporterRegistry registry;
              try {
                  return describeFiles(ImportRunner(s, registry).run(paths, named, progress));
              } catch (const std::invalid_argument& e) {  // an unknown format name
                  return ImportOutcome{false, QString::fromUtf8(e.what()), {}};
              }
          });
}

void ImportJob::askAndPull(const QString& storePath) {
    if (busy()) return;
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
    if (!store.isEmpty()) pull(store, o);
}

void ImportJob::pull(const QString& storePath, const PullOptions& options) {
    if (busy()) return;
    // The network waits and the store writes happen on the worker; the GUI thread only paints.
    start(storePath, tr("Pulling from %1…").arg(QString::fromStdString(options.url)),
          [options](Store& s, const ProgressFn& progress, const auto&) { return describePull(pullPrometheus(s, options, progress)); });
}

} // namespace fabscope
