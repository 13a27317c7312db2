#pragma once
// File > Import from Prometheus…: asks with the PrometheusPullDialog, then runs the pull on a
// worker thread (its own Store connection) behind a progress dialog with Cancel, and reports
// the outcome like a file import. MainWindow only wires the result to its docks.
#include "core/diagnostics.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

class QWidget;

namespace fabscope {

struct PullOptions;

class PrometheusPullJob : public QObject {
    Q_OBJECT
public:
    explicit PrometheusPullJob(QWidget* parent);
    // Shows the dialog; on Import, pulls into `storePath` (asks for a new store when empty).
    void askAndRun(const QString& storePath);
    void run(const QString& storePath, const PullOptions& options);
    [[nodiscard]] bool busy() const { return busy_; }

Q_SIGNALS:
    void finished(const QString& storePath, bool ok, const QString& message, const std::vector<fabscope::Diagnostic>& diagnostics);

private:
    QWidget* parent_;
    bool busy_ = false;
};

} // namespace fabscope
