#include "views/link_charts_panel.h"

#include "views/pooled_line.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_chart_view.h"
#include "views/time_controller.h"
#include "views/utc_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QShortcut>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString number(float v, const QString& unit) {
    if (std::isnan(v)) return QObject::tr("no data");
    const double d = static_cast<double>(v);
    return QStringLiteral("%1 %2").arg(d, 0, 'f', std::abs(d) < 10 && d != 0 && unit != QStringLiteral("%") ? 2 : 1).arg(unit);
}

void setPooled(QLineSeries* series, const std::vector<float>& values, double start, double step, float& peak) {
    series->replace(pooledLine(values, start, step, static_cast<std::size_t>(LinkChartsPanel::kMaxPoints / 2), peak));
}

TimeChartView* makeView(QWidget* parent, const QString& objectName, const QString& accessible) {
    auto* chart = new QChart();
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->setAnimationOptions(QChart::NoAnimation);
    QFont small = parent->font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
    chart->legend()->setFont(small);
    auto* x = new QCategoryAxis(chart);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setTitleText(QObject::tr("Time (UTC)"));
    auto* y = new QValueAxis(chart);
    y->setLabelFormat(QStringLiteral("%.0f"));
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(x), static_cast<QAbstractAxis*>(y)}) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto* view = new TimeChartView(chart, parent);
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

// Where a direction's sending port ran at other speeds in earlier snapshots, when: the charts'
// utilisation is of the speed then, which the title's one capacity would not say.
QString speedChanges(const LinkTimeSeries& rates, std::size_t link) {
    const auto it = rates.speedChanges.find(link);
    if (it == rates.speedChanges.end()) return {};
    QStringList parts;
    for (int dir = 0; dir < 2; ++dir) {
        const auto& spans = it->second[static_cast<std::size_t>(dir)];
        if (spans.size() < 2) continue;
        QStringList steps;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            const QString gbps = spans[i].bps > 0 ? QObject::tr("%1 Gb/s").arg(spans[i].bps / 1e9, 0, 'g', 4) : QObject::tr("speed unknown");
            steps << (i == 0 ? gbps : QObject::tr("%1 from %2 UTC").arg(gbps, utcText(spans[i].from)));
        }
        parts << QObject::tr("%1 %2").arg(dir == 0 ? QObject::tr("up") : QObject::tr("down"), steps.join(QObject::tr(", then ")));
    }
    if (parts.isEmpty()) return {};
    return QObject::tr("<br>Speed changed between snapshots (utilisation is of the speed then): %1").arg(parts.join(QStringLiteral("; ")));
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
    lowerMetric_->addItem(tr("XmitWait share (% of time)"), static_cast<int>(LinkMetric::XmitWait));
    lowerMetric_->addItem(tr("PFC paused, up (% of time)"), static_cast<int>(LinkMetric::PfcPauseUp));
    lowerMetric_->addItem(tr("PFC paused, down (% of time)"), static_cast<int>(LinkMetric::PfcPauseDown));
    lowerMetric_->addItem(tr("ECN marks / CNPs (packets/s)"), static_cast<int>(LinkMetric::EcnCnp));
    lowerMetric_->addItem(tr("Throughput, max of both directions (Gb/s)"), static_cast<int>(LinkMetric::ThroughputMax));
    back_ = new QToolButton(this);
    back_->setObjectName(QStringLiteral("chartZoomBack"));
    back_->setText(tr("Back"));
    back_->setAccessibleName(tr("Undo the last zoom of the charts"));
    back_->setToolTip(tr("Undo the last zoom (Ctrl+Z)"));
    reset_ = new QToolButton(this);
    reset_->setObjectName(QStringLiteral("chartZoomReset"));
    reset_->setText(tr("Reset zoom"));
    reset_->setAccessibleName(tr("Show the whole time span in the charts"));
    // The title on a line of its own: a narrow dock must not squeeze it into a column of words.
    layout->addWidget(title_);
    head->addWidget(back_);
    head->addWidget(reset_);
    head->addStretch(1);
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
    connect(back_, &QToolButton::clicked, this, &LinkChartsPanel::zoomBack);
    connect(reset_, &QToolButton::clicked, this, &LinkChartsPanel::resetZoom);
    auto* undo = new QShortcut(QKeySequence::Undo, this, this, &LinkChartsPanel::zoomBack, Qt::WidgetWithChildrenShortcut);
    undo->setObjectName(QStringLiteral("chartZoomBackShortcut"));
    for (TimeChartView* view : {utilView_, lowerView_}) {
        connect(view, &TimeChartView::zoomRequested, this, &LinkChartsPanel::zoomTo);
        connect(view, &TimeChartView::timeClicked, this, &LinkChartsPanel::seek);
    }
    utilView_->setReadout([this](double t) { return utilisationReadout(t); });
    lowerView_->setReadout([this](double t) { return lowerReadout(t); });
    fill();
}

