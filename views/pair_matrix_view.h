#pragma once
// Pairwise benchmarks matrix (Benchmarks dock, "Pairwise" tab; docs/ANALYSIS.md "Pairwise
// benchmarks"): hosts x hosts for one benchmark class chosen in a combo (benchmark, GPUs per
// node), each cell coloured by its pair's figure (mean busbw in GB/s over the large sizes) on a
// 0..class-maximum scale, slow runs outlined, failed runs crossed; hosts by leaf switch when the
// store has a topology. A click (or the arrow keys) on a cell selects the pair, on a host's name
// (or Left from the first column) selects the host's row; the panel charts what is selected.
// The data is built off the GUI thread (buildPairMatrixData) and shared read-only.
#include "core/analysis/pair_benchmarks.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace fabscope {

struct Finding;

struct PairMatrixData {
    PairBenchmarks pb;
    std::vector<CollectiveRun> runs;     // the store's runs: their rows for the chart
    std::vector<std::string> leafOf;     // per pb.hosts: its leaf switch, empty when the fabric lacks it
    std::unordered_map<std::int64_t, std::size_t> runById;
    double minSizeBytes = 0;             // the sizes a figure averages (PairBenchmarkConfig)
    [[nodiscard]] const CollectiveRun* run(std::int64_t id) const;
};

// Judges `runs` (judgePairBenchmarks) and finds each host's leaf; for a worker thread.
[[nodiscard]] std::shared_ptr<const PairMatrixData> buildPairMatrixData(std::vector<CollectiveRun> runs, const Fabric& fabric,
                                                                        const PairBenchmarkConfig& config);

class PairMatrixView : public QWidget {
    Q_OBJECT
public:
    // A benchmark and GPU count: what the class combo chooses.
    struct Selector {
        std::string tool;
        int gpus = 0;
        [[nodiscard]] QString label() const;  // "alltoall_perf G8"
    };
    // One host pair in the chosen selector: its runs (indices into pb.runs) and what they say.
    struct Cell {
        std::vector<std::size_t> runs;
        std::optional<double> figureGBs;  // the worst good run's figure
        bool slow = false, failed = false;
    };

    explicit PairMatrixView(QWidget* parent = nullptr);
    ~PairMatrixView() override;

    void setData(std::shared_ptr<const PairMatrixData> data);
    [[nodiscard]] const PairMatrixData* data() const { return data_.get(); }
    [[nodiscard]] std::size_t hostCount() const { return data_ ? data_->pb.hosts.size() : 0; }
    [[nodiscard]] int hostIndex(const std::string& host) const;  // -1 when absent

    [[nodiscard]] const std::vector<Selector>& selectors() const { return selectors_; }
    [[nodiscard]] int selectorIndex(const std::string& tool, int gpus) const;  // -1 when absent
    void setSelector(int index);
    [[nodiscard]] int currentSelector() const { return current_; }

    // Tests and painting: a cell (row host, column host) of the chosen selector, its colour,
    // rectangle in canvas() coordinates and tooltip; a host's name rectangle (row header).
    [[nodiscard]] const Cell* cell(std::size_t row, std::size_t col) const;
    [[nodiscard]] QColor cellColour(std::size_t row, std::size_t col) const;
    [[nodiscard]] QRect cellRect(std::size_t row, std::size_t col) const;
    [[nodiscard]] QRect hostHeaderRect(std::size_t host) const;
    [[nodiscard]] QString cellToolTip(std::size_t row, std::size_t col) const;
    [[nodiscard]] QString hostToolTip(std::size_t host) const;
    [[nodiscard]] double scaleMaxGBs() const { return scaleMax_; }
    [[nodiscard]] QWidget* canvas() const { return canvas_; }
    [[nodiscard]] QComboBox* classBox() const { return classBox_; }

    // The selection: a pair's cell, or a host's row (column -1); (-1, -1) when none.
    [[nodiscard]] std::pair<int, int> selectedCell() const { return selected_; }
    [[nodiscard]] int selectedHost() const { return selected_.second < 0 ? selected_.first : -1; }
    // The runs of what is selected in the chosen selector (indices into pb.runs).
    [[nodiscard]] std::vector<std::size_t> selectedRuns() const;
    void selectCell(int row, int col);
    void selectHost(int host);
    // Shows what a slow_pair or slow_host finding of the benchmarks names; false for any other.
    bool showFinding(const Finding& finding);

Q_SIGNALS:
    void selectionChanged();  // a pair, a host row, or nothing (also after a new class or data)

private:
    friend class PairMatrixCanvas;
    void rebuildCells();
    void selectRaw(int row, int col);
    bool applyFinding(const Finding& finding);

    std::shared_ptr<const PairMatrixData> data_;
    std::unordered_map<std::string, int> hostIdx_;
    std::vector<Selector> selectors_;
    int current_ = -1;
    std::vector<Cell> cells_;  // n x n, symmetric
    double scaleMax_ = 1;
    std::pair<int, int> selected_{-1, -1};
    std::unique_ptr<Finding> pending_;  // a finding shown before its data landed
    QComboBox* classBox_ = nullptr;
    QLabel* status_ = nullptr;
    QWidget* canvas_ = nullptr;
};

} // namespace fabscope
