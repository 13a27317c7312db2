#include "views/compare_charts.h"

#include "views/compare_colouring.h"
#include "views/pooled_line.h"
#include "views/store_snapshot.h"
#include "views/time_chart_view.h"
#include "views/utc_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

constexpr std::size_t kBuckets = 250;  // per series: at most 500 points (min and max per bucket)

QString qs(const std::string& s) { return QString::fromStdString(s); }

int linkOfPorts(const StoreSnapshot& s, const std::vector<PortRef>& ports) {
    for (const PortRef& r : ports)
        if (const auto port = s.findPort(r))
            if (const auto link = s.linkOf(*port)) return static_cast<int>(link->value());
    return -1;
}

QLineSeries* addSeries(QChart* chart, const QString& name, const QColor& colour) {
    auto* s = new QLineSeries(chart);
    s->setName(name);  // before it joins the chart: its legend marker takes the name then
    s->setPen(QPen(colour, 1.6));
    chart->addSeries(s);
    for (auto* axis : chart->axes()) s->attachAxis(axis);
    return s;
}

// The bins of a link's row inside [t0, t1), pooled; broken where nothing was measured.
float chart(QLineSeries* series, const LinkTimeSeries& r, LinkMetric m, std::size_t link, double t0, double t1) {
    const std::vector<float> row = r.row(m, link);
    const auto first = static_cast<std::size_t>(std::clamp(std::floor((t0 - r.start) / r.step), 0.0, static_cast<double>(r.bins)));
    const auto last = static_cast<std::size_t>(std::clamp(std::ceil((t1 - r.start) / r.step), static_cast<double>(first), static_cast<double>(r.bins)));
    float peak = 0;
    series->replace(pooledLine(std::span<const float>(row.data() + first, last - first), r.binStart(first), r.step, kBuckets, peak));
    return peak;
}

} // namespace

