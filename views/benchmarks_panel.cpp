#include "views/benchmarks_panel.h"

#include "core/analysis/analysis_config.h"
#include "core/analysis/capacity_history.h"
#include "core/byte_size.h"
#include "views/background_job.h"
#include "views/pair_matrix_view.h"
#include "views/pair_runs_chart.h"
#include "views/store_snapshot.h"
#include "views/utc_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

const QColor kPalette[] = {QColor(40, 110, 200), QColor(230, 120, 30), QColor(40, 160, 80), QColor(190, 50, 60),
                           QColor(130, 80, 190), QColor(120, 90, 60), QColor(220, 90, 170), QColor(90, 90, 90)};

QString runName(const CollectiveRun& r) {
    std::vector<std::string> hosts;
    for (const auto& h : r.hosts)
        if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
    QString where = hosts.empty() ? QObject::tr("hosts unknown")
                                  : QObject::tr("%n host(s)", nullptr, static_cast<int>(hosts.size()));
    if (hosts.size() <= 2 && !hosts.empty()) where = qs(hosts.front()) + (hosts.size() == 2 ? QStringLiteral(", ") + qs(hosts[1]) : QString());
    return QObject::tr("%1 #%2 (%3)").arg(qs(r.tool)).arg(r.id).arg(where);
}

QString num(double v, int prec = 3) { return QString::number(v, 'g', prec); }

QString assessmentLine(const CollectiveRun& run, const CollectiveAssessment& a) {
    QString s = QStringLiteral("<b>%1</b>: ").arg(runName(run).toHtmlEscaped());
    if (a.busbwGBs)
        s += QObject::tr("busbw %1 GB/s (= %2 Gb/s) at %3")
                 .arg(num(*a.busbwGBs, 4), num(*a.busbwGBs * 8, 4), qs(binarySize(a.largestBytes)));
    if (run.avgBusbwGBs) s += QObject::tr("; avg %1 GB/s").arg(num(*run.avgBusbwGBs, 4));
    if (a.bottleneck) {
        const auto& b = *a.bottleneck;
        s += QObject::tr("; bottleneck %1 p%2 → %3 p%4 at %5 Gb/s")
                 .arg(qs(b.txNode).toHtmlEscaped(), qs(b.txPort), qs(b.rxNode).toHtmlEscaped(), qs(b.rxPort), num(b.capacityGbps, 4));
        if (a.efficiency) s += QObject::tr(" (%1 % of it)").arg(*a.efficiency * 100, 0, 'f', 0);
    } else if (!a.note.empty()) {
        s += QStringLiteral("; ") + qs(a.note).toHtmlEscaped();
    }
    return s;
}

// What a load hands over: the runs tab's results and the pairwise matrix's judged runs.
struct Loaded {
    BenchmarkData results;
    std::shared_ptr<const PairMatrixData> pairs;
};

// The thresholds the analysis uses (the user's config file), else the defaults.
PairBenchmarkConfig pairConfig() {
    try {
        return loadUserConfig().pairBenchmark;
    } catch (const ConfigError&) {
        return {};
    }
}

} // namespace

