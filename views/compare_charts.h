#pragma once
// The link charts in compare mode: the good run's window and the bad run's window of one link,
// side by side, each from its own store and labelled with its UTC window; both directions'
// utilisation in %, on one y scale so the two read against each other. The link is named by its
// two ends (a port of the good topology may be gone from the bad one: that side says so).
#include "core/analysis/port_ref.h"

#include <QWidget>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineSeries;
QT_END_NAMESPACE

namespace fabscope {

struct CompareResult;
class TimeChartView;

class CompareCharts : public QWidget {
    Q_OBJECT
public:
    explicit CompareCharts(QWidget* parent = nullptr);
    ~CompareCharts() override;

    void setResult(std::shared_ptr<const CompareResult> result);  // null: nothing to chart
    void setPorts(std::vector<PortRef> ports);                    // the link to chart, by its ends
    // Tests: side 0 good, 1 bad; direction 0 up, 1 down.
    [[nodiscard]] TimeChartView* view(int side) const { return panes_[side].view; }
    [[nodiscard]] QLabel* title(int side) const { return panes_[side].title; }
    [[nodiscard]] QLineSeries* series(int side, int direction) const { return direction == 0 ? panes_[side].up : panes_[side].down; }
    [[nodiscard]] QString heading() const;

private:
    struct Pane {
        QLabel* title = nullptr;
        TimeChartView* view = nullptr;
        QLineSeries* up = nullptr;
        QLineSeries* down = nullptr;
        double t0 = 0, t1 = 1;
    };
    void fill();
    [[nodiscard]] QString readout(int side, double t) const;

    std::shared_ptr<const CompareResult> result_;
    std::vector<PortRef> ports_;
    QLabel* heading_ = nullptr;
    Pane panes_[2];
    int links_[2] = {-1, -1};
};

} // namespace fabscope
