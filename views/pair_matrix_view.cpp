#include "views/pair_matrix_view.h"

#include "core/analysis/findings.h"
#include "core/analysis/rank_hosts.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <variant>

namespace fabscope {
namespace {

constexpr int kMargin = 6, kLegend = 52, kMaxCell = 36, kLabelCell = 11;

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString gbs(double v) { return QString::number(v, 'f', v < 10 ? 2 : 1); }

// Pale for a pair at the class's best, through yellow and red to dark red at 0 GB/s: slow pairs
// stand out on a pale matrix (the latency matrix's scale, turned round: low bandwidth is hot).
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

const QColor kDiagonal(200, 200, 200), kNotRun(236, 236, 236), kFailedOnly(168, 168, 172), kSlowEdge(20, 20, 120),
    kSelected(20, 110, 230);

std::string metricText(const Finding& f, const std::string& key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key) return std::holds_alternative<std::string>(v) ? std::get<std::string>(v) : std::string();
    return {};
}

} // namespace

const CollectiveRun* PairMatrixData::run(std::int64_t id) const {
    const auto it = runById.find(id);
    return it == runById.end() ? nullptr : &runs[it->second];
}

std::shared_ptr<const PairMatrixData> buildPairMatrixData(std::vector<CollectiveRun> runs, const Fabric& fabric,
                                                          const PairBenchmarkConfig& config) {
    auto d = std::make_shared<PairMatrixData>();
    d->pb = judgePairBenchmarks(runs, fabric, config);
    d->runs = std::move(runs);
    d->minSizeBytes = config.minSizeBytes;
    for (std::size_t i = 0; i < d->runs.size(); ++i) d->runById[d->runs[i].id] = i;
    d->leafOf.resize(d->pb.hosts.size());
    if (!fabric.nodes.empty() && !d->pb.hosts.empty()) {
        std::vector<int> up(fabric.nodes.size(), -1);  // each CA's first switch
        for (const Link& l : fabric.links) {
            const NodeId a = fabric.port(l.a).node, b = fabric.port(l.b).node;
            for (const auto& [ca, sw] : {std::pair{a, b}, std::pair{b, a}})
                if (fabric.node(ca).type == NodeType::Ca && fabric.node(sw).type == NodeType::Switch && up[ca.value()] < 0)
                    up[ca.value()] = static_cast<int>(sw.value());
        }
        const RankHosts names(fabric, findAggregationNodes(fabric));
        for (std::size_t i = 0; i < d->pb.hosts.size(); ++i)
            if (const auto n = names.node(d->pb.hosts[i]); n && up[n->value()] >= 0)
                d->leafOf[i] = fabric.nodes[static_cast<std::size_t>(up[n->value()])].description;
    }
    return d;
}

QString PairMatrixView::Selector::label() const { return qs(tool) + QStringLiteral(" G") + QString::number(gpus); }

