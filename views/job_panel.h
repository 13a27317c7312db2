#pragma once
// The job dock (View > Job routes): the store's jobs as the last analysis routed them, each
// job's pairs worst headroom first. Choosing a job or a pair emits the overlay to draw: every
// route of the job, the pair's route in order, its bottleneck hop; the first pair is the
// straggler when the job has one. The Ranks tab lists where each rank runs (its host's port and
// the switch port cabled to it); choosing one frames its host link among the job's routes.
// Both tables sort by any column and share one filter (rank, host, port...), for jobs of
// thousands of ranks. Reads only the analysis result (FindingsReport::jobs).
#include "views/finding_focus.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QTableView;
class QTabWidget;

namespace fabscope {

struct FindingsReport;
struct JobRoutes;
struct StoreSnapshot;
class JobPairsModel;
class JobRanksModel;
class JobTableProxy;

class JobPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobPanel(QWidget* parent = nullptr);
    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    void setReport(std::shared_ptr<const FindingsReport> report);
    [[nodiscard]] QTableView* pairs() const { return pairs_; }
    [[nodiscard]] QTableView* ranks() const { return ranks_; }
    [[nodiscard]] QTabWidget* tabs() const { return tabs_; }
    [[nodiscard]] QComboBox* jobs() const { return jobBox_; }
    [[nodiscard]] QLineEdit* filter() const { return filter_; }
    // The overlay of the current job with its current pair (the worst when none is chosen).
    [[nodiscard]] FindingFocus currentFocus() const;

Q_SIGNALS:
    // A pair was chosen (click, Enter): draw `focus` and frame its nodes.
    void pairActivated(const fabscope::FindingFocus& focus);
    // A rank was chosen: draw `focus` (its host link among the job's routes) and frame its node.
    void rankActivated(const fabscope::FindingFocus& focus);

private:
    void showJob(int index);
    void showCounts();
    void activateRank(const QModelIndex& proxyIndex);
    [[nodiscard]] const JobRoutes* currentJob() const;

    std::shared_ptr<const StoreSnapshot> snapshot_;
    std::shared_ptr<const FindingsReport> report_;
    QComboBox* jobBox_ = nullptr;
    QLabel* info_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QTableView* pairs_ = nullptr;
    QTableView* ranks_ = nullptr;
    JobPairsModel* pairsModel_ = nullptr;
    JobRanksModel* ranksModel_ = nullptr;
    JobTableProxy* pairsProxy_ = nullptr;
    JobTableProxy* ranksProxy_ = nullptr;
};

} // namespace fabscope
