#include "views/heatmap_view.h"

#include "core/timeseries/pixel_aggregate.h"
#include "core/worker_threads.h"
#include "views/background_job.h"
#include "views/store_snapshot.h"
#include "views/utc_text.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <thread>

namespace fabscope {
namespace {

constexpr int kLeft = 118, kTop = 74, kRight = 10, kBottom = 34;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
// Links per row of the reduced copy: 1/16 of one direction's data (every stored metric's copy
// together ~8 % of the rates: 37 MB against 478 MB on the large fabric); a pixel row of ~138
// links then reads ~8 group rows and ~15 links' rows at its edges instead of 138 (x2 for UtilMax).
constexpr std::size_t kGroup = 16;
// The metrics prepared in the background after a snapshot's first image (those stored, or the
// max of two stored directions; derived ones are computed when drawn).
constexpr LinkMetric kPrepared[] = {LinkMetric::UtilMax,     LinkMetric::UtilUp,     LinkMetric::UtilDown,
                                    LinkMetric::XmitWait,    LinkMetric::Errors,     LinkMetric::PfcPauseMax,
                                    LinkMetric::PfcPauseUp,  LinkMetric::PfcPauseDown, LinkMetric::EcnCnp};

QString qs(const std::string& s) { return QString::fromStdString(s); }

struct PoolJob {
    int generation = 0;
    LinkMetric metric = LinkMetric::UtilMax;  // the order's metric
    std::vector<std::uint32_t> order;
    std::vector<std::tuple<int, int, std::size_t, std::size_t>> bands;
    std::shared_ptr<const std::vector<float>> reduced;  // maxPoolGroups of the sources in `order`
    QImage image;
    double ms = 0;
    bool cancelled = false;  // stopped early: nothing in it is to be kept
};

// Runs job(t) for t in [0, n): this thread takes 0, one thread each the others.
template <typename Job>
void onThreads(std::size_t n, const Job& job) {
    std::vector<std::thread> others;
    for (std::size_t t = 1; t < n; ++t) others.emplace_back([&job, t] { job(t); });
    job(0);
    for (auto& t : others) t.join();
}

// The matrices whose max a metric's cell is: the stored one, or both directions of UtilMax and
// PfcPauseMax (pooled together in one pass: pooling commutes with max); none for derived metrics.
std::vector<const float*> sourcesOf(const LinkTimeSeries& r, LinkMetric m) {
    const std::size_t n = r.links * r.bins;
    if (const auto* stored = r.stored(m)) return {stored->data()};
    auto both = [n](const std::vector<float>& a, const std::vector<float>& b) -> std::vector<const float*> {
        if (n > 0 && a.size() == n && b.size() == n) return {a.data(), b.data()};
        return {};
    };
    if (m == LinkMetric::UtilMax) return both(r.utilUp, r.utilDown);
    if (m == LinkMetric::PfcPauseMax) return both(r.pfcUp, r.pfcDown);
    return {};
}

// `known` is the order, bands and reduced copy of an earlier job for the same store and metric:
// a resize, or a metric chosen again, reuses them and only pools and colours again. An empty
// size computes those alone (the background preparation), stopping early when `cancel` is set.
PoolJob compute(std::shared_ptr<const StoreSnapshot> snap, ColourScale scale, QSize size, int generation, const PoolJob* known,
                const std::atomic<bool>* cancel = nullptr) {
    QElapsedTimer timer;
    timer.start();
    PoolJob job;
    job.generation = generation;
    job.metric = scale.metric();
    const auto& r = snap->rates;
    const auto& f = snap->fabric;
    const std::size_t links = f.links.size();
    const std::size_t threads = std::clamp<std::size_t>(workerThreads(), 1, 16);
    std::vector<const float*> sources = sourcesOf(r, scale.metric());
    std::vector<float> derived;  // a derived metric (throughput) materialised on the worker threads
    if (sources.empty() && !r.empty()) {
        derived.resize(r.links * r.bins);
        onThreads(threads, [&](std::size_t t) {
            for (std::size_t l = r.links * t / threads; l < r.links * (t + 1) / threads; ++l)
                for (std::size_t b = 0; b < r.bins; ++b) derived[l * r.bins + b] = r.value(scale.metric(), l, b);
        });
        sources = {derived.data()};
    }
    auto stop = [cancel, &job] { return job.cancelled = job.cancelled || (cancel && cancel->load(std::memory_order_relaxed)); };
    if (known && known->order.size() == links) {
        job.order = known->order;
        job.bands = known->bands;
        job.reduced = known->reduced;
    } else {
        // Order: tier band (upper end's tier, then lower end's, highest first), then hotness
        // (the peak, over both directions where the metric has two), computed on the threads.
        struct Key {
            int upper, lower;
            float peak;  // -1 for no data
            std::uint32_t link;
        };
        std::vector<Key> keys(links);
        onThreads(threads, [&](std::size_t t) {
            for (std::size_t l = links * t / threads; l < links * (t + 1) / threads; ++l) {
                if (l % 1024 == 0 && cancel && cancel->load(std::memory_order_relaxed)) return;
                const int a = snap->tiers[f.port(f.links[l].a).node.value()], b = snap->tiers[f.port(f.links[l].b).node.value()];
                float peak = kNaN;
                if (!r.empty() && l < r.links)
                    for (const float* src : sources) {
                        const float p = maxOfRow(src + l * r.bins, r.bins);  // NaN-aware, as LinkTimeSeries::peak
                        if (!std::isnan(p) && !(p <= peak)) peak = p;
                    }
                keys[l] = {std::max(a, b), std::min(a, b), std::isnan(peak) ? -1.0f : peak, static_cast<std::uint32_t>(l)};
            }
        });
        if (stop()) return job;
        std::sort(keys.begin(), keys.end(), [](const Key& x, const Key& y) {
            if (x.upper != y.upper) return x.upper > y.upper;
            if (x.lower != y.lower) return x.lower > y.lower;
            if (x.peak != y.peak) return x.peak > y.peak;
            return x.link < y.link;
        });
        job.order.resize(links);
        for (std::size_t i = 0; i < links; ++i) {
            const Key& k = keys[i];
            job.order[i] = k.link;
            if (job.bands.empty() || std::get<0>(job.bands.back()) != k.upper || std::get<1>(job.bands.back()) != k.lower)
                job.bands.emplace_back(k.upper, k.lower, i, 0);
            ++std::get<3>(job.bands.back());
        }
    }
    if (r.empty() || r.links != links) return job;
    if (!job.reduced && derived.empty() && !sources.empty() && links >= kGroup) {
        // Each thread takes blocks of 256 groups in turn (cancel checked between blocks).
        auto reduced = std::make_shared<std::vector<float>>(links / kGroup * r.bins);
        const std::size_t groups = links / kGroup, block = 256;
        onThreads(threads, [&](std::size_t t) {
            for (std::size_t g = t * block; g < groups && !(cancel && cancel->load(std::memory_order_relaxed)); g += threads * block)
                maxPoolGroups(sources, r.bins, job.order, kGroup, g, std::min(groups, g + block), reduced->data());
        });
        if (stop()) return job;
        job.reduced = std::move(reduced);
    }
    if (size.width() <= 0 || size.height() <= 0) return job;
    const auto W = static_cast<std::size_t>(size.width()), H = static_cast<std::size_t>(size.height());
    // Rows in bands, one per thread: each pools its rows and colours them into the image.
    std::vector<float> cells(W * H);
    job.image = QImage(size, QImage::Format_RGB32);
    uchar* const bits = job.image.bits();  // detached here, before the threads write their rows
    const auto bytesPerLine = static_cast<std::size_t>(job.image.bytesPerLine());
    const std::size_t bands = std::min(threads, H);
    onThreads(bands, [&](std::size_t t) {
        const std::size_t y0 = H * t / bands, y1 = H * (t + 1) / bands;
        maxPoolRows(sources, r.bins, job.order, job.reduced ? job.reduced->data() : nullptr, kGroup, H, W, y0, y1, cells.data());
        for (std::size_t y = y0; y < y1; ++y) {
            auto* line = reinterpret_cast<QRgb*>(bits + y * bytesPerLine);
            for (std::size_t x = 0; x < W; ++x) line[x] = scale.rgb(cells[y * W + x]);
        }
    });
    job.ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    return job;
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent)
    : QWidget(parent), job_(new BackgroundJob(QStringLiteral("heatmapJob"), this, BackgroundJob::Policy::Coalesce)),
      prepJob_(new BackgroundJob(QStringLiteral("heatmapPrepare"), this, BackgroundJob::Policy::Replace)) {
    setObjectName(QStringLiteral("heatmapView"));
    setAccessibleName(tr("Links by time heatmap"));
    setAccessibleDescription(tr("One row per link, ordered by tier then hotness; colour is the chosen metric over time. "
                                "Click or Up/Down selects a link."));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 180);
}

HeatmapView::~HeatmapView() = default;

// Narrower than a readable header beside the 300 px legend, the legend goes under the header:
// a dock beside the charts is ~350 px wide, where the header shrank to "96 li…".
bool HeatmapView::legendBelowHeader() const { return width() < 640; }
int HeatmapView::headerHeight() const { return 4 + 3 * fontMetrics().height(); }
QRect HeatmapView::legendRect() const {
    return legendBelowHeader() ? QRect(8, headerHeight() + 4, std::min(292, width() - 16), kTop - 10)
                               : QRect(width() - 300, 4, 292, kTop - 10);
}
int HeatmapView::topMargin() const { return legendBelowHeader() ? legendRect().bottom() + 10 : kTop; }
QRect HeatmapView::plotRect() const { return rect().adjusted(kLeft, topMargin(), -kRight, -kBottom); }
int HeatmapView::legendLeft() const { return legendRect().left(); }

void HeatmapView::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    orderCache_.clear();
    order_.clear();
    bands_.clear();
    image_ = QImage();
    selectedLink_ = -1;
    repool();
}