// Paints the matrix, host names, leaf groups and legend; clicks, keys and tooltips go to the view.
class PairMatrixCanvas : public QWidget {
public:
    explicit PairMatrixCanvas(PairMatrixView* view) : QWidget(view), view_(view) {
        setObjectName(QStringLiteral("pairMatrixCanvas"));
        setAccessibleName(tr("Pairwise benchmark matrix: arrow keys move between pairs, Left from the first column selects a host"));
        setFocusPolicy(Qt::StrongFocus);
        setMouseTracking(true);
        setMinimumSize(200, 200);
    }
    struct Geometry {
        int leafW = 0, hostW = 0, left = 0, top = 0, cell = 1;
        bool columnLabels = false;
    };
    [[nodiscard]] Geometry geometry() const {
        Geometry g;
        const int n = std::max<int>(1, static_cast<int>(view_->hostCount()));
        const QFontMetrics fm(labelFont());
        if (const PairMatrixData* d = view_->data()) {
            for (const auto& h : d->pb.hosts) g.hostW = std::max(g.hostW, fm.horizontalAdvance(qs(h)));
            for (const auto& l : d->leafOf) g.leafW = std::max(g.leafW, l.empty() ? 0 : fm.horizontalAdvance(qs(l)));
        }
        g.hostW = std::min(g.hostW, 140) + 10;
        g.leafW = g.leafW > 0 ? std::min(g.leafW, 110) + 10 : 0;
        g.left = kMargin + g.leafW + g.hostW;
        const auto fit = [&](int top) {
            return std::clamp(std::min((width() - g.left - kMargin) / n, (height() - top - kLegend) / n), 2, kMaxCell);
        };
        g.top = std::min(g.hostW, 100) + 4;
        g.cell = fit(g.top);
        g.columnLabels = g.cell >= kLabelCell;
        if (!g.columnLabels) g.cell = fit(g.top = kMargin + 2);
        return g;
    }
    // Row and column under a point: a cell (r, c); a host's name (r, -1); else (-1, -1).
    [[nodiscard]] std::pair<int, int> hitAt(QPoint p) const {
        const Geometry g = geometry();
        const int n = static_cast<int>(view_->hostCount());
        const int side = n * g.cell;
        const int col = p.x() >= g.left ? (p.x() - g.left) / g.cell : -1, row = p.y() >= g.top ? (p.y() - g.top) / g.cell : -1;
        if (p.y() >= g.top && row < n && p.x() >= g.left - g.hostW && p.x() < g.left) return {row, -1};
        if (g.columnLabels && p.y() < g.top && p.x() >= g.left && col < n) return {col, -1};
        if (row >= 0 && col >= 0 && p.x() < g.left + side && p.y() < g.top + side) return {row, col};
        return {-1, -1};
    }
    [[nodiscard]] QFont labelFont() const {
        QFont f = font();
        f.setPointSizeF(std::max(7.0, f.pointSizeF() - 1));
        return f;
    }

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override {
        const auto [r, c] = hitAt(e->position().toPoint());
        if (r < 0) return;
        if (c < 0) view_->selectHost(r);
        else view_->selectCell(r, c);
    }
    void keyPressEvent(QKeyEvent* e) override {
        const int n = static_cast<int>(view_->hostCount());
        if (n == 0) return QWidget::keyPressEvent(e);
        auto [r, c] = view_->selectedCell();
        if (r < 0) r = 0, c = n > 1 ? 1 : 0;
        switch (e->key()) {
        case Qt::Key_Up: r = std::max(0, r - 1); break;
        case Qt::Key_Down: r = std::min(n - 1, r + 1); break;
        case Qt::Key_Left: c = std::max(-1, c - 1); break;
        case Qt::Key_Right: c = std::min(n - 1, c + 1); break;
        case Qt::Key_Home: c = -1; break;
        case Qt::Key_End: c = n - 1; break;
        case Qt::Key_Escape: view_->selectRaw(-1, -1); return;
        default:
            if (view_->selectedCell().first < 0 && (e->key() == Qt::Key_Space || e->key() == Qt::Key_Return)) break;
            return QWidget::keyPressEvent(e);
        }
        view_->selectRaw(r, c);
    }
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const auto [r, c] = hitAt(help->pos());
            QString tip;
            if (r >= 0) tip = c < 0 ? view_->hostToolTip(static_cast<std::size_t>(r)) : view_->cellToolTip(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
            if (tip.isEmpty()) QToolTip::hideText();
            else QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        return QWidget::event(e);
    }

private:
    void paintLegend(QPainter& p, const Geometry& g, int y);
    PairMatrixView* view_;
};

void PairMatrixCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const PairMatrixData* d = view_->data();
    const std::size_t n = view_->hostCount();
    if (!d || n == 0 || view_->currentSelector() < 0) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No pairwise nccl-tests runs (runs between exactly two hosts) in this store."));
        return;
    }
    const Geometry g = geometry();
    const int c = g.cell, side = static_cast<int>(n) * c;
    p.setFont(labelFont());
    const QFontMetrics fm(p.font());
    // Cells: the figure's colour; slow runs outlined, failed runs crossed.
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const QRect r = view_->cellRect(i, j);
            p.fillRect(r, view_->cellColour(i, j));
            const PairMatrixView::Cell* cell = i == j ? nullptr : view_->cell(i, j);
            if (!cell) continue;
            if (cell->slow && c >= 6) {
                p.setPen(QPen(kSlowEdge, c >= 14 ? 3 : 2));
                p.setBrush(Qt::NoBrush);
                const int in = c >= 14 ? 2 : 1;
                p.drawRect(r.adjusted(in, in, -in - 1, -in - 1));
            }
            if (cell->failed) {
                p.setPen(QPen(Qt::black, c >= 14 ? 2 : 1));
                const QRect x = r.adjusted(c / 5, c / 5, -c / 5 - 1, -c / 5 - 1);
                p.drawLine(x.topLeft(), x.bottomRight());
                p.drawLine(x.topRight(), x.bottomLeft());
            }
        }
    // Grid lines between cells when there is room; group lines between leaves.
    if (c >= 8) {
        p.setPen(QPen(palette().color(QPalette::Base), 1));
        for (std::size_t i = 1; i < n; ++i) {
            const int at = static_cast<int>(i) * c;
            p.drawLine(g.left + at, g.top, g.left + at, g.top + side - 1);
            p.drawLine(g.left, g.top + at, g.left + side - 1, g.top + at);
        }
    }
    const bool leaves = g.leafW > 0;
    for (std::size_t i = 0; i <= n; ++i) {
        const bool edge = i == 0 || i == n;
        if (!edge && (!leaves || d->leafOf[i] == d->leafOf[i - 1])) continue;
        const int at = static_cast<int>(i) * c;
        p.setPen(QPen(QColor(60, 60, 60), edge ? 1.0 : 2.0));
        p.drawLine(g.left + at, g.top, g.left + at, g.top + side);
        p.drawLine(g.left - (leaves ? g.hostW + g.leafW - 2 : 0), g.top + at, g.left + side, g.top + at);
        if (i == n || !leaves) continue;
        std::size_t end = i + 1;
        while (end < n && d->leafOf[end] == d->leafOf[i]) ++end;
        p.setPen(palette().color(QPalette::Text));
        const QRect band(kMargin, g.top + at, g.leafW - 6, static_cast<int>(end - i) * c);
        const QString leaf = d->leafOf[i].empty() ? tr("no leaf") : qs(d->leafOf[i]);
        p.drawText(band, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(leaf, Qt::ElideRight, band.width()));
    }
    // Host names: rows on the left, columns on top (turned), when the cells are tall enough.
    const int selectedHost = view_->selectedHost();
    for (std::size_t i = 0; i < n && c >= kLabelCell - 2; ++i) {
        const bool sel = static_cast<int>(i) == selectedHost;
        const QRect r = view_->hostHeaderRect(i);
        if (sel) p.fillRect(r, palette().color(QPalette::Highlight));
        p.setPen(palette().color(sel ? QPalette::HighlightedText : QPalette::Text));
        p.drawText(r.adjusted(0, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(qs(d->pb.hosts[i]), Qt::ElideRight, r.width() - 4));
    }
    if (g.columnLabels)
        for (std::size_t i = 0; i < n; ++i) {
            p.save();
            p.translate(g.left + static_cast<int>(i) * c + c / 2, g.top - 4);
            p.rotate(-90);
            p.setPen(palette().color(QPalette::Text));
            const int h = fm.height();
            p.drawText(QRect(0, -h / 2, g.top - 8, h), Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(qs(d->pb.hosts[i]), Qt::ElideRight, g.top - 8));
            p.restore();
        }
    if (c < kLabelCell - 2)
        p.drawText(QRect(kMargin, g.top, g.left - kMargin - 4, side), Qt::AlignRight | Qt::AlignVCenter | Qt::TextWordWrap, tr("hosts"));
    // The selection: a pair's cell, or a host's whole row.
    const auto [sr, sc] = view_->selectedCell();
    p.setBrush(Qt::NoBrush);
    if (sr >= 0) {
        const QRect r = sc >= 0 ? view_->cellRect(static_cast<std::size_t>(sr), static_cast<std::size_t>(sc))
                                : QRect(g.left, g.top + sr * c, side, c);
        p.setPen(QPen(kSelected, 2));
        p.drawRect(r.adjusted(0, 0, -1, -1));
        if (hasFocus()) {
            p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DotLine));
            p.drawRect(r.adjusted(-2, -2, 1, 1));
        }
    } else if (hasFocus()) {
        p.setPen(QPen(kSelected, 1, Qt::DotLine));
        p.drawRect(QRect(g.left - 2, g.top - 2, side + 3, side + 3));
    }
    paintLegend(p, g, g.top + side + 8);
}