BenchmarksPanel::BenchmarksPanel(QWidget* parent) : QWidget(parent), job_(new BackgroundJob(QStringLiteral("benchmarksJob"), this)) {
    setObjectName(QStringLiteral("benchmarksPanel"));
    setAccessibleName(tr("Benchmarks"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("benchmarksTabs"));
    tabs_->setAccessibleName(tr("Benchmark views"));
    layout->addWidget(tabs_);
    auto* split = new QSplitter(Qt::Vertical, tabs_);
    split->setObjectName(QStringLiteral("benchmarkRunsTab"));
    tabs_->addTab(split, tr("&Runs"));

    auto* top = new QWidget(split);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto* chart = new QChart();
    chart->setTitle(tr("nccl-tests: bus bandwidth by message size"));
    chart->setMargins(QMargins(4, 4, 20, 4));  // room for the last size label
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart_ = new QChartView(chart, top);
    chart_->setObjectName(QStringLiteral("busbwChart"));
    chart_->setAccessibleName(tr("Bus bandwidth versus message size chart"));
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumHeight(220);
    summary_ = new QLabel(tr("No nccl-tests run in this store."), top);
    summary_->setObjectName(QStringLiteral("benchmarkRunsSummary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    topLayout->addWidget(chart_, 1);
    topLayout->addWidget(summary_);

    table_ = new QTableWidget(0, 7, split);
    table_->setObjectName(QStringLiteral("perftestTable"));
    table_->setAccessibleName(tr("perftest results"));
    table_->setHorizontalHeaderLabels({tr("Pair"), tr("Test"), tr("Size"), tr("t_typical (µs)"), tr("p99 (µs)"),
                                       tr("BW avg (Gb/s)"), tr("Time (UTC)")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSortingEnabled(false);
    table_->verticalHeader()->hide();
    split->addWidget(top);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    // Pairwise: the matrix on the left, the selected pair's or host's runs on the right.
    auto* pairSplit = new QSplitter(Qt::Horizontal, tabs_);
    pairSplit->setObjectName(QStringLiteral("benchmarkPairwiseTab"));
    pairMatrix_ = new PairMatrixView(pairSplit);
    auto* right = new QWidget(pairSplit);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    pairChart_ = new PairRunsChart(right);
    pairInfo_ = new QLabel(right);
    pairInfo_->setObjectName(QStringLiteral("pairInfo"));
    pairInfo_->setWordWrap(true);
    pairInfo_->setTextFormat(Qt::PlainText);
    pairInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rightLayout->addWidget(pairChart_, 1);
    rightLayout->addWidget(pairInfo_);
    pairSplit->addWidget(pairMatrix_);
    pairSplit->addWidget(right);
    pairSplit->setStretchFactor(0, 3);
    pairSplit->setStretchFactor(1, 2);
    tabs_->addTab(pairSplit, tr("&Pairwise"));
    connect(pairMatrix_, &PairMatrixView::selectionChanged, this, &BenchmarksPanel::showPairSelection);
    setData({});
}

bool BenchmarksPanel::showFinding(const Finding& finding) {
    if (!pairMatrix_->showFinding(finding)) return false;
    tabs_->setCurrentWidget(tabs_->widget(1));
    return true;
}

void BenchmarksPanel::showPairSelection() {
    const PairMatrixData* d = pairMatrix_->data();
    const auto [row, col] = pairMatrix_->selectedCell();
    const int sel = pairMatrix_->currentSelector();
    if (!d || row < 0 || sel < 0) {
        pairChart_->clear({});
        pairInfo_->setText(d && !d->pb.empty() ? tr("Click a cell (or move with the arrow keys) for a pair's runs, a host's name for its row.")
                                               : QString());
        return;
    }
    const QString what = pairMatrix_->selectors()[static_cast<std::size_t>(sel)].label();
    const auto r = static_cast<std::size_t>(row);
    if (col < 0) {
        pairChart_->showRuns(*d, pairMatrix_->selectedRuns(), tr("%1: its %2 runs, one per peer").arg(qs(d->pb.hosts[r]), what), row);
        pairInfo_->setText(pairMatrix_->hostToolTip(r));
        return;
    }
    const auto c = static_cast<std::size_t>(col);
    pairChart_->showRuns(*d, pairMatrix_->selectedRuns(), tr("%1 ↔ %2: %3").arg(qs(d->pb.hosts[r]), qs(d->pb.hosts[c]), what));
    pairInfo_->setText(pairMatrix_->cellToolTip(r, c));
}

BenchmarksPanel::~BenchmarksPanel() = default;

QLineSeries* BenchmarksPanel::runSeries(int i) const {
    return i >= 0 && static_cast<std::size_t>(i) < outOfPlace_.size() ? outOfPlace_[static_cast<std::size_t>(i)] : nullptr;
}

void BenchmarksPanel::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    if (!snapshot || snapshot->path.empty()) {
        job_->drop();  // a load under way is of the store replaced
        setData({});
        pairMatrix_->setData(nullptr);
        return;
    }
    job_->run(
        [snapshot](const JobToken&) {
            const Store store(snapshot->path, Store::Mode::ReadOnly);
            const CapacityHistory capacities(store, snapshot->fabric, snapshot->snapshotId);
            Loaded out{collectBenchmarks(store, snapshot->fabric, capacities), nullptr};
            out.pairs = buildPairMatrixData(out.results.runs, snapshot->fabric, pairConfig());
            return out;
        },
        [this](const Loaded& l) {
            setData(l.results);
            pairMatrix_->setData(l.pairs);
            // A pairwise sweep is too many runs to chart at once: its matrix is the way in.
            if (l.pairs && l.pairs->pb.runs.size() > kMaxChartRuns) tabs_->setCurrentIndex(1);
            Q_EMIT loaded();
        },
        [this](const QString& error) {
            setData({});
            pairMatrix_->setData(nullptr);
            summary_->setText(tr("Cannot read benchmarks: %1").arg(error.toHtmlEscaped()));
            Q_EMIT loaded();
        });
}

void BenchmarksPanel::setData(const BenchmarkData& results) {
    QChart* chart = chart_->chart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    outOfPlace_.clear();
    // x: log2(size in bytes); labelled with binary units at powers of two
    auto* x = new QCategoryAxis(chart);
    x->setTitleText(tr("Message size (log₂ scale)"));
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    auto* y = new QValueAxis(chart);
    y->setTitleText(tr("busbw (GB/s)"));
    y->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double lo = 3, hi = 30, top = 0;
    bool any = false;
    const std::size_t charted = std::min(results.runs.size(), kMaxChartRuns);
    for (std::size_t i = 0; i < charted; ++i) {
        const auto& run = results.runs[i];
        const QColor colour = kPalette[i % std::size(kPalette)];
        auto* out = new QLineSeries(chart);
        out->setName(runName(run));
        out->setPen(QPen(colour, 2));
        auto* in = new QLineSeries(chart);
        in->setName(tr("%1 in-place").arg(runName(run)));
        in->setPen(QPen(colour, 1.3, Qt::DashLine));
        for (const auto& r : run.rows) {
            if (r.sizeBytes <= 0) continue;
            const double lx = std::log2(static_cast<double>(r.sizeBytes));
            if (r.busbwGBs) out->append(lx, *r.busbwGBs);
            if (r.inPlaceBusbwGBs) in->append(lx, *r.inPlaceBusbwGBs);
            for (const auto& v : {r.busbwGBs, r.inPlaceBusbwGBs})
                if (v) top = std::max(top, *v);
            lo = any ? std::min(lo, lx) : lx;
            hi = any ? std::max(hi, lx) : lx;
            any = true;
        }
        for (auto* s : {out, in}) {
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
        }
        outOfPlace_.push_back(out);
    }
    lo = std::floor(lo);
    hi = std::max(std::ceil(hi), lo + 1);
    // ticks at multiples of 1, 2, 5 or 10 powers of two: at most ~9, landing on 1 KiB, 1 MiB, 1 GiB
    int step = 10;
    for (const int c : {1, 2, 5})
        if ((hi - lo) / c <= 8) {
            step = c;
            break;
        }
    for (int e = static_cast<int>(lo); e <= static_cast<int>(hi); ++e)
        if (e % step == 0) x->append(qs(binarySize(std::int64_t{1} << std::clamp(e, 0, 62))), e);
    x->setRange(lo, hi);
    y->setRange(0, top > 0 ? top * 1.1 : 1.0);
    y->applyNiceNumbers();
    chart->legend()->setVisible(!results.runs.empty());

    QStringList lines;
    for (std::size_t i = 0; i < charted && i < results.assessments.size(); ++i)
        lines << assessmentLine(results.runs[i], results.assessments[i]);
    if (results.runs.size() > charted)
        lines << tr("… and %1 more runs, not charted here: the Pairwise tab shows the two-host runs by pair")
                     .arg(results.runs.size() - charted);
    summary_->setText(lines.isEmpty() ? tr("No nccl-tests run in this store.") : lines.join(QStringLiteral("<br>")));

    table_->setRowCount(static_cast<int>(results.perftest.size()));
    for (std::size_t i = 0; i < results.perftest.size(); ++i) {
        const auto& p = results.perftest[i];
        const auto opt = [](const std::optional<double>& v) { return v ? num(*v, 4) : QStringLiteral("—"); };
        const QStringList cells = {qs(p.src) + QStringLiteral(" → ") + qs(p.dst), qs(p.tool), qs(binarySize(p.msgBytes)),
                                   opt(p.latencyUs), opt(p.stat("p99_us")), opt(p.stat("bw_avg_gbps")),
                                   utcText(p.time)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 2 && c <= 5) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(static_cast<int>(i), c, item);
        }
    }
    table_->resizeColumnsToContents();
}

} // namespace fabscope
