#pragma once
// Runs the analysis of a store off the GUI thread (docs/ARCHITECTURE.md, conventions). Every run carries a generation id;
// a result that arrives after a newer run started is dropped.
#include "core/time_range.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace fabscope {

struct FindingsReport;

class AnalysisController : public QObject {
    Q_OBJECT
public:
    explicit AnalysisController(QObject* parent = nullptr);
    [[nodiscard]] bool isRunning() const { return running_; }
    [[nodiscard]] int generation() const { return generation_; }

public Q_SLOTS:
    // Analyses `storePath` over `window` (the whole sample span when empty).
    void run(const QString& storePath, std::optional<fabscope::TimeRange> window);

Q_SIGNALS:
    void started();
    void finished(std::shared_ptr<const fabscope::FindingsReport> report);
    void failed(const QString& message);

private:
    int generation_ = 0;
    bool running_ = false;
};

} // namespace fabscope