void HeatmapView::setMetric(LinkMetric metric) {
    if (metric == scale_.metric()) return;
    scale_ = ColourScale(metric);
    repool();
}

void HeatmapView::setModeNote(const QString& note) {
    modeNote_ = note;
    update();
}

void HeatmapView::setTime(double t) {
    const int oldX = cursorX();
    time_ = t;
    const int x = cursorX();
    if (x == oldX) return;
    // Only the two columns of the line and the header with the time change.
    update(QRect(std::min(oldX, x) - 2, 0, std::abs(x - oldX) + 5, height()));
    update(QRect(0, 0, width(), topMargin()));
}

void HeatmapView::setSelectedLink(int link) {
    if (link == selectedLink_) return;
    selectedLink_ = link;
    update();
}

void HeatmapView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    repool();
}

void HeatmapView::repool() {
    ++generation_;
    prepJob_->drop();  // the redraw gets both threads; the preparation goes on after its image
    update();
    startJob();
}

void HeatmapView::startJob() {
    if (!snapshot_) return;
    // Coalesced: one image at a time; the latest request waits for the one under way.
    std::optional<PoolJob> known;
    if (const auto cached = orderCache_.find(scale_.metric()); cached != orderCache_.end()) {
        known.emplace();
        known->order = cached->second.order;
        known->reduced = cached->second.reduced;
        for (const auto& b : cached->second.bands) known->bands.emplace_back(b.upperTier, b.lowerTier, b.first, b.count);
    }
    job_->run([snap = snapshot_, scale = scale_, size = plotRect().size(), generation = generation_,
               known = std::move(known)](const JobToken&) { return compute(snap, scale, size, generation, known ? &*known : nullptr); },
              [this](PoolJob job) {
                  if (job.generation != generation_) return startJob();  // the size, metric or store changed meanwhile
                  order_ = std::move(job.order);
                  bands_.clear();
                  for (const auto& [u, l, first, count] : job.bands) bands_.push_back({u, l, first, count});
                  orderCache_[job.metric] = {order_, bands_, job.reduced};
                  image_ = std::move(job.image);
                  imageGeneration_ = job.generation;
                  poolMs_ = job.ms;
                  update();
                  Q_EMIT imageUpdated();
                  prepareNext();
              });
}