CompareCharts::CompareCharts(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("compareCharts"));
    setAccessibleName(tr("Good and bad run of the selected link"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    heading_ = new QLabel(this);
    heading_->setObjectName(QStringLiteral("compareChartsHeading"));
    heading_->setWordWrap(true);
    layout->addWidget(heading_);
    auto* row = new QHBoxLayout;
    layout->addLayout(row, 1);
    const QString sides[2] = {tr("good"), tr("bad")};
    for (int i = 0; i < 2; ++i) {
        Pane& p = panes_[i];
        auto* column = new QVBoxLayout;
        p.title = new QLabel(this);
        p.title->setObjectName(i == 0 ? QStringLiteral("compareGoodTitle") : QStringLiteral("compareBadTitle"));
        p.title->setWordWrap(true);
        auto* c = new QChart();
        c->setMargins(QMargins(4, 4, 4, 4));
        c->setAnimationOptions(QChart::NoAnimation);
        c->legend()->setAlignment(Qt::AlignTop);
        QFont small = font();
        small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
        c->legend()->setFont(small);
        auto* x = new QCategoryAxis(c);
        x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        x->setTitleText(tr("Time (UTC)"));
        auto* y = new QValueAxis(c);
        y->setLabelFormat(QStringLiteral("%.0f"));
        y->setTitleText(tr("util. (%)"));
        for (QAbstractAxis* a : {static_cast<QAbstractAxis*>(x), static_cast<QAbstractAxis*>(y)}) {
            a->setLabelsFont(small);
            a->setTitleFont(small);
        }
        c->addAxis(x, Qt::AlignBottom);
        c->addAxis(y, Qt::AlignLeft);
        p.view = new TimeChartView(c, this);
        p.view->setObjectName(i == 0 ? QStringLiteral("compareGoodChart") : QStringLiteral("compareBadChart"));
        p.view->setAccessibleName(tr("Utilisation of the selected link in the %1 run's window").arg(sides[i]));
        p.view->setToolTip(tr("Utilisation (%) of the link's two directions in the %1 run's window (UTC); wheel or drag zooms").arg(sides[i]));
        p.view->setRenderHint(QPainter::Antialiasing);
        p.view->setMinimumHeight(150);
        p.up = addSeries(c, tr("up"), QColor(40, 110, 200));
        p.down = addSeries(c, tr("down"), QColor(230, 120, 30));
        p.view->setReadout([this, i](double t) { return readout(i, t); });
        connect(p.view, &TimeChartView::zoomRequested, this, [this, i](double t0, double t1, bool) {
            Pane& pane = panes_[i];
            pane.view->setTimeRange(std::max(t0, pane.t0), std::min(t1, pane.t1));
        });
        column->addWidget(p.title);
        column->addWidget(p.view, 1);
        row->addLayout(column, 1);
    }
    fill();
}

CompareCharts::~CompareCharts() = default;

QString CompareCharts::heading() const { return heading_->text(); }

void CompareCharts::setResult(std::shared_ptr<const CompareResult> result) {
    result_ = std::move(result);
    fill();
}

void CompareCharts::setPorts(std::vector<PortRef> ports) {
    ports_ = std::move(ports);
    fill();
}

void CompareCharts::fill() {
    float peak = 0;
    QString label, direction;
    for (int i = 0; i < 2; ++i) {
        Pane& p = panes_[i];
        p.up->clear();
        p.down->clear();
        links_[i] = -1;
        const QString side = i == 0 ? tr("good") : tr("bad");
        if (!result_) {
            p.title->setText(tr("<b>%1</b>").arg(side));
            p.view->setEmptyText(tr("No comparison: File > Compare… (Ctrl+Shift+C)."));
            continue;
        }
        const CompareSide& info = i == 0 ? result_->report.good : result_->report.bad;
        const StoreSnapshot* s = (i == 0 ? result_->good : result_->bad).get();
        p.t0 = info.start;
        p.t1 = info.end > info.start ? info.end : info.start + 1;
        p.title->setText(tr("<b>%1</b> — %2").arg(side, compareSideLabel(info).toHtmlEscaped()));
        p.view->setTimeRange(p.t0, p.t1);
        if (ports_.empty()) {
            p.view->setEmptyText(tr("Select a link, or a change in the Changes dock, to chart its good and bad windows."));
            continue;
        }
        const int l = s ? linkOfPorts(*s, ports_) : -1;
        if (l < 0) {
            p.view->setEmptyText(tr("This link is not in the %1 run's topology.").arg(side));
            continue;
        }
        links_[i] = l;
        const Link& link = s->fabric.links[static_cast<std::size_t>(l)];
        if (label.isEmpty()) label = qs(s->linkLabel(LinkId(static_cast<std::size_t>(l))));
        const auto& r = s->rates;
        if (r.empty() || static_cast<std::size_t>(l) >= r.links || r.step <= 0) {
            p.view->setEmptyText(tr("No counters for this link in the %1 run's store.").arg(side));
            continue;
        }
        const bool upIsAtoB = r.upIsAtoB.empty() || r.upIsAtoB[static_cast<std::size_t>(l)];
        const QString lower = qs(s->portLabel(upIsAtoB ? link.a : link.b)), upper = qs(s->portLabel(upIsAtoB ? link.b : link.a));
        if (direction.isEmpty()) direction = tr("up → %1, down → %2").arg(upper, lower);
        const auto li = static_cast<std::size_t>(l);
        peak = std::max({peak, chart(p.up, r, LinkMetric::UtilUp, li, p.t0, p.t1), chart(p.down, r, LinkMetric::UtilDown, li, p.t0, p.t1)});
        p.view->setEmptyText(p.up->count() == 0 && p.down->count() == 0 ? tr("No counters for this link in the %1 run's window.").arg(side)
                                                                        : QString());
    }
    for (const Pane& p : panes_)  // one y scale for both sides
        p.view->chart()->axes(Qt::Vertical).front()->setRange(0, std::max(100.0, std::ceil(static_cast<double>(peak) / 10) * 10));
    if (!result_) heading_->setText(tr("Compare mode: the good and the bad window of the selected link."));
    else if (label.isEmpty() && ports_.size() == 2)
        heading_->setText(tr("<b>%1 — %2</b>: utilisation in each run's window (%)")
                              .arg(qs(ports_[0].node + " p" + ports_[0].port).toHtmlEscaped(), qs(ports_[1].node + " p" + ports_[1].port).toHtmlEscaped()));
    else if (label.isEmpty()) heading_->setText(tr("Select a link to compare its windows."));
    else heading_->setText(tr("<b>%1</b>, utilisation (%) in each run's window").arg(label.toHtmlEscaped()));
    heading_->setToolTip(direction);  // "up → spine02 p3, down → leaf03 p21"
}

QString CompareCharts::readout(int side, double t) const {
    if (!result_ || links_[side] < 0) return {};
    const StoreSnapshot* s = (side == 0 ? result_->good : result_->bad).get();
    const auto& r = s->rates;
    if (r.empty() || r.step <= 0 || t < r.start) return {};
    const auto bin = static_cast<std::size_t>((t - r.start) / r.step);
    if (bin >= r.bins) return {};
    const auto l = static_cast<std::size_t>(links_[side]);
    auto pct = [](float v) { return std::isnan(v) ? tr("no data") : QStringLiteral("%1 %").arg(static_cast<double>(v), 0, 'f', 1); };
    return tr("%1 UTC — up %2, down %3").arg(utcText(r.binStart(bin)), pct(r.value(LinkMetric::UtilUp, l, bin)), pct(r.value(LinkMetric::UtilDown, l, bin)));
}

} // namespace fabscope