void PairMatrixCanvas::paintLegend(QPainter& p, const Geometry& g, int y) {
    const QFontMetrics fm(p.font());
    const int x0 = std::min(g.left, kMargin + g.leafW + 4);
    const int lw = std::clamp(width() / 3, 100, 200);
    for (int x = 0; x < lw; ++x) p.fillRect(x0 + x, y, 1, 10, heat(1.0 - static_cast<double>(x) / (lw - 1)));
    p.setPen(palette().color(QPalette::Text));
    p.setBrush(Qt::NoBrush);
    p.drawRect(x0, y, lw, 10);
    p.drawText(QRect(x0, y + 11, lw, fm.height()), Qt::AlignLeft, QStringLiteral("0"));
    p.drawText(QRect(x0, y + 11, lw, fm.height()), Qt::AlignRight, gbs(view_->scaleMaxGBs()));
    const int tx = x0 + lw + 8, tw = std::max(40, width() - tx - kMargin);
    p.drawText(QRect(tx, y - 2, tw, fm.height()), Qt::AlignLeft, fm.elidedText(tr("busbw (GB/s), worst run of the pair"), Qt::ElideRight, tw));
    // Swatches: slow (outlined), failed (crossed), not run.
    int x = tx;
    const int sy = y + 12, s = 12;
    const auto swatch = [&](const QString& text, auto draw) {
        const int need = s + 4 + fm.horizontalAdvance(text) + 12;
        if (x + need > width() - kMargin) return;
        draw(QRect(x, sy, s, s));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x + s + 4, sy - 2, need, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += need;
    };
    swatch(tr("slow"), [&](QRect r) {
        p.fillRect(r, heat(0.45));
        p.setPen(QPen(kSlowEdge, 2));
        p.drawRect(r.adjusted(1, 1, -2, -2));
    });
    swatch(tr("failed"), [&](QRect r) {
        p.fillRect(r, kFailedOnly);
        p.setPen(QPen(Qt::black, 1));
        p.drawLine(r.topLeft() + QPoint(2, 2), r.bottomRight() - QPoint(2, 2));
        p.drawLine(r.topRight() + QPoint(-2, 2), r.bottomLeft() + QPoint(2, -2));
    });
    swatch(tr("not run"), [&](QRect r) {
        p.fillRect(r, kNotRun);
        p.setPen(QPen(QColor(150, 150, 150), 1));
        p.drawRect(r.adjusted(0, 0, -1, -1));
    });
}

PairMatrixView::PairMatrixView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("pairMatrixView"));
    setAccessibleName(tr("Pairwise benchmarks matrix"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    auto* label = new QLabel(tr("&Class:"), this);
    classBox_ = new QComboBox(this);
    classBox_->setObjectName(QStringLiteral("pairClassBox"));
    classBox_->setAccessibleName(tr("Benchmark class: benchmark and GPUs per node"));
    classBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);  // a narrow dock stays narrow
    classBox_->setMinimumContentsLength(18);
    classBox_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    label->setBuddy(classBox_);
    top->addWidget(label);
    top->addWidget(classBox_, 1);
    layout->addLayout(top);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("pairMatrixStatus"));
    status_->setWordWrap(true);
    layout->addWidget(status_);
    canvas_ = new PairMatrixCanvas(this);
    layout->addWidget(canvas_, 1);
    setTabOrder(classBox_, canvas_);
    connect(classBox_, &QComboBox::currentIndexChanged, this, [this](int i) { setSelector(i); });
    setData(nullptr);
}

PairMatrixView::~PairMatrixView() = default;

