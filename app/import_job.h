#pragma once
// Every import the GUI starts (files dropped or chosen, a Prometheus pull) runs through one
// ImportJob: one import at a time (busy() guards the menu actions and drops), a progress dialog
// with Cancel fed by the BackgroundJob's progress, and one outcome type. The worker opens its
// own Store connection; MainWindow only wires the outcome to its docks and reopens the store.
#include "core/diagnostics.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

class QWidget;

namespace fabscope {

class BackgroundJob;
struct PullOptions;

struct ImportOutcome {
    bool ok = false;
    QString message;  // first line: the summary; then the diagnostics of a failed import
    std::vector<Diagnostic> diagnostics;
};

class ImportJob : public QObject {
    Q_OBJECT
public:
    explicit ImportJob(QWidget* parent);
    [[nodiscard]] bool busy() const;
    // Imports files and folders into `storePath`; `format` names the importer, empty detects it.
    void importFiles(const QString& storePath, const QStringList& files, const QString& format = {});
    // Shows the pull dialog; on Import, pulls into `storePath` (asks for a new store when empty).
    void askAndPull(const QString& storePath);
    void pull(const QString& storePath, const PullOptions& options);

Q_SIGNALS:
    void finished(const QString& storePath, const fabscope::ImportOutcome& outcome);

private:
    template <typename Work>
    void start(const QString& storePath, const QString& label, Work work);

    QWidget* parent_;
    BackgroundJob* job_;
};

} // namespace fabscope
