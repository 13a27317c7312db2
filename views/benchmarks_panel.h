#pragma once
// Benchmarks dock: nccl-tests runs as busbw-vs-message-size curves (Qt Charts; x is log2 of the
// size, labelled in B/KiB/MiB/GiB; busbw in GB/s; one solid series per run, its in-place column
// dashed), each run's bottleneck link, and a table of perftest results. Loaded from the store off
// the GUI thread; a newer snapshot drops an older load's result (generation counter).
#include "core/report/benchmarks.h"

#include <QWidget>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QChartView;
class QLabel;
class QLineSeries;
class QTableWidget;
QT_END_NAMESPACE

namespace fabscope {

class BackgroundJob;

struct StoreSnapshot;

using BenchmarkData = BenchmarkResults;

class BenchmarksPanel : public QWidget {
    Q_OBJECT
public:
    explicit BenchmarksPanel(QWidget* parent = nullptr);
    ~BenchmarksPanel() override;

    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    void setData(const BenchmarkData& results);  // what the loader hands over; tests may call it directly

    // Tests: the out-of-place series of run i (nullptr when absent), the chart, the table.
    [[nodiscard]] QLineSeries* runSeries(int i) const;
    [[nodiscard]] QChartView* chartView() const { return chart_; }
    [[nodiscard]] QTableWidget* perftestTable() const { return table_; }
    [[nodiscard]] QLabel* runsSummary() const { return summary_; }

Q_SIGNALS:
    void loaded();  // after a load's data is shown

private:
    QChartView* chart_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    std::vector<QLineSeries*> outOfPlace_;
    BackgroundJob* job_;
};

} // namespace fabscope