void PairMatrixView::setData(std::shared_ptr<const PairMatrixData> data) {
    const Selector previous = current_ >= 0 && static_cast<std::size_t>(current_) < selectors_.size() ? selectors_[static_cast<std::size_t>(current_)] : Selector{};
    data_ = std::move(data);
    selectors_.clear();
    hostIdx_.clear();
    std::map<std::pair<std::string, int>, std::size_t> bad;  // bad runs per selector
    if (data_) {
        for (std::size_t i = 0; i < data_->pb.hosts.size(); ++i) hostIdx_[data_->pb.hosts[i]] = static_cast<int>(i);
        for (const PairRun& r : data_->pb.runs) bad[{r.tool, r.gpusPerNode}] += r.bad() ? 1 : 0;
    }
    int start = -1;
    std::size_t worst = 0;
    const QSignalBlocker block(classBox_);
    classBox_->clear();
    for (const auto& [key, badRuns] : bad) {
        const int index = static_cast<int>(selectors_.size());
        selectors_.push_back({key.first, key.second});
        const QString gpus = key.second == 1 ? tr("1 GPU per node") : tr("%1 GPUs per node").arg(key.second);
        classBox_->addItem(qs(key.first) + QStringLiteral(", ") + gpus + (badRuns ? tr(" (%1 slow or failed)").arg(badRuns) : QString()));
        if (key.first == previous.tool && key.second == previous.gpus) start = index;
    }
    if (start < 0)  // the class with the most slow or failed runs, else the first
        for (std::size_t i = 0; i < selectors_.size(); ++i)
            if (const std::size_t b = bad[{selectors_[i].tool, selectors_[i].gpus}]; start < 0 || b > worst) start = static_cast<int>(i), worst = b;
    classBox_->setEnabled(!selectors_.empty());
    current_ = -1;
    setSelector(start);
    if (pending_ && data_) {
        const auto f = std::move(pending_);
        applyFinding(*f);
    }
}

int PairMatrixView::hostIndex(const std::string& host) const {
    const auto it = hostIdx_.find(host);
    return it == hostIdx_.end() ? -1 : it->second;
}

int PairMatrixView::selectorIndex(const std::string& tool, int gpus) const {
    for (std::size_t i = 0; i < selectors_.size(); ++i)
        if (selectors_[i].tool == tool && selectors_[i].gpus == gpus) return static_cast<int>(i);
    return -1;
}

void PairMatrixView::setSelector(int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= selectors_.size()) index = -1;
    const bool changed = index != current_;
    current_ = index;
    if (classBox_->currentIndex() != index) {
        const QSignalBlocker block(classBox_);
        classBox_->setCurrentIndex(index);
    }
    rebuildCells();
    if (changed || selected_.first >= static_cast<int>(hostCount())) selectRaw(selected_.first < static_cast<int>(hostCount()) ? selected_.first : -1, selected_.second);
    else canvas_->update();
}

