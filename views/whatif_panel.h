#pragma once
// The Prediction dock of what-if (issue #22): runs whatIf (core/whatif/whatif.h) on its
// BackgroundJob over the store's window, with a progress dialog and Cancel, then lists what the
// change is predicted to do: the links it touches, those turning hot first (p95 before → after,
// Δ in percentage points), the hosts cut off, and each job's slowdown (x) and GPU-hours at risk.
// A click on a link row emits linkActivated; the window selects and frames it. Like compare mode
// the panel owns the mode: entered() when a prediction lands, left() on Leave prediction (Esc),
// back() shows the same prediction again (leaving is undoable).
#include "core/analysis/analysis_config.h"
#include "views/whatif_colouring.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTableWidget;

namespace fabscope {

class BackgroundJob;
class JobProgress;

struct WhatIfRequest {
    std::string store;
    std::optional<double> from, to;  // the analysis window; none: the store's span
    std::vector<WhatIfChange> changes;
    QString what;  // "what if leaf01:20 fails"
};

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    enum LinkColumn { Link, Utilisation, Delta, Hot, LinkColumnCount };
    enum JobColumn { Job, Ranks, Slowdown, GpuHours, Worst, JobColumnCount };
    explicit WhatIfPanel(QWidget* parent = nullptr);
    ~WhatIfPanel() override;

    void run(const WhatIfRequest& request, const AnalysisConfig& config);
    [[nodiscard]] bool active() const { return active_; }
    [[nodiscard]] std::shared_ptr<const WhatIfResult> result() const { return result_; }
    [[nodiscard]] QTableWidget* linksTable() const { return links_; }
    [[nodiscard]] QTableWidget* jobsTable() const { return jobs_; }
    [[nodiscard]] QString banner() const;
    [[nodiscard]] QString hostsText() const;  // "Hosts cut off: none" or their names
    [[nodiscard]] BackgroundJob* job() const { return job_; }

public Q_SLOTS:
    void leave();  // back to the normal colouring; the prediction is kept for back()
    void back();   // the last prediction again
    void clear();  // another store was opened: the prediction no longer applies

Q_SIGNALS:
    void entered(std::shared_ptr<const fabscope::WhatIfResult> result);
    void left();
    void linkActivated(const std::vector<fabscope::PortRef>& ports);
    void finished(bool ok, const QString& message);  // a run landed, failed or was cancelled

private:
    void show(std::shared_ptr<const WhatIfResult> result);
    void fill();
    void updateState();
    void cancelRun();

    BackgroundJob* job_ = nullptr;
    QLabel* banner_ = nullptr;
    QLabel* hosts_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* leave_ = nullptr;
    QPushButton* back_ = nullptr;
    QTableWidget* links_ = nullptr;
    QTableWidget* jobs_ = nullptr;
    JobProgress* progress_ = nullptr;
    std::shared_ptr<const WhatIfResult> result_;
    bool active_ = false;
};

} // namespace fabscope
