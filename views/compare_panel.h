#pragma once
// The Changes dock of compare mode (issue #19): runs a comparison (File > Compare…) on its
// BackgroundJob with a progress dialog and Cancel, then lists the changes like findings (rank,
// kind, where, good, bad, score; the summary in the tooltip). Activating a row emits
// changeActivated; the window selects and frames its link(s). The panel owns compare mode:
// entered() when a comparison lands, left() on Leave compare (Esc), and Back to compare enters
// it again with the same result (leaving is undoable).
#include "core/analysis/analysis_config.h"
#include "views/compare_colouring.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTableView;

namespace fabscope {

class BackgroundJob;
class JobProgress;
class ChangesModel;
struct StoreSnapshot;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    enum Column { Rank, Kind, Where, Good, Bad, Score, ColumnCount };
    explicit ComparePanel(QWidget* parent = nullptr);
    ~ComparePanel() override;

    // Compares on the background job; `shown` is the window's store as loaded (its rates are
    // reused), the other side's store is loaded with the comparison.
    void run(const CompareRequest& request, const AnalysisConfig& config, std::shared_ptr<const StoreSnapshot> shown);
    [[nodiscard]] bool active() const { return active_; }
    [[nodiscard]] std::shared_ptr<const CompareResult> result() const { return result_; }
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] BackgroundJob* job() const { return job_; }
    [[nodiscard]] QString banner() const;
    [[nodiscard]] const Change* change(int row) const;  // the change on a table row (as sorted)

public Q_SLOTS:
    void leave();  // back to the normal colouring; the result is kept for Back to compare
    void back();   // compare mode again with the last result
    void clear();  // another store was opened: the result no longer applies

Q_SIGNALS:
    void entered(std::shared_ptr<const fabscope::CompareResult> result);
    void left();
    void changeActivated(const fabscope::Change& change);
    void finished(bool ok, const QString& message);  // a run landed, failed or was cancelled

private:
    void show(std::shared_ptr<const CompareResult> result);
    void updateState();
    void emitRow(const QModelIndex& index);

    BackgroundJob* job_ = nullptr;
    ChangesModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* banner_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* leave_ = nullptr;
    QPushButton* back_ = nullptr;
    JobProgress* progress_ = nullptr;  // shown when a run takes a while; hands the keyboard back
    std::shared_ptr<const CompareResult> result_;
    bool active_ = false;
};

} // namespace fabscope