void PairMatrixView::rebuildCells() {
    const std::size_t n = hostCount();
    cells_.assign(current_ >= 0 ? n * n : 0, Cell{});
    scaleMax_ = 0;
    if (current_ < 0) {
        status_->setText(data_ ? tr("No pairwise runs.") : QString());
        canvas_->update();
        return;
    }
    const Selector& s = selectors_[static_cast<std::size_t>(current_)];
    std::set<std::size_t> classes;
    std::size_t runs = 0, slow = 0, failed = 0;
    for (std::size_t k = 0; k < data_->pb.runs.size(); ++k) {
        const PairRun& r = data_->pb.runs[k];
        if (r.tool != s.tool || r.gpusPerNode != s.gpus) continue;
        const int a = hostIndex(r.hostA), b = hostIndex(r.hostB);
        if (a < 0 || b < 0) continue;
        Cell& c = cells_[static_cast<std::size_t>(std::min(a, b)) * n + static_cast<std::size_t>(std::max(a, b))];
        c.runs.push_back(k);
        c.slow = c.slow || r.slow;
        c.failed = c.failed || r.failed();
        if (r.figureGBs && (!c.figureGBs || *r.figureGBs < *c.figureGBs)) c.figureGBs = r.figureGBs;
        if (r.figureGBs) scaleMax_ = std::max(scaleMax_, *r.figureGBs);
        classes.insert(r.classIndex);
        ++runs;
        slow += r.slow ? 1 : 0;
        failed += r.failed() ? 1 : 0;
    }
    std::set<double> medians, expected;  // one per class (the classes split by distance and size range)
    for (std::size_t ci : classes) {
        const PairClass& pc = data_->pb.classes[ci];
        if (pc.medianGBs) medians.insert(*pc.medianGBs);
        if (pc.expectedGBs) expected.insert(*pc.expectedGBs), scaleMax_ = std::max(scaleMax_, *pc.expectedGBs);
    }
    if (scaleMax_ <= 0) scaleMax_ = 1;
    const auto range = [](const std::set<double>& v) {
        return v.size() == 1 ? gbs(*v.begin()) : gbs(*v.begin()) + QStringLiteral("–") + gbs(*v.rbegin());
    };
    QString text = tr("%1: %2 runs, %3 slow, %4 failed").arg(s.label()).arg(runs).arg(slow).arg(failed);
    if (!medians.empty())
        text += (classes.size() > 1 ? tr("; class medians %1 GB/s busbw (%2 classes)").arg(range(medians)).arg(classes.size())
                                    : tr("; class median %1 GB/s busbw").arg(range(medians)));
    if (!expected.empty()) text += tr("; the NICs allow %1 GB/s").arg(range(expected));
    status_->setText(text);
    canvas_->update();
}

const PairMatrixView::Cell* PairMatrixView::cell(std::size_t row, std::size_t col) const {
    const std::size_t n = hostCount();
    if (row >= n || col >= n || row == col || cells_.empty()) return nullptr;
    return &cells_[std::min(row, col) * n + std::max(row, col)];
}

QColor PairMatrixView::cellColour(std::size_t row, std::size_t col) const {
    if (row == col) return kDiagonal;
    const Cell* c = cell(row, col);
    if (!c || c->runs.empty()) return kNotRun;
    if (!c->figureGBs) return kFailedOnly;
    return heat(1.0 - *c->figureGBs / scaleMax_);
}

QRect PairMatrixView::cellRect(std::size_t row, std::size_t col) const {
    const auto g = static_cast<const PairMatrixCanvas*>(canvas_)->geometry();
    return {g.left + static_cast<int>(col) * g.cell, g.top + static_cast<int>(row) * g.cell, g.cell, g.cell};
}

QRect PairMatrixView::hostHeaderRect(std::size_t host) const {
    const auto g = static_cast<const PairMatrixCanvas*>(canvas_)->geometry();
    return {g.left - g.hostW, g.top + static_cast<int>(host) * g.cell, g.hostW, g.cell};
}

