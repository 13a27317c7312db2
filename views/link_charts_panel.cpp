#include "views/link_charts_panel.h"

#include "core/timeseries/pixel_aggregate.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QDateTimeAxis>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// QDateTimeAxis labels in local time; shifting by the UTC offset makes them read UTC, like the
// heatmap, the scrubber and the fabric view.
double axisMs(double t) {
    const auto ms = static_cast<qint64>(std::llround(t * 1000.0));
    return static_cast<double>(ms) - 1000.0 * QDateTime::fromMSecsSinceEpoch(ms).offsetFromUtc();
}

// Min and max of every bucket, in time order: at most 2 points per bucket.
void setPooled(QLineSeries* series, const std::vector<float>& values, double start, double step, float& peak) {
    const auto buckets = minMaxPerBucket(values, start, step, static_cast<std::size_t>(LinkChartsPanel::kMaxPoints / 2));
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(buckets.size() * 2));
    for (const auto& b : buckets) {
        if (!b.valid) continue;
        const double ms = axisMs(b.t);
        points.append(QPointF(ms, static_cast<double>(b.min)));
        if (b.max != b.min) points.append(QPointF(ms, static_cast<double>(b.max)));
        peak = std::max(peak, b.max);
    }
    series->replace(points);
}

QChartView* makeView(QWidget* parent, const QString& objectName, const QString& accessible) {
    auto* chart = new QChart();
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setAnimationOptions(QChart::NoAnimation);
    QFont small = parent->font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
    chart->legend()->setFont(small);
    auto* x = new QDateTimeAxis(chart);
    x->setFormat(QStringLiteral("HH:mm:ss"));
    x->setTitleText(QObject::tr("Time (UTC)"));
    x->setTickCount(5);
    auto* y = new QValueAxis(chart);
    y->setLabelFormat(QStringLiteral("%.0f"));
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(x), static_cast<QAbstractAxis*>(y)}) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto* view = new QChartView(chart, parent);
    view->setObjectName(objectName);
    view->setAccessibleName(accessible);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(130);
    return view;
}

QLineSeries* addSeries(QChartView* view, const QString& name, const QColor& colour, qreal width = 1.6) {
    auto* s = new QLineSeries(view->chart());
    s->setName(name);
    QPen pen(colour, width);
    s->setPen(pen);
    view->chart()->addSeries(s);
    for (auto* axis : view->chart()->axes()) s->attachAxis(axis);
    return s;
}

} // namespace