bool HeatmapView::preparing() const {
    if (!snapshot_ || snapshot_->rates.empty()) return false;
    return std::any_of(std::begin(kPrepared), std::end(kPrepared), [this](LinkMetric m) {
        return !orderCache_.contains(m) && !sourcesOf(snapshot_->rates, m).empty();
    });
}

void HeatmapView::prepareNext() {
    if (!snapshot_ || job_->busy() || imageGeneration_ != generation_) return;  // a redraw first
    const auto next = std::find_if(std::begin(kPrepared), std::end(kPrepared), [this](LinkMetric m) {
        return !orderCache_.contains(m) && !sourcesOf(snapshot_->rates, m).empty();
    });
    if (next == std::end(kPrepared)) {
        Q_EMIT metricsPrepared();
        return;
    }
    prepJob_->run([snap = snapshot_, m = *next](const JobToken& token) { return compute(snap, ColourScale(m), QSize(), 0, nullptr, token.flag()); },
                  [this, snap = snapshot_](PoolJob job) {
                      if (job.cancelled || snap != snapshot_ || orderCache_.contains(job.metric)) return;
                      Ordered& o = orderCache_[job.metric];
                      o.order = std::move(job.order);
                      for (const auto& [u, l, first, count] : job.bands) o.bands.push_back({u, l, first, count});
                      o.reduced = std::move(job.reduced);
                      prepareNext();
                  });
}

