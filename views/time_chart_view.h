#pragma once
// A chart view over time (x in ms since the epoch, UTC) that the user can read and steer: a hover
// readout following the mouse (the text comes from the owner, with units), wheel zoom around the
// mouse, drag to zoom to a time range, a click to seek, and a centred sentence covering the
// plot when there is nothing to draw. It owns no zoom state: it reports what the user asked for
// and the owner (LinkChartsPanel) keeps the zoom stack and sets the range of every chart.
// The x axis is a QCategoryAxis whose ticks sit on round UTC times (setTimeRange).
#include <QtCharts/QChartView>

#include <functional>

QT_BEGIN_NAMESPACE
class QLabel;
class QRubberBand;
QT_END_NAMESPACE

namespace fabscope {

class TimeChartView : public QChartView {
    Q_OBJECT
public:
    explicit TimeChartView(QChart* chart, QWidget* parent = nullptr);

    // The readout text for a time (seconds); empty hides the readout.
    void setReadout(std::function<QString(double)> readout) { readout_ = std::move(readout); }
    // A sentence shown over the whole chart (no axis from 1970 behind it); empty shows the plot.
    void setEmptyText(const QString& text);
    [[nodiscard]] QString emptyText() const;
    // The x range in seconds; ticks on round UTC times, the date in the axis title.
    void setTimeRange(double t0, double t1);
    [[nodiscard]] double timeAtX(double viewX) const;  // seconds at a viewport x
    [[nodiscard]] double xOfTime(double t) const;      // viewport x of a time
    [[nodiscard]] QLabel* readout() const { return readoutLabel_; }

Q_SIGNALS:
    void zoomRequested(double t0, double t1, bool wheel);  // seconds
    void timeClicked(double t);

protected:
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void showReadout(QPoint pos);
    [[nodiscard]] bool inPlot(QPointF pos) const;

    std::function<QString(double)> readout_;
    QLabel* readoutLabel_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    QRubberBand* band_ = nullptr;
    double t0_ = 0, t1_ = 1;
    int pressX_ = -1;
    bool dragging_ = false;
};

} // namespace fabscope
