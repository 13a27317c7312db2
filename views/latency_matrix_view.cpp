#include "views/latency_matrix_view.h"

#include "views/background_job.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace fabscope {
namespace {

constexpr int kLeft = 96, kTop = 34, kLegend = 44, kMargin = 6;
constexpr std::size_t kMaxRoutes = 64;  // lossy_link.max_routes' default: enough to pick the main route

QString qs(const std::string& s) { return QString::fromStdString(s); }

// White -> yellow -> red -> dark red, for t in 0..1: hot cells stand out on a pale mesh.
QColor heat(double t) {
    t = std::clamp(t, 0.0, 1.0);
    const QColor stops[] = {QColor(255, 255, 240), QColor(253, 210, 90), QColor(230, 70, 40), QColor(120, 0, 20)};
    const double x = t * 3;
    const int i = std::min(2, static_cast<int>(x));
    const double f = x - i;
    const QColor &a = stops[i], &b = stops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

} // namespace

// Paints the matrix, its group labels and legend; forwards hover and clicks to the view.
class MatrixCanvas : public QWidget {
public:
    explicit MatrixCanvas(LatencyMatrixView* view) : QWidget(view), view_(view) {
        setObjectName(QStringLiteral("latencyMatrixCanvas"));
        setAccessibleName(tr("Latency matrix cells"));
        setMouseTracking(true);
        setMinimumSize(260, 220);
    }
    [[nodiscard]] int cellSize() const {
        const int n = std::max<int>(1, static_cast<int>(view_->matrix().size()));
        return std::max(2, std::min((width() - kLeft - kMargin) / n, (height() - kTop - kLegend) / n));
    }
    // (src, dst) under a point, or (-1, -1)
    [[nodiscard]] std::pair<int, int> cellAt(QPoint p) const {
        const int n = static_cast<int>(view_->matrix().size()), c = cellSize();
        const int col = (p.x() - kLeft) / c, row = (p.y() - kTop) / c;
        if (p.x() < kLeft || p.y() < kTop || col >= n || row >= n) return {-1, -1};
        return {row, col};
    }

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override {
        const auto [r, c] = cellAt(e->position().toPoint());
        if (r >= 0 && r != c) view_->selectCell(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
    }
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const auto [r, c] = cellAt(help->pos());
            const QString tip = r >= 0 ? view_->cellToolTip(static_cast<std::size_t>(r), static_cast<std::size_t>(c)) : QString();
            if (tip.isEmpty()) QToolTip::hideText();
            else QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        return QWidget::event(e);
    }

private:
    LatencyMatrixView* view_;
};

void MatrixCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const ProbeMatrix& m = view_->matrix();
    const std::size_t n = m.size();
    if (n == 0) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect(), Qt::AlignCenter, tr("No probe data in this window."));
        return;
    }
    const bool loss = view_->mode() == LatencyMatrixView::Mode::Loss;
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (const auto v = view_->cellValue(i, j)) lo = std::min(lo, *v), hi = std::max(hi, *v);
    if (loss) lo = 0, hi = std::max(hi, 1.0);  // loss: 0 is white; below 1 % never looks alarming
    if (hi <= lo) hi = lo + 1;
    const int c = cellSize();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const QRect r = view_->cellRect(i, j);
            const auto v = view_->cellValue(i, j);
            p.fillRect(r, i == j ? QColor(200, 200, 200) : v ? heat((*v - lo) / (hi - lo)) : QColor(235, 235, 235));
        }
    // Group separators: thin between leaves, thick between pods; labels for rows and leaf columns.
    const int side = static_cast<int>(n) * c;
    // Pods are worth naming only when one holds several leaves (a 3-tier fabric).
    std::map<int, std::set<std::string>> leavesOfPod;
    for (std::size_t i = 0; i < n; ++i) leavesOfPod[m.podOf[i]].insert(m.leafOf[i]);
    const bool podsShown = std::any_of(leavesOfPod.begin(), leavesOfPod.end(), [](const auto& e) { return e.second.size() > 1; });
    QFont small = font();
    small.setPointSizeF(std::clamp(c * 0.7, 6.0, 9.0));
    p.setFont(small);
    for (std::size_t i = 0; i <= n; ++i) {
        const bool edge = i == 0 || i == n;
        const bool newLeaf = edge || m.leafOf[i] != m.leafOf[i - 1];
        if (!newLeaf) continue;
        const bool newPod = edge || m.podOf[i] != m.podOf[i - 1];
        p.setPen(QPen(QColor(40, 40, 40), newPod ? 2.0 : 1.0));
        const int at = static_cast<int>(i) * c;
        p.drawLine(kLeft + at, kTop, kLeft + at, kTop + side);
        p.drawLine(kLeft, kTop + at, kLeft + side, kTop + at);
        if (i == n) break;
        std::size_t end = i + 1;
        while (end < n && m.leafOf[end] == m.leafOf[i]) ++end;
        const int w = static_cast<int>(end - i) * c;
        p.setPen(palette().color(QPalette::Text));
        const QString leafLabel = podsShown ? tr("%1 (pod %2)").arg(qs(m.leafOf[i])).arg(m.podOf[i] + 1) : qs(m.leafOf[i]);
        p.drawText(QRect(kLeft + at, 2, w, kTop - 4), Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, leafLabel);
    }
    if (c >= 8)
        for (std::size_t i = 0; i < n; ++i)
            p.drawText(QRect(2, kTop + static_cast<int>(i) * c, kLeft - 6, c), Qt::AlignRight | Qt::AlignVCenter, qs(m.hosts[i]));
    else
        p.drawText(QRect(2, kTop, kLeft - 6, side), Qt::AlignRight | Qt::AlignVCenter | Qt::TextWordWrap, tr("source host (rows)"));
    // The selected pair
    const auto [sr, sc] = view_->selectedCell();
    if (sr >= 0 && static_cast<std::size_t>(sr) < n && static_cast<std::size_t>(sc) < n) {
        p.setPen(QPen(QColor(20, 90, 220), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(view_->cellRect(static_cast<std::size_t>(sr), static_cast<std::size_t>(sc)).adjusted(0, 0, -1, -1));
    }
    // Legend: the gradient with its ends and unit.
    const int ly = kTop + side + 8, lw = std::min(260, std::max(120, side));
    for (int x = 0; x < lw; ++x) p.fillRect(kLeft + x, ly, 1, 10, heat(static_cast<double>(x) / (lw - 1)));
    p.setPen(palette().color(QPalette::Text));
    p.drawRect(kLeft, ly, lw, 10);
    const QString unit = loss ? tr("loss (%)") : tr("p99 RTT (µs)");
    p.drawText(QRect(kLeft, ly + 12, lw, 16), Qt::AlignLeft, QString::number(lo, 'g', 3));
    p.drawText(QRect(kLeft, ly + 12, lw, 16), Qt::AlignRight, QString::number(hi, 'g', 3));
    p.drawText(QRect(kLeft + lw + 8, ly - 3, std::max(80, width() - kLeft - lw - 10), 16), Qt::AlignLeft, unit);
    p.drawText(QRect(kLeft + lw + 8, ly + 12, std::max(80, width() - kLeft - lw - 10), 16), Qt::AlignLeft,
               tr("rows: source, columns: destination; grey: not measured"));
}

LatencyMatrixView::LatencyMatrixView(TimeController* time, SelectionController* selection, QWidget* parent)
    : QWidget(parent), time_(time), selection_(selection), job_(new BackgroundJob(QStringLiteral("latencyMatrixJob"), this)) {
    setObjectName(QStringLiteral("latencyMatrixView"));
    setAccessibleName(tr("Latency matrix"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    auto* label = new QLabel(tr("Colour by:"), this);
    modeBox_ = new QComboBox(this);
    modeBox_->setObjectName(QStringLiteral("latencyMatrixMode"));
    modeBox_->setAccessibleName(tr("Colour latency matrix by"));
    modeBox_->addItem(tr("p99 RTT (µs)"));
    modeBox_->addItem(tr("Loss rate (%)"));
    label->setBuddy(modeBox_);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("latencyMatrixStatus"));
    top->addWidget(label);
    top->addWidget(modeBox_);
    top->addWidget(status_, 1);
    layout->addLayout(top);
    canvas_ = new MatrixCanvas(this);
    layout->addWidget(canvas_, 1);
    connect(modeBox_, &QComboBox::currentIndexChanged, this, [this](int i) { setMode(i == 1 ? Mode::Loss : Mode::P99); });
    if (time_) {
        connect(time_, &TimeController::selectionChanged, this, [this] { recompute(); });
        connect(time_, &TimeController::spanChanged, this, [this] { recompute(); });
    }
    setMatrix({});
}

LatencyMatrixView::~LatencyMatrixView() = default;

void LatencyMatrixView::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    recompute();
}

void LatencyMatrixView::setMode(Mode mode) {
    mode_ = mode;
    modeBox_->setCurrentIndex(mode == Mode::Loss ? 1 : 0);
    canvas_->update();
}

void LatencyMatrixView::recompute() {
    if (!snapshot_ || snapshot_->path.empty()) {
        job_->drop();  // a computation under way is of the store replaced
        setMatrix({});
        return;
    }
    // The controller's selection is the window; without one, every probe counts.
    double from = std::numeric_limits<double>::lowest(), to = std::numeric_limits<double>::max();
    if (time_ && time_->selection()) from = time_->selection()->start, to = time_->selection()->end;
    status_->setText(tr("Computing…"));
    job_->run(
        [snapshot = snapshot_, from, to](const JobToken&) {
            const Store store(snapshot->path, Store::Mode::ReadOnly);
            return buildProbeMatrix(loadProbePairs(store, snapshot->fabric, from, to, kMaxRoutes), snapshot->fabric);
        },
        [this](ProbeMatrix matrix) {
            setMatrix(std::move(matrix));
            Q_EMIT loaded();
        },
        [this](const QString& error) {
            setMatrix({});
            status_->setText(tr("Cannot read probes: %1").arg(error));
            Q_EMIT loaded();
        });
}

void LatencyMatrixView::setMatrix(ProbeMatrix matrix) {
    matrix_ = std::move(matrix);
    selected_ = {-1, -1};
    status_->setText(matrix_.size() == 0 ? tr("No probe data in this window.")
                                         : tr("%1: %n host(s), %2 pairs", nullptr, static_cast<int>(matrix_.size()))
                                               .arg(qs(matrix_.tool)).arg(matrix_.pairs.size()));
    canvas_->update();
}

std::optional<double> LatencyMatrixView::cellValue(std::size_t src, std::size_t dst) const {
    if (src >= matrix_.size() || dst >= matrix_.size()) return std::nullopt;
    const ProbePair* p = matrix_.at(src, dst);
    if (!p) return std::nullopt;
    if (mode_ == Mode::Loss) return p->sent > 0 ? std::optional<double>(p->lossRate() * 100) : std::nullopt;
    return p->p99;
}

QRect LatencyMatrixView::cellRect(std::size_t src, std::size_t dst) const {
    const int c = static_cast<const MatrixCanvas*>(canvas_)->cellSize();
    return {kLeft + static_cast<int>(dst) * c, kTop + static_cast<int>(src) * c, c, c};
}

QString LatencyMatrixView::cellToolTip(std::size_t src, std::size_t dst) const {
    if (src >= matrix_.size() || dst >= matrix_.size() || src == dst) return {};
    const ProbePair* p = matrix_.at(src, dst);
    const QString head = qs(matrix_.hosts[src]) + QStringLiteral(" -> ") + qs(matrix_.hosts[dst]);
    if (!p) return tr("%1: not measured in this window").arg(head);
    const auto us = [](const std::optional<double>& v) { return v ? QString::number(*v, 'f', 2) : QStringLiteral("—"); };
    return tr("%1: p50 %2 µs, p99 %3 µs, jitter %4 µs, loss %5% (%6 probes)")
        .arg(head, us(p->p50), us(p->p99), us(p->jitter()), QString::number(p->lossRate() * 100, 'f', 2))
        .arg(p->sent);
}

void LatencyMatrixView::selectCell(std::size_t src, std::size_t dst) {
    const ProbePair* p = src < matrix_.size() && dst < matrix_.size() ? matrix_.at(src, dst) : nullptr;
    if (!p || !snapshot_) return;
    selected_ = {static_cast<int>(src), static_cast<int>(dst)};
    canvas_->update();
    if (selection_) selection_->selectPort(static_cast<int>(p->srcPort.value()));
    // The route most of its probes took, drawn like a slow_pair finding's path.
    FindingFocus focus;
    const WeightedRoute* best = nullptr;
    for (const auto& r : p->forward.routes)
        if (!best || r.weight > best->weight) best = &r;
    if (best) {
        const Fabric& f = snapshot_->fabric;
        for (const Hop& h : best->hops) {
            if (const auto l = snapshot_->linkOf(h.tx)) {
                focus.pathLinks.push_back(l->value());
                focus.links.push_back(l->value());
            }
            focus.nodes.push_back(f.port(h.tx).node.value());
        }
        if (!best->hops.empty()) focus.nodes.push_back(f.port(best->hops.back().rx).node.value());
        focus.primaryLink = focus.pathLinks.empty() ? -1 : static_cast<int>(focus.pathLinks.front());
        focus.primaryNode = focus.nodes.empty() ? -1 : static_cast<int>(focus.nodes.front());
    }
    Q_EMIT routeRequested(focus);
}

} // namespace fabscope