LinkChartsPanel::~LinkChartsPanel() = default;

QLineSeries* LinkChartsPanel::utilisationSeries(int direction) const { return direction == 0 ? up_ : down_; }
QChartView* LinkChartsPanel::utilisationView() const { return utilView_; }
QChartView* LinkChartsPanel::lowerView() const { return lowerView_; }

void LinkChartsPanel::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    link_ = -1;
    zoomStack_.clear();
    const auto [t0, t1] = fullRange();
    view0_ = t0;
    view1_ = t1;
    link_ = linkOfSelection(*selection_, snapshot_.get());
    // A metric the store has no counters for stays listed, disabled.
    if (auto* model = qobject_cast<QStandardItemModel*>(lowerMetric_->model()))
        for (int i = 0; i < lowerMetric_->count(); ++i) {
            const auto m = static_cast<LinkMetric>(lowerMetric_->itemData(i).toInt());
            model->item(i)->setEnabled(!snapshot_ || snapshot_->rates.empty() || snapshot_->rates.has(m));
        }
    // A disabled choice would chart nothing: the first the store has (PFC paused up on a store
    // with pause counters only). setCurrentIndex refills the charts.
    if (auto* model = qobject_cast<QStandardItemModel*>(lowerMetric_->model());
        model && !model->item(lowerMetric_->currentIndex())->isEnabled())
        for (int i = 0; i < lowerMetric_->count(); ++i)
            if (model->item(i)->isEnabled()) {
                lowerMetric_->setCurrentIndex(i);
                break;
            }
    fill();
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
        // Without a port speed there is no utilisation: the upper chart shows the throughput.
        throughput_ = !link.capacityBps;
        setPooled(up_, r.row(throughput_ ? LinkMetric::ThroughputUp : LinkMetric::UtilUp, l), r.start, r.step, utilPeak);
        setPooled(down_, r.row(throughput_ ? LinkMetric::ThroughputDown : LinkMetric::UtilDown, l), r.start, r.step, utilPeak);
        setPooled(lower_, r.row(metric, l), r.start, r.step, lowerPeak);
        if (link.capacityBps)
            title_->setText(tr("<b>%1</b> — %2 Gb/s; peak utilisation %3 %")
                                .arg(qs(snapshot_->linkLabel(LinkId(l))).toHtmlEscaped(),
                                     QString::number(static_cast<double>(link.capacityBps) / 1e9, 'g', 4))
                                .arg(static_cast<double>(utilPeak), 0, 'f', 1) +
                            speedChanges(r, l));
        else  // RoCE without a port speed: no utilisation, but the throughput is known
            title_->setText(tr("<b>%1</b> — capacity unknown (no port speed in the capture); peak throughput %2 Gb/s")
                                .arg(qs(snapshot_->linkLabel(LinkId(l))).toHtmlEscaped())
                                .arg(static_cast<double>(r.peak(LinkMetric::ThroughputMax, l)), 0, 'f', 1));
    }
    applyRange(view0_, view1_);
    auto* uy = utilView_->chart()->axes(Qt::Vertical).front();
    if (have && throughput_) {
        uy->setTitleText(tr("Gb/s"));
        uy->setRange(0, utilPeak > 0 ? static_cast<double>(utilPeak) * 1.15 : 1.0);
    } else {
        uy->setTitleText(tr("util. (%)"));
        uy->setRange(0, std::max(100.0, std::ceil(static_cast<double>(utilPeak) / 10) * 10));
    }
    auto* ly = static_cast<QValueAxis*>(lowerView_->chart()->axes(Qt::Vertical).front());
    // Shares of time on their whole 0-100 % axis: 5 % waiting must not fill the chart.
    const double top = unit.startsWith(QLatin1Char('%')) ? 100.0 : lowerPeak > 0 ? static_cast<double>(lowerPeak) * 1.15 : 1.0;
    ly->setLabelFormat(top < 10 ? QStringLiteral("%.2f") : QStringLiteral("%.0f"));  // before the range: it lays the labels out
    ly->setRange(0, top);
    updateEmptyTexts();
    moveCursor(time_->time());
}

// Why a chart is empty, said in the chart instead of an axis from 1970.
void LinkChartsPanel::updateEmptyTexts() {
    QString why;
    if (!snapshot_) why = tr("No store open.");
    else if (link_ < 0) why = tr("Select a link (or a port on a link) to chart it.");
    else if (up_->count() == 0 && down_->count() == 0) why = tr("No counters for this link in the store.");
    utilView_->setEmptyText(why);
    if (why.isEmpty() && lower_->count() == 0) why = tr("No %1 counters for this link in the store.").arg(lowerMetric_->currentText());
    lowerView_->setEmptyText(why);
}

