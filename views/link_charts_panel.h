#pragma once
// Per-link charts (Qt Charts) for the selected link (or the link of the selected port): both
// directions' utilisation in % (Gb/s without a capacity), and below errors/s, the XmitWait or
// PFC pause share in % of time, ECN/CNP packets/s or throughput, pooled to at most ~500 points
// per series (minMaxPerBucket, docs/ARCHITECTURE.md, conventions), with a vertical cursor line that follows the
// TimeController. QtCharts headers stay out of this header (they are heavy on 2-core builds).
// Both charts share one time range: wheel or drag zooms it (TimeChartView), each zoom is pushed on
// a stack that Back (Ctrl+Z) pops and Reset zoom clears; a click moves the time cursor.
#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QToolButton;
QT_END_NAMESPACE

namespace fabscope {

struct StoreSnapshot;
class SelectionController;
class TimeController;
class TimeChartView;

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
    [[nodiscard]] QChartView* utilisationView() const;
    [[nodiscard]] QChartView* lowerView() const;
    [[nodiscard]] TimeChartView* utilisationTimeView() const { return utilView_; }
    [[nodiscard]] TimeChartView* lowerTimeView() const { return lowerView_; }
    // The time range both charts show (seconds) and how many zooms Back can undo.
    [[nodiscard]] std::pair<double, double> timeRange() const { return {view0_, view1_}; }
    [[nodiscard]] std::size_t zoomDepth() const { return zoomStack_.size(); }
    // The readout for a time (seconds): "<date time> UTC — up 87.3 %, down 12.0 %".
    [[nodiscard]] QString utilisationReadout(double t) const;
    [[nodiscard]] QString lowerReadout(double t) const;

public Q_SLOTS:
    void zoomTo(double t0, double t1, bool coalesce = false);
    void zoomBack();
    void resetZoom();

private:
    void followSelection();
    void fill();
    void moveCursor(double t);
    void applyRange(double t0, double t1);
    void updateEmptyTexts();
    void seek(double t);
    [[nodiscard]] std::pair<double, double> fullRange() const;
    [[nodiscard]] long binAt(double t) const;  // -1 outside the rates

    SelectionController* selection_;
    TimeController* time_;
    std::shared_ptr<const StoreSnapshot> snapshot_;
    int link_ = -1;
    bool throughput_ = false;  // the upper chart shows Gb/s: the link has no capacity (RoCE without a port speed)
    QLabel* title_ = nullptr;
    QComboBox* lowerMetric_ = nullptr;
    QToolButton* back_ = nullptr;
    QToolButton* reset_ = nullptr;
    TimeChartView* utilView_ = nullptr;
    TimeChartView* lowerView_ = nullptr;
    QLineSeries* up_ = nullptr;
    QLineSeries* down_ = nullptr;
    QLineSeries* lower_ = nullptr;
    QLineSeries* utilCursor_ = nullptr;
    QLineSeries* lowerCursor_ = nullptr;
    double view0_ = 0, view1_ = 1;
    std::vector<std::pair<double, double>> zoomStack_;
    QElapsedTimer lastWheel_;  // a burst of wheel steps is one zoom on the stack
};

} // namespace fabscope
