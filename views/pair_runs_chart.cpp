#include "views/pair_runs_chart.h"

#include "core/byte_size.h"
#include "views/pair_matrix_view.h"

#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString gbs(double v) { return QString::number(v, 'f', v < 10 ? 2 : 1); }

const QColor kPalette[] = {QColor(40, 110, 200), QColor(230, 120, 30), QColor(40, 160, 80), QColor(190, 50, 60),
                           QColor(130, 80, 190), QColor(120, 90, 60), QColor(220, 90, 170), QColor(90, 90, 90)};

constexpr std::size_t kLegendMax = 8;  // more series than this: the legend would hide the chart

} // namespace

PairRunsChart::PairRunsChart(QWidget* parent) : QChartView(new QChart(), parent) {
    setObjectName(QStringLiteral("pairRunsChart"));
    setAccessibleName(tr("Bus bandwidth versus message size of the selected pair's runs"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(200, 200);
    chart()->setMargins(QMargins(4, 4, 20, 4));  // room for the last size label
    chart()->setAnimationOptions(QChart::NoAnimation);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    clear({});
}

void PairRunsChart::clear(const QString& title) {
    QChart* c = chart();
    c->removeAllSeries();
    for (auto* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    runs_.clear();
    medians_.clear();
    sizes_ = nullptr;
    c->setTitle(title);
    c->legend()->setVisible(false);
}

void PairRunsChart::showRuns(const PairMatrixData& d, const std::vector<std::size_t>& runs, const QString& title, int host) {
    clear(title);
    if (runs.empty()) return;
    QChart* c = chart();
    auto* x = new QCategoryAxis(c);
    x->setTitleText(tr("Message size (log₂ scale)"));
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    auto* y = new QValueAxis(c);
    y->setTitleText(tr("busbw (GB/s)"));
    y->setLabelFormat(QStringLiteral("%.1f"));
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    double lo = 0, hi = 0, top = 0;
    bool any = false;
    const auto extend = [&](double lx, double v) {
        lo = any ? std::min(lo, lx) : lx;
        hi = any ? std::max(hi, lx) : lx;
        top = std::max(top, v);
        any = true;
    };
    const auto add = [&](QLineSeries* s) {
        c->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    std::map<std::size_t, double> classFrom;  // class -> the smallest size its figure averages (log2)
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const PairRun& r = d.pb.runs[runs[i]];
        const CollectiveRun* run = d.run(r.runId);
        if (!run) continue;
        auto* s = new QLineSeries(c);
        const QColor colour = kPalette[i % std::size(kPalette)];
        s->setPen(QPen(r.slow && host < 0 ? QColor(190, 30, 40) : colour, r.failed() ? 1.5 : 2, r.failed() ? Qt::DotLine : Qt::SolidLine));
        const QString who = host >= 0 ? qs(r.hostA == d.pb.hosts[static_cast<std::size_t>(host)] ? r.hostB : r.hostA)
                                      : QStringLiteral("#%1").arg(r.runId);
        if (r.failed()) s->setName(tr("%1: failed (%2)").arg(who, qs(r.failure)));
        else s->setName(tr("%1: %2 GB/s%3").arg(who, r.figureGBs ? gbs(*r.figureGBs) : QStringLiteral("—"), r.slow ? tr(", slow") : QString()));
        double from = -1, largest = -1;  // the figure's first size, and the largest (log2)
        for (const auto& row : run->rows) {
            const auto v = row.busbwGBs ? row.busbwGBs : row.inPlaceBusbwGBs;
            if (row.sizeBytes <= 0 || !v) continue;
            const double lx = std::log2(static_cast<double>(row.sizeBytes));
            s->append(lx, *v);
            extend(lx, *v);
            largest = std::max(largest, lx);
            if (static_cast<double>(row.sizeBytes) >= d.minSizeBytes && (from < 0 || lx < from)) from = lx;
        }
        if (s->count() == 0) {
            delete s;
            continue;
        }
        add(s);
        runs_.push_back(s);
        if (!r.failed()) {
            const double figureFrom = from >= 0 ? from : largest;
            auto [it, fresh] = classFrom.emplace(r.classIndex, figureFrom);
            if (!fresh) it->second = std::min(it->second, figureFrom);
        }
    }
    // Each class's median over the sizes the figure averages (>= 32 MiB, or the largest size).
    for (const auto& [ci, from] : classFrom) {
        const PairClass& pc = d.pb.classes[ci];
        if (!pc.medianGBs) continue;
        auto* m = new QLineSeries(c);
        QString name = tr("median %1 GB/s").arg(gbs(*pc.medianGBs));
        if (classFrom.size() > 1 && pc.distance != PairDistance::Unknown) {
            QString where = QString::fromLatin1(toString(pc.distance).data(), static_cast<int>(toString(pc.distance).size()));
            name += QStringLiteral(" (") + where.replace(QLatin1Char('_'), QLatin1Char(' ')) + QLatin1Char(')');
        }
        m->setName(name);
        m->setPen(QPen(QColor(60, 60, 60), 1.6, Qt::DashLine));
        const double end = std::max(hi, from + 0.5);
        m->append(std::min(from, end), *pc.medianGBs);
        m->append(end, *pc.medianGBs);
        extend(from, *pc.medianGBs);
        add(m);
        medians_.push_back(m);
    }
    if (!any) {
        clear(title + tr(" — no result table to chart"));
        return;
    }
    lo_ = std::floor(lo);
    hi_ = std::max(std::ceil(hi), lo_ + 1);
    sizes_ = x;
    labelSizes();
    x->setRange(lo_, hi_);
    y->setRange(0, top > 0 ? top * 1.1 : 1.0);
    y->applyNiceNumbers();
    c->legend()->setVisible(runs_.size() + medians_.size() <= kLegendMax);
}

void PairRunsChart::labelSizes() {
    if (!sizes_) return;
    for (const QString& label : sizes_->categoriesLabels()) sizes_->remove(label);
    // Ticks at multiples of 1, 2, 5 or 10 powers of two: at most ~9, fewer than one per 70 px.
    const double fits = std::clamp((width() - 90) / 70.0, 1.0, 8.0);
    int step = 10;
    for (const int s : {1, 2, 5})
        if ((hi_ - lo_) / s <= fits) {
            step = s;
            break;
        }
    for (int e = static_cast<int>(lo_); e <= static_cast<int>(hi_); ++e)
        if (e % step == 0) sizes_->append(qs(binarySize(std::int64_t{1} << std::clamp(e, 0, 62))), e);
    sizes_->setRange(lo_, hi_);
}

void PairRunsChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    labelSizes();
}

} // namespace fabscope