std::pair<std::size_t, std::size_t> HeatmapView::orderRangeOfY(int y) const {
    const QRect plot = plotRect();
    const std::size_t n = order_.size();
    const int r = y - plot.top();
    if (n == 0 || r < 0 || r >= plot.height()) return {0, 0};
    const auto H = static_cast<std::size_t>(plot.height()), ur = static_cast<std::size_t>(r);
    const std::size_t r0 = ur * n / H;
    return {r0, std::max(r0 + 1, (ur + 1) * n / H)};
}

std::pair<std::size_t, std::size_t> HeatmapView::binRangeOfX(int x) const {
    const QRect plot = plotRect();
    const std::size_t bins = snapshot_ ? snapshot_->rates.bins : 0;
    const int c = x - plot.left();
    if (bins == 0 || c < 0 || c >= plot.width()) return {0, 0};
    const auto W = static_cast<std::size_t>(plot.width()), uc = static_cast<std::size_t>(c);
    const std::size_t c0 = uc * bins / W;
    return {c0, std::max(c0 + 1, (uc + 1) * bins / W)};
}

std::pair<int, float> HeatmapView::hottestAt(QPoint p) const {
    const auto [r0, r1] = orderRangeOfY(p.y());
    const auto [c0, c1] = binRangeOfX(p.x());
    int best = -1;
    float bestV = kNaN;
    if (r0 == r1 || c0 == c1) return {best, bestV};
    for (std::size_t i = r0; i < r1; ++i)
        for (std::size_t b = c0; b < c1; ++b) {
            const float v = snapshot_->rates.value(scale_.metric(), order_[i], b);
            if (best < 0 || (!std::isnan(v) && (std::isnan(bestV) || v > bestV))) best = static_cast<int>(order_[i]), bestV = v;
        }
    return {best, bestV};
}