QString PairMatrixView::cellToolTip(std::size_t row, std::size_t col) const {
    const std::size_t n = hostCount();
    if (row >= n || col >= n || current_ < 0) return {};
    const auto& hosts = data_->pb.hosts;
    if (row == col) return tr("%1 (a host with itself: no pair)").arg(qs(hosts[row]));
    const QString head = qs(hosts[row]) + QStringLiteral(" ↔ ") + qs(hosts[col]);
    const Cell* c = cell(row, col);
    const QString what = selectors_[static_cast<std::size_t>(current_)].label();
    if (!c || c->runs.empty()) return tr("%1: no %2 run").arg(head, what);
    QStringList lines{tr("%1, %2").arg(head, what)};
    for (std::size_t k : c->runs) {
        const PairRun& r = data_->pb.runs[k];
        const PairClass& pc = data_->pb.classes[r.classIndex];
        if (r.failed()) {
            lines << tr("run #%1 failed: %2").arg(r.runId).arg(qs(r.failure));
            continue;
        }
        QString line = tr("run #%1: %2 GB/s busbw").arg(r.runId).arg(r.figureGBs ? gbs(*r.figureGBs) : QStringLiteral("—"));
        if (r.ratio && pc.medianGBs)
            line += tr(", %1 % of the class median %2 GB/s").arg(QString::number(*r.ratio * 100, 'f', 0), gbs(*pc.medianGBs));
        if (r.slow) line += tr(" (slow)");
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

QString PairMatrixView::hostToolTip(std::size_t host) const {
    if (!data_ || host >= hostCount()) return {};
    const HostVerdict& v = data_->pb.verdicts[host];
    QString s = qs(data_->pb.hosts[host]);
    if (!data_->leafOf[host].empty()) s += tr(" (leaf %1)").arg(qs(data_->leafOf[host]));
    s += tr(": %1 runs in all benchmarks, %2 slow, %3 failed; %4 of %5 peers with a slow or failed run")
             .arg(v.runs).arg(v.slowRuns).arg(v.failedRuns).arg(v.badPeers).arg(v.peers);
    if (v.slow) s += tr("; a slow host (binomial p = %1)").arg(QString::number(v.pValue, 'g', 2));
    return s;
}

std::vector<std::size_t> PairMatrixView::selectedRuns() const {
    const auto [r, c] = selected_;
    if (r < 0 || current_ < 0) return {};
    if (c >= 0) {
        const Cell* cl = cell(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
        return cl ? cl->runs : std::vector<std::size_t>{};
    }
    std::vector<std::size_t> out;
    for (std::size_t j = 0; j < hostCount(); ++j)
        if (const Cell* cl = cell(static_cast<std::size_t>(r), j)) out.insert(out.end(), cl->runs.begin(), cl->runs.end());
    return out;
}

void PairMatrixView::selectCell(int row, int col) {
    const int n = static_cast<int>(hostCount());
    if (row < 0 || row >= n || col >= n) return;
    selectRaw(row, col < 0 ? -1 : col);
}

void PairMatrixView::selectHost(int host) { selectCell(host, -1); }

void PairMatrixView::selectRaw(int row, int col) {
    const int n = static_cast<int>(hostCount());
    selected_ = row >= 0 && row < n && col < n ? std::pair{row, std::max(col, -1)} : std::pair{-1, -1};
    const auto [r, c] = selected_;
    canvas_->setAccessibleDescription(r < 0 ? QString()
                                            : c < 0 ? hostToolTip(static_cast<std::size_t>(r))
                                                    : cellToolTip(static_cast<std::size_t>(r), static_cast<std::size_t>(c)));
    canvas_->update();
    Q_EMIT selectionChanged();
}

bool PairMatrixView::showFinding(const Finding& finding) {
    if ((finding.kind != FindingKind::SlowPair && finding.kind != FindingKind::SlowHost) || metricText(finding, "source") != "benchmarks")
        return false;
    if (!data_) {
        pending_ = std::make_unique<Finding>(finding);
        return true;
    }
    return applyFinding(finding);
}

bool PairMatrixView::applyFinding(const Finding& finding) {
    if (finding.kind == FindingKind::SlowPair) {
        // The worst slow run's class, else the first bad run's ("alltoall_perf G8,sendrecv_perf G4").
        std::string label = metricText(finding, "worst_run");
        if (label.empty()) label = metricText(finding, "bad_runs").substr(0, metricText(finding, "bad_runs").find(','));
        const auto g = label.rfind(" G");
        if (g != std::string::npos) {
            const int index = selectorIndex(label.substr(0, g), std::atoi(label.c_str() + g + 2));
            if (index >= 0) setSelector(index);
        }
        const int a = hostIndex(metricText(finding, "src")), b = hostIndex(metricText(finding, "dst"));
        if (a < 0 || b < 0) return false;
        selectCell(a, b);
        return true;
    }
    const std::string host = metricText(finding, "host");
    const int h = hostIndex(host);
    if (h < 0) return false;
    // The class where the host has the most slow or failed runs.
    std::map<std::pair<std::string, int>, std::size_t> bad;
    for (const PairRun& r : data_->pb.runs)
        if ((r.hostA == host || r.hostB == host) && r.bad()) ++bad[{r.tool, r.gpusPerNode}];
    const auto most = std::max_element(bad.begin(), bad.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    if (most != bad.end()) setSelector(selectorIndex(most->first.first, most->first.second));
    selectHost(h);
    return true;
}

} // namespace fabscope