LinkChartsPanel::LinkChartsPanel(SelectionController* selection, TimeController* time, QWidget* parent)
    : QWidget(parent), selection_(selection), time_(time) {
    setObjectName(QStringLiteral("linkChartsPanel"));
    setAccessibleName(tr("Link charts"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* head = new QHBoxLayout();
    title_ = new QLabel(tr("Select a link (or a port on a link) to chart it."), this);
    title_->setObjectName(QStringLiteral("linkChartsTitle"));
    title_->setAccessibleName(tr("Charted link"));
    title_->setWordWrap(true);
    lowerMetric_ = new QComboBox(this);
    lowerMetric_->setObjectName(QStringLiteral("lowerChartMetric"));
    lowerMetric_->setAccessibleName(tr("Lower chart shows"));
    lowerMetric_->addItem(tr("Errors (errors/s)"), static_cast<int>(LinkMetric::Errors));
    lowerMetric_->addItem(tr("XmitWait (ticks/s)"), static_cast<int>(LinkMetric::XmitWait));
    lowerMetric_->addItem(tr("Throughput, max of both directions (Gb/s)"), static_cast<int>(LinkMetric::ThroughputMax));
    head->addWidget(title_, 1);
    head->addWidget(lowerMetric_);
    layout->addLayout(head);

    utilView_ = makeView(this, QStringLiteral("utilisationChart"), tr("Utilisation chart of the selected link"));
    lowerView_ = makeView(this, QStringLiteral("errorsChart"), tr("Errors or XmitWait chart of the selected link"));
    utilView_->setMinimumHeight(190);
    layout->addWidget(utilView_, 2);
    layout->addWidget(lowerView_, 1);
    up_ = addSeries(utilView_, tr("up"), QColor(40, 110, 200));
    down_ = addSeries(utilView_, tr("down"), QColor(230, 120, 30));
    utilCursor_ = addSeries(utilView_, tr("cursor"), QColor(20, 20, 20), 1.0);
    lower_ = addSeries(lowerView_, tr("errors/s"), QColor(200, 30, 40));
    lowerCursor_ = addSeries(lowerView_, tr("cursor"), QColor(20, 20, 20), 1.0);
    for (auto* c : {utilCursor_, lowerCursor_}) {
        c->setObjectName(QStringLiteral("cursorLine"));
        // The cursor line needs no legend entry.
        for (auto* marker : c->chart()->legend()->markers(c)) marker->setVisible(false);
    }
    utilView_->chart()->axes(Qt::Vertical).front()->setTitleText(tr("util. (%)"));
    lowerView_->chart()->legend()->hide();  // one series: the axis title names it
    lowerView_->chart()->axes(Qt::Vertical).front()->setTitleText(tr("Errors (errors/s)"));

    connect(selection_, &SelectionController::changed, this, &LinkChartsPanel::followSelection);
    connect(time_, &TimeController::cursorChanged, this, &LinkChartsPanel::moveCursor);
    connect(lowerMetric_, &QComboBox::currentIndexChanged, this, &LinkChartsPanel::fill);
    fill();
}

LinkChartsPanel::~LinkChartsPanel() = default;

QLineSeries* LinkChartsPanel::utilisationSeries(int direction) const { return direction == 0 ? up_ : down_; }

void LinkChartsPanel::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    link_ = -1;
    followSelection();
}

void LinkChartsPanel::followSelection() {
    const int link = linkOfSelection(*selection_, snapshot_.get());
    if (link == link_) return;
    link_ = link;
    fill();
}

void LinkChartsPanel::fill() {
    const auto metric = static_cast<LinkMetric>(lowerMetric_->currentData().toInt());
    const QString unit = QString::fromUtf8(metricUnit(metric).data());
    const QString name = QString::fromUtf8(metricName(metric).data());
    lower_->setName(unit);
    lowerView_->chart()->axes(Qt::Vertical).front()->setTitleText(unit);  // the combo box names the metric; the chart is short
    lowerView_->setAccessibleDescription(tr("%1 (%2) of the selected link over time").arg(name, unit));
    const bool have = snapshot_ && link_ >= 0 && !snapshot_->rates.empty() && static_cast<std::size_t>(link_) < snapshot_->rates.links;
    float utilPeak = 0, lowerPeak = 0;
    if (!have) {
        up_->setName(tr("up"));
        down_->setName(tr("down"));
        up_->clear();
        down_->clear();
        lower_->clear();
        if (snapshot_ && link_ >= 0)
            title_->setText(tr("<b>%1</b>: no counters in this store").arg(qs(snapshot_->linkLabel(LinkId(static_cast<std::size_t>(link_)))).toHtmlEscaped()));
        else title_->setText(tr("Select a link (or a port on a link) to chart it."));
    } else {
        const auto& r = snapshot_->rates;
        const auto l = static_cast<std::size_t>(link_);
        const Link& link = snapshot_->fabric.links[l];
        const bool upIsAtoB = r.upIsAtoB.empty() || r.upIsAtoB[l];
        const std::string lower = snapshot_->portLabel(upIsAtoB ? link.a : link.b), upper = snapshot_->portLabel(upIsAtoB ? link.b : link.a);
        up_->setName(tr("up: %1 → %2").arg(qs(lower), qs(upper)));
        down_->setName(tr("down: %1 → %2").arg(qs(upper), qs(lower)));
        setPooled(up_, r.row(LinkMetric::UtilUp, l), r.start, r.step, utilPeak);
        setPooled(down_, r.row(LinkMetric::UtilDown, l), r.start, r.step, utilPeak);
        setPooled(lower_, r.row(metric, l), r.start, r.step, lowerPeak);
        if (link.capacityBps)
            title_->setText(tr("<b>%1</b> — %2 Gb/s; peak utilisation %3 %")
                                .arg(qs(snapshot_->linkLabel(LinkId(l))).toHtmlEscaped(),
                                     QString::number(static_cast<double>(link.capacityBps) / 1e9, 'g', 4))
                                .arg(static_cast<double>(utilPeak), 0, 'f', 1));
        else  // RoCE without a port speed: no utilisation, but the throughput is known
            title_->setText(tr("<b>%1</b> — capacity unknown (no port speed in the capture); peak throughput %2 Gb/s")
                                .arg(qs(snapshot_->linkLabel(LinkId(l))).toHtmlEscaped())
                                .arg(static_cast<double>(r.peak(LinkMetric::ThroughputMax, l)), 0, 'f', 1));
    }
    const TimeRange span = snapshot_ ? (snapshot_->rates.empty() ? snapshot_->timeSpan() : snapshot_->rates.span()) : TimeRange{0, 1};
    const double t0 = span.valid() ? span.start : 0, t1 = span.valid() && span.end > span.start ? span.end : t0 + 1;
    for (auto* view : {utilView_, lowerView_}) {
        auto* x = view->chart()->axes(Qt::Horizontal).front();
        x->setRange(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(axisMs(t0))), QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(axisMs(t1))));
    }
    utilView_->chart()->axes(Qt::Vertical).front()->setRange(0, std::max(100.0, std::ceil(static_cast<double>(utilPeak) / 10) * 10));
    auto* ly = static_cast<QValueAxis*>(lowerView_->chart()->axes(Qt::Vertical).front());
    const double top = lowerPeak > 0 ? static_cast<double>(lowerPeak) * 1.15 : 1.0;
    ly->setRange(0, top);
    ly->setLabelFormat(top < 10 ? QStringLiteral("%.2f") : QStringLiteral("%.0f"));
    moveCursor(time_->time());
}

void LinkChartsPanel::moveCursor(double t) {
    const double ms = axisMs(t);
    auto* uy = static_cast<QValueAxis*>(utilView_->chart()->axes(Qt::Vertical).front());
    auto* ly = static_cast<QValueAxis*>(lowerView_->chart()->axes(Qt::Vertical).front());
    utilCursor_->replace({QPointF(ms, uy->min()), QPointF(ms, uy->max())});
    lowerCursor_->replace({QPointF(ms, ly->min()), QPointF(ms, ly->max())});
}

double LinkChartsPanel::cursorPixelX() const {
    if (utilCursor_->count() == 0) return -1;
    return utilView_->chart()->mapToPosition(utilCursor_->at(0), utilCursor_).x();
}

} // namespace fabscope