int HeatmapView::linkAt(QPointF pos) const {
    const QPoint p = pos.toPoint();
    if (!plotRect().contains(p) || order_.empty()) return -1;
    if (snapshot_->rates.empty()) return static_cast<int>(order_[orderRangeOfY(p.y()).first]);
    return hottestAt(p).first;
}

std::optional<int> HeatmapView::rowYOfLink(int link) const {
    const auto it = std::find(order_.begin(), order_.end(), static_cast<std::uint32_t>(link));
    if (it == order_.end()) return std::nullopt;
    const auto k = static_cast<std::size_t>(it - order_.begin());
    const QRect plot = plotRect();
    for (int y = plot.top(); y <= plot.bottom(); ++y) {
        const auto [r0, r1] = orderRangeOfY(y);
        if (k >= r0 && k < r1) {
            // The middle of the link's rows when it has several.
            int y1 = y;
            while (y1 + 1 <= plot.bottom() && orderRangeOfY(y1 + 1).first == r0) ++y1;
            return (y + y1) / 2;
        }
    }
    return std::nullopt;
}

void HeatmapView::setMarkedWindows(std::vector<MarkedWindow> windows) {
    marked_ = std::move(windows);
    update();
}

QRect HeatmapView::markedLabelRect(const MarkedWindow& w) const {
    const QRect plot = plotRect();
    if (!snapshot_ || snapshot_->rates.empty()) return {};
    const int x0 = std::max(plot.left(), xOfTime(w.from)), x1 = std::min(plot.right(), xOfTime(w.to));
    if (x1 < x0) return {};
    const QFontMetrics fm = fontMetrics();
    const int width = fm.horizontalAdvance(w.label) + 6;
    return {std::max(plot.left(), std::min(x0 + 2, plot.right() - width)), plot.top() + 2, width, fm.height() + 2};  // inside the plot
}

int HeatmapView::xOfTime(double t) const {
    const QRect plot = plotRect();
    if (!snapshot_ || snapshot_->rates.empty()) return plot.left();
    const TimeRange span = snapshot_->rates.span();
    return plot.left() + static_cast<int>(std::floor(span.fraction(t) * plot.width()));
}

std::vector<TimeTick> HeatmapView::timeAxisTicks() const {
    if (!snapshot_ || snapshot_->rates.empty()) return {};
    const TimeRange span = snapshot_->rates.span();
    return timeTicks(span.start, span.end, std::clamp(plotRect().width() / 80, 2, 8));  // "22:15:00", 80 px apart at least
}

QString HeatmapView::timeAxisTitle() const {
    if (!snapshot_ || snapshot_->rates.empty()) return tr("time (UTC)");
    const TimeRange span = snapshot_->rates.span();
    return tr("time (UTC), %1").arg(utcDates(span.start, span.end));
}

QString HeatmapView::tooltipAt(QPointF pos) const {
    if (snapshot_ && !snapshot_->rates.empty() && legendRect().contains(pos.toPoint())) return scale_.legendTooltip();
    for (const MarkedWindow& w : marked_)
        if (markedLabelRect(w).contains(pos.toPoint()))
            return tr("<b>%1</b> window: %2 UTC").arg(w.label.toHtmlEscaped(), utcSpanText(w.from, w.to));
    if (!snapshot_ || snapshot_->rates.empty() || !plotRect().contains(pos.toPoint())) return {};
    const auto [link, value] = hottestAt(pos.toPoint());
    if (link < 0) return {};
    const auto [r0, r1] = orderRangeOfY(pos.toPoint().y());
    const auto [c0, c1] = binRangeOfX(pos.toPoint().x());
    const auto& r = snapshot_->rates;
    const double t0 = r.binStart(c0), t1 = r.binStart(c1);
    const QString when = c1 - c0 > 1 ? tr("%1 UTC").arg(utcSpanText(t0, t1))
                                     : tr("%1 UTC").arg(utcText(t0));
    QString text = tr("<b>%1</b><br>%2<br>%3: %4")
                       .arg(qs(snapshot_->linkLabel(LinkId(static_cast<std::size_t>(link)))).toHtmlEscaped(), when, scale_.name(),
                            scale_.format(static_cast<double>(value)));
    if (r1 - r0 > 1) text += tr("<br>(hottest of the %1 links in this pixel row)").arg(r1 - r0);
    return text;
}

