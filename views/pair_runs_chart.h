#pragma once
// The runs of what the pairwise matrix selected (a pair, or a host's row) as bus bandwidth against
// message size (Qt Charts; x is log2 of the size, labelled B/KiB/MiB/GiB; busbw in GB/s): one
// solid series per run with a table (a failed one dotted), and each class's median as a dashed
// line over the sizes its figure averages.
#include <QtCharts/QChartView>

#include <cstddef>
#include <vector>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
class QLineSeries;
QT_END_NAMESPACE

namespace fabscope {

struct PairMatrixData;

class PairRunsChart : public QChartView {
    Q_OBJECT
public:
    explicit PairRunsChart(QWidget* parent = nullptr);

    // Charts `runs` (indices into d.pb.runs); `host` >= 0 names each series by the other host
    // (a host's row), else by run. An empty list shows `title` alone.
    void showRuns(const PairMatrixData& d, const std::vector<std::size_t>& runs, const QString& title, int host = -1);
    void clear(const QString& title);

    // Tests: the runs' series (failed runs with a table included), the class median lines.
    [[nodiscard]] const std::vector<QLineSeries*>& runSeries() const { return runs_; }
    [[nodiscard]] const std::vector<QLineSeries*>& medianSeries() const { return medians_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void labelSizes();  // size labels at powers of two, as many as the width holds

    std::vector<QLineSeries*> runs_, medians_;
    QCategoryAxis* sizes_ = nullptr;
    double lo_ = 0, hi_ = 0;  // the x range, log2 of bytes
};

} // namespace fabscope
