#pragma once
// The job dock (View > Job routes): the store's jobs as the last analysis routed them, each
// job's pairs worst headroom first. Choosing a job or a pair emits the overlay to draw: every
// route of the job, the pair's route in order, its bottleneck hop; the first pair is the
// straggler when the job has one. Reads only the analysis result (FindingsReport::jobs).
#include "views/finding_focus.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTableWidget;

namespace fabscope {

struct FindingsReport;
struct StoreSnapshot;

class JobPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobPanel(QWidget* parent = nullptr);
    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    void setReport(std::shared_ptr<const FindingsReport> report);
    [[nodiscard]] QTableWidget* pairs() const { return pairs_; }
    [[nodiscard]] QComboBox* jobs() const { return jobBox_; }
    // The overlay of the current job with its current pair (the worst when none is chosen).
    [[nodiscard]] FindingFocus currentFocus() const;

Q_SIGNALS:
    // A pair was chosen (click, Enter): draw `focus` and frame its nodes.
    void pairActivated(const fabscope::FindingFocus& focus);

private:
    void showJob(int index);

    std::shared_ptr<const StoreSnapshot> snapshot_;
    std::shared_ptr<const FindingsReport> report_;
    QComboBox* jobBox_ = nullptr;
    QLabel* info_ = nullptr;
    QTableWidget* pairs_ = nullptr;
};

} // namespace fabscope