bool HeatmapView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(e);
    const int link = linkAt(e->position());
    if (link < 0) return;
    setSelectedLink(link);
    Q_EMIT linkClicked(link);
    const auto [c0, c1] = binRangeOfX(e->position().toPoint().x());
    if (c1 > c0) Q_EMIT timeClicked(snapshot_->rates.binStart(c0));
}

void HeatmapView::keyPressEvent(QKeyEvent* e) {
    if ((e->key() != Qt::Key_Up && e->key() != Qt::Key_Down) || order_.empty()) return QWidget::keyPressEvent(e);
    const auto it = std::find(order_.begin(), order_.end(), static_cast<std::uint32_t>(std::max(selectedLink_, 0)));
    std::ptrdiff_t k = selectedLink_ < 0 || it == order_.end() ? -1 : it - order_.begin();
    k = std::clamp<std::ptrdiff_t>(k + (e->key() == Qt::Key_Down ? 1 : -1), 0, static_cast<std::ptrdiff_t>(order_.size()) - 1);
    const int link = static_cast<int>(order_[static_cast<std::size_t>(k)]);
    setSelectedLink(link);
    Q_EMIT linkClicked(link);
}

void HeatmapView::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    p.setClipRect(event->rect());
    p.fillRect(rect(), palette().window());
    const QRect plot = plotRect();
    const QFontMetrics fm = p.fontMetrics();
    p.setPen(palette().text().color());
    if (!snapshot_ || snapshot_->fabric.links.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No fabric loaded."));
        return;
    }
    const auto& r = snapshot_->rates;
    // The header stops short of the legend beside it (elided if it must), or has the width when
    // the legend is below it.
    const int headerWidth = std::max(0, (legendBelowHeader() ? width() : legendLeft()) - 8 - 8);
    auto header = [&](int line, const QString& text) {
        p.drawText(QPointF(8, 4 + line * fm.height() + fm.ascent()), fm.elidedText(text, Qt::ElideRight, headerWidth));
    };
    header(0, tr("%1 links x %2 samples (%3 s each)").arg(snapshot_->fabric.links.size()).arg(r.bins).arg(r.step));
    header(1, tr("Cursor %1 UTC").arg(utcText(time_, QStringLiteral("yyyy-MM-dd HH:mm:ss"))));
    header(2, tr("max-pooled into %1 x %2 px (width x height)").arg(plot.width()).arg(plot.height()));
    if (r.empty()) {  // nothing is coloured: no colour scale
        p.drawText(plot, Qt::AlignCenter, tr("No counters in this store."));
        return;
    }
    scale_.paintLegend(p, legendRect());
    if (!image_.isNull()) p.drawImage(plot.topLeft(), image_);  // 1:1; a stale image shows until the new one lands
    if (!imageReady()) p.drawText(plot.adjusted(4, 4, 0, 0), Qt::AlignLeft | Qt::AlignTop, tr("pooling…"));
    p.setPen(QColor(90, 90, 90));
    p.drawRect(plot.adjusted(-1, -1, 0, 0));

    // Tier bands on the left, with separators.
    const auto n = static_cast<double>(order_.size());
    for (const Band& b : bands_) {
        const int y0 = plot.top() + static_cast<int>(std::ceil(static_cast<double>(b.first) * plot.height() / n));
        const int y1 = plot.top() + static_cast<int>(std::ceil(static_cast<double>(b.first + b.count) * plot.height() / n));
        if (b.first > 0) {
            p.setPen(QColor(255, 255, 255));
            p.drawLine(plot.left(), y0, plot.right(), y0);
            p.setPen(QColor(40, 40, 40));
            p.drawLine(4, y0, plot.left() - 2, y0);
        }
        p.setPen(palette().text().color());
        const QString label = tr("tier %1–%2\n%n link(s)", nullptr, static_cast<int>(b.count)).arg(b.upperTier).arg(b.lowerTier);
        if (y1 - y0 >= 2 * fm.height()) p.drawText(QRect(4, y0, kLeft - 10, y1 - y0), Qt::AlignVCenter | Qt::AlignRight, label);
        else if (y1 - y0 >= fm.height()) p.drawText(QRect(4, y0, kLeft - 10, y1 - y0), Qt::AlignVCenter | Qt::AlignRight, label.section(QLatin1Char('\n'), 0, 0));
    }
    // Marked windows: a strip above the plot (between it and the legend) and the label at the top.
    for (const MarkedWindow& w : marked_) {
        const QRect label = markedLabelRect(w);
        if (label.isEmpty()) continue;
        const int x0 = std::max(plot.left(), xOfTime(w.from)), x1 = std::min(plot.right(), xOfTime(w.to));
        p.fillRect(QRect(x0, plot.top() - 5, x1 - x0 + 1, 4), w.colour);
        p.fillRect(label, QColor(255, 255, 255, 235));
        p.setPen(w.colour);
        p.drawText(label, Qt::AlignCenter, w.label);
    }
    // A mode note over the plot's foot (the coolest rows of the lowest tiers), wrapped: the header
    // is too narrow in a small dock.
    if (!modeNote_.isEmpty()) {
        p.save();
        QFont bold = p.font();
        bold.setBold(true);
        p.setFont(bold);
        const QRect room = plot.adjusted(4, 4, -4, -4);
        const QRect box = p.boundingRect(room, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, modeNote_).adjusted(-3, -2, 3, 2) & plot;
        p.fillRect(box, QColor(255, 255, 255, 235));
        p.setPen(QColor(170, 20, 30));
        p.drawText(box.adjusted(3, 2, -3, -2), Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, modeNote_);
        p.restore();
    }
    // The selected link: a marker in the margin and a thin frame around its row.
    if (selectedLink_ >= 0)
        if (auto y = rowYOfLink(selectedLink_)) {
            p.setPen(QPen(QColor(20, 20, 20), 2));
            p.drawLine(plot.left() - 10, *y, plot.left() - 2, *y);
            p.setPen(QPen(QColor(20, 20, 20, 160), 1, Qt::DashLine));
            p.drawLine(plot.left(), *y, plot.right(), *y);
        }
    // Time axis (UTC), ticked on round times.
    p.setPen(palette().text().color());
    int labelsEnd = std::numeric_limits<int>::min();  // a label that would touch the previous one is left out
    for (const TimeTick& tick : timeAxisTicks()) {
        const int x = xOfTime(tick.t);
        p.drawLine(x, plot.bottom() + 1, x, plot.bottom() + 4);
        const QString& label = tick.label;
        const int w = fm.horizontalAdvance(label);
        const int left = std::clamp(x - w / 2, plot.left() - 20, width() - w - 2);
        if (left < labelsEnd + fm.horizontalAdvance(QLatin1Char(' ')) * 2) continue;
        p.drawText(left, plot.bottom() + 4 + fm.ascent(), label);
        labelsEnd = left + w;
    }
    p.drawText(QRect(plot.left(), plot.bottom() + 4 + fm.height(), plot.width(), fm.height()), Qt::AlignHCenter, timeAxisTitle());
    // The shared cursor.
    const int cx = cursorX();
    p.setPen(QPen(QColor(0, 0, 0), 1));
    p.drawLine(cx, plot.top() - 4, cx, plot.bottom() + 1);
    p.setPen(QPen(QColor(255, 255, 255), 1));
    p.drawLine(cx + 1, plot.top(), cx + 1, plot.bottom());
}

} // namespace fabscope