std::pair<double, double> LinkChartsPanel::fullRange() const {
    const TimeRange span = snapshot_ ? (snapshot_->rates.empty() ? snapshot_->timeSpan() : snapshot_->rates.span()) : TimeRange{0, 1};
    const double t0 = span.valid() ? span.start : 0, t1 = span.valid() && span.end > span.start ? span.end : t0 + 1;
    return {t0, t1};
}

void LinkChartsPanel::applyRange(double t0, double t1) {
    view0_ = t0;
    view1_ = t1;
    for (TimeChartView* view : {utilView_, lowerView_}) view->setTimeRange(t0, t1);
    back_->setEnabled(!zoomStack_.empty());
    reset_->setEnabled(!zoomStack_.empty());
}

void LinkChartsPanel::zoomTo(double t0, double t1, bool coalesce) {
    const auto [f0, f1] = fullRange();
    const double minWidth = std::min(f1 - f0, std::max(10.0, 4 * (snapshot_ && !snapshot_->rates.empty() ? snapshot_->rates.step : 1.0)));
    if (t1 - t0 < minWidth) {
        const double mid = (t0 + t1) / 2;
        t0 = mid - minWidth / 2;
        t1 = mid + minWidth / 2;
    }
    // Inside the store's span; zooming out never goes beyond it.
    if (t1 - t0 >= f1 - f0) t0 = f0, t1 = f1;
    else if (t0 < f0) t1 += f0 - t0, t0 = f0;
    else if (t1 > f1) t0 -= t1 - f1, t1 = f1;
    if (t0 == view0_ && t1 == view1_) return;
    const bool burst = coalesce && lastWheel_.isValid() && lastWheel_.elapsed() < 600 && !zoomStack_.empty();
    if (coalesce) lastWheel_.start();
    else lastWheel_.invalidate();
    if (!burst) zoomStack_.emplace_back(view0_, view1_);
    applyRange(t0, t1);
    moveCursor(time_->time());
}

void LinkChartsPanel::zoomBack() {
    if (zoomStack_.empty()) return;
    const auto [t0, t1] = zoomStack_.back();
    zoomStack_.pop_back();
    lastWheel_.invalidate();
    applyRange(t0, t1);
    moveCursor(time_->time());
}

void LinkChartsPanel::resetZoom() {
    zoomStack_.clear();
    lastWheel_.invalidate();
    const auto [t0, t1] = fullRange();
    applyRange(t0, t1);
    moveCursor(time_->time());
}

long LinkChartsPanel::binAt(double t) const {
    if (!snapshot_ || snapshot_->rates.empty() || snapshot_->rates.step <= 0) return -1;
    const auto& r = snapshot_->rates;
    const double b = std::floor((t - r.start) / r.step);
    if (b < 0 || b >= static_cast<double>(r.bins)) return -1;
    return static_cast<long>(b);
}

// A click seeks the shared cursor to the start of the clicked sample bin.
void LinkChartsPanel::seek(double t) {
    const long b = binAt(t);
    time_->setTime(b >= 0 ? snapshot_->rates.binStart(static_cast<std::size_t>(b)) : t);
}

QString LinkChartsPanel::utilisationReadout(double t) const {
    const long b = binAt(t);
    if (b < 0 || link_ < 0 || static_cast<std::size_t>(link_) >= snapshot_->rates.links) return {};
    const auto& r = snapshot_->rates;
    const auto l = static_cast<std::size_t>(link_), bin = static_cast<std::size_t>(b);
    const QString unit = throughput_ ? QStringLiteral("Gb/s") : QStringLiteral("%");
    const LinkMetric up = throughput_ ? LinkMetric::ThroughputUp : LinkMetric::UtilUp;
    const LinkMetric down = throughput_ ? LinkMetric::ThroughputDown : LinkMetric::UtilDown;
    return tr("%1 UTC — up %2, down %3").arg(utcText(r.binStart(bin)), number(r.value(up, l, bin), unit), number(r.value(down, l, bin), unit));
}

QString LinkChartsPanel::lowerReadout(double t) const {
    const long b = binAt(t);
    if (b < 0 || link_ < 0 || static_cast<std::size_t>(link_) >= snapshot_->rates.links) return {};
    const auto metric = static_cast<LinkMetric>(lowerMetric_->currentData().toInt());
    const auto& r = snapshot_->rates;
    const auto bin = static_cast<std::size_t>(b);
    return tr("%1 UTC — %2 %3")
        .arg(utcText(r.binStart(bin)), QString::fromUtf8(metricName(metric).data()),
             number(r.value(metric, static_cast<std::size_t>(link_), bin), QString::fromUtf8(metricUnit(metric).data())));
}

void LinkChartsPanel::moveCursor(double t) {
    const double ms = chartMs(t);
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
