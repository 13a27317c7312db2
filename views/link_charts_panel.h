#pragma once
// Per-link charts (Qt Charts) for the selected link (or the link of the selected port): both
// directions' utilisation in %, and errors/s or XmitWait ticks/s, pooled to at most ~500 points
// per series (minMaxPerBucket, docs/ARCHITECTURE.md, conventions), with a vertical cursor line that follows the
// TimeController. QtCharts headers stay out of this header (they are heavy on 2-core builds).
#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
QT_END_NAMESPACE

namespace fabscope {

struct StoreSnapshot;
class SelectionController;
class TimeController;

class LinkChartsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxPoints = 500;  // per series
    LinkChartsPanel(SelectionController* selection, TimeController* time, QWidget* parent = nullptr);
    ~LinkChartsPanel() override;

    void setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot);
    [[nodiscard]] int link() const { return link_; }
    // Tests: the utilisation series (0 up, 1 down), the lower chart's series, the cursor line's
    // x position in chart-view pixels.
    [[nodiscard]] QLineSeries* utilisationSeries(int direction) const;
    [[nodiscard]] QLineSeries* lowerSeries() const { return lower_; }
    [[nodiscard]] double cursorPixelX() const;
    [[nodiscard]] QChartView* utilisationView() const { return utilView_; }
    [[nodiscard]] QChartView* lowerView() const { return lowerView_; }

private:
    void followSelection();
    void fill();
    void moveCursor(double t);

    SelectionController* selection_;
    TimeController* time_;
    std::shared_ptr<const StoreSnapshot> snapshot_;
    int link_ = -1;
    QLabel* title_ = nullptr;
    QComboBox* lowerMetric_ = nullptr;
    QChartView* utilView_ = nullptr;
    QChartView* lowerView_ = nullptr;
    QLineSeries* up_ = nullptr;
    QLineSeries* down_ = nullptr;
    QLineSeries* lower_ = nullptr;
    QLineSeries* utilCursor_ = nullptr;
    QLineSeries* lowerCursor_ = nullptr;
};

} // namespace fabscope
