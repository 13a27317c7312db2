#include "views/time_chart_view.h"
#include "views/utc_text.h"

#include <QLabel>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

constexpr int kDragPixels = 5;  // a press that moves less is a click

} // namespace

TimeChartView::TimeChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    readoutLabel_ = new QLabel(this);
    readoutLabel_->setObjectName(QStringLiteral("chartReadout"));
    readoutLabel_->setAccessibleName(tr("Value under the mouse"));
    readoutLabel_->setStyleSheet(QStringLiteral("QLabel { background: rgba(255,255,240,235); color: black; border: 1px solid #888; padding: 2px 4px; }"));
    readoutLabel_->setAttribute(Qt::WA_TransparentForMouseEvents);
    readoutLabel_->hide();
    emptyLabel_ = new QLabel(this);
    emptyLabel_->setObjectName(QStringLiteral("chartEmptyText"));
    emptyLabel_->setAlignment(Qt::AlignCenter);
    emptyLabel_->setWordWrap(true);
    emptyLabel_->setAttribute(Qt::WA_TransparentForMouseEvents);
    emptyLabel_->setAutoFillBackground(true);  // covers the chart (kept laid out underneath)
    emptyLabel_->setBackgroundRole(QPalette::Base);
    emptyLabel_->hide();
    band_ = new QRubberBand(QRubberBand::Rectangle, viewport());
    setToolTip(tr("Wheel or drag: zoom the time axis; Ctrl+Z: back; click: move the time cursor"));
}

void TimeChartView::setEmptyText(const QString& text) {
    emptyLabel_->setText(text);
    emptyLabel_->setVisible(!text.isEmpty());
    emptyLabel_->setGeometry(rect());
    emptyLabel_->raise();
    if (!text.isEmpty()) readoutLabel_->hide();
}

QString TimeChartView::emptyText() const { return emptyLabel_->text(); }

void TimeChartView::setTimeRange(double t0, double t1) {
    t0_ = t0;
    t1_ = std::max(t1, t0 + 1e-3);
    auto* x = qobject_cast<QCategoryAxis*>(chart()->axes(Qt::Horizontal).value(0));
    if (!x) return;
    const int ticks = std::clamp((width() - 90) / 75, 3, 8);  // "22:15" labels, 75 px apart at least
    for (const QString& label : x->categoriesLabels()) x->remove(label);
    x->setStartValue(t0_ * 1000);
    for (const TimeTick& tick : timeTicks(t0_, t1_, ticks))
        if (!x->categoriesLabels().contains(tick.label)) x->append(tick.label, tick.t * 1000);
    x->setRange(t0_ * 1000, t1_ * 1000);
    x->setTitleText(tr("Time (UTC), %1").arg(utcDates(t0_, t1_)));
}

double TimeChartView::timeAtX(double viewX) const {
    const QRectF plot = chart()->plotArea();
    const double chartX = chart()->mapFromScene(mapToScene(QPoint(static_cast<int>(viewX), 0))).x();
    return t0_ + (chartX - plot.left()) / std::max(1.0, plot.width()) * (t1_ - t0_);
}

double TimeChartView::xOfTime(double t) const {
    const QRectF plot = chart()->plotArea();
    const double chartX = plot.left() + (t - t0_) / (t1_ - t0_) * plot.width();
    return mapFromScene(chart()->mapToScene(QPointF(chartX, plot.top()))).x();
}

bool TimeChartView::inPlot(QPointF pos) const {
    if (emptyLabel_->isVisible()) return false;
    return chart()->plotArea().contains(chart()->mapFromScene(mapToScene(pos.toPoint())));
}

void TimeChartView::showReadout(QPoint pos) {
    const QString text = readout_ && inPlot(pos) ? readout_(timeAtX(pos.x())) : QString();
    if (text.isEmpty()) return readoutLabel_->hide();
    readoutLabel_->setText(text);
    readoutLabel_->adjustSize();
    QPoint at = viewport()->mapTo(this, pos) + QPoint(14, 14);
    at.setX(std::clamp(at.x(), 0, std::max(0, width() - readoutLabel_->width() - 2)));
    if (at.y() + readoutLabel_->height() > height()) at.setY(viewport()->mapTo(this, pos).y() - readoutLabel_->height() - 6);
    readoutLabel_->move(at);
    readoutLabel_->raise();
    readoutLabel_->show();
}

void TimeChartView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !inPlot(e->position())) return QChartView::mousePressEvent(e);
    pressX_ = e->position().toPoint().x();
    dragging_ = false;
    e->accept();
}

void TimeChartView::mouseMoveEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    if (pressX_ >= 0 && (e->buttons() & Qt::LeftButton)) {
        if (std::abs(pos.x() - pressX_) >= kDragPixels) dragging_ = true;
        if (dragging_) {
            const QRectF plot = chart()->plotArea();
            const int top = mapFromScene(chart()->mapToScene(plot.topLeft())).y();
            const int bottom = mapFromScene(chart()->mapToScene(plot.bottomLeft())).y();
            band_->setGeometry(QRect(QPoint(std::min(pressX_, pos.x()), top), QPoint(std::max(pressX_, pos.x()), bottom)));
            band_->show();
        }
    }
    showReadout(pos);
    e->accept();
}

void TimeChartView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || pressX_ < 0) return QChartView::mouseReleaseEvent(e);
    const int x = e->position().toPoint().x();
    band_->hide();
    if (dragging_) {
        const double a = timeAtX(std::min(pressX_, x)), b = timeAtX(std::max(pressX_, x));
        Q_EMIT zoomRequested(a, b, false);
    } else {
        Q_EMIT timeClicked(timeAtX(x));
    }
    pressX_ = -1;
    dragging_ = false;
    e->accept();
}

void TimeChartView::wheelEvent(QWheelEvent* e) {
    const int delta = e->angleDelta().y();
    if (delta == 0 || !inPlot(e->position())) return QChartView::wheelEvent(e);
    const double factor = std::pow(0.8, delta / 120.0);  // up (away from the user) zooms in
    const double tm = timeAtX(e->position().x());
    Q_EMIT zoomRequested(tm - (tm - t0_) * factor, tm + (t1_ - tm) * factor, true);
    e->accept();
}

void TimeChartView::leaveEvent(QEvent* e) {
    readoutLabel_->hide();
    QChartView::leaveEvent(e);
}

void TimeChartView::resizeEvent(QResizeEvent* e) {
    QChartView::resizeEvent(e);
    emptyLabel_->setGeometry(rect());
    setTimeRange(t0_, t1_);  // the tick count follows the width
}

} // namespace fabscope
