#pragma once
// Benchmarks dock: nccl-tests runs as busbw-vs-message-size curves (Qt Charts; x is log2 of the
// size, labelled in B/KiB/MiB/GiB; busbw in GB/s; one solid series per run, its in-place column
// dashed; the first kMaxChartRuns runs), each run's bottleneck link, and a table of perftest
// results ("Runs" tab); the "Pairwise" tab holds the host x host matrix of the two-host runs
// (views/pair_matrix_view.h) and the chart of the selected pair's or host's runs. Loaded from the
// store, and judged, off the GUI thread; a newer snapshot drops an older load's result.
#include "core/report/benchmarks.h"

#include <QWidget>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QChartView;
class QLabel;
class QLineSeries;
class QTabWidget;
class QTableWidget;
QT_END_NAMESPACE

namespace fabscope {

class BackgroundJob;
class PairMatrixView;
class PairRunsChart;
struct Finding;

struct StoreSnapshot;

using BenchmarkData = BenchmarkResults;

class BenchmarksPanel : public QWidget {
    Q_OBJECT
public:
    explicit BenchmarksPanel(QWidget* parent = nullptr);
    ~BenchmarksPanel() override;

    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    void setData(const BenchmarkData& results);  // what the loader hands over; tests may call it directly
    // Shows a slow_pair / slow_host finding of the benchmarks in the Pairwise tab (once loaded);
    // false for any other finding.
    bool showFinding(const Finding& finding);

    static constexpr std::size_t kMaxChartRuns = 12;  // more runs than this: the first ones are charted

    // Tests: the out-of-place series of run i (nullptr when absent), the chart, the table.
    [[nodiscard]] QLineSeries* runSeries(int i) const;
    [[nodiscard]] QChartView* chartView() const { return chart_; }
    [[nodiscard]] QTableWidget* perftestTable() const { return table_; }
    [[nodiscard]] QLabel* runsSummary() const { return summary_; }
    [[nodiscard]] QTabWidget* tabs() const { return tabs_; }
    [[nodiscard]] PairMatrixView* pairMatrix() const { return pairMatrix_; }
    [[nodiscard]] PairRunsChart* pairChart() const { return pairChart_; }
    [[nodiscard]] QLabel* pairInfo() const { return pairInfo_; }

Q_SIGNALS:
    void loaded();  // after a load's data is shown

private:
    void showPairSelection();

    QTabWidget* tabs_ = nullptr;
    PairMatrixView* pairMatrix_ = nullptr;
    PairRunsChart* pairChart_ = nullptr;
    QLabel* pairInfo_ = nullptr;
    QChartView* chart_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    std::vector<QLineSeries*> outOfPlace_;
    BackgroundJob* job_;
};

} // namespace fabscope
