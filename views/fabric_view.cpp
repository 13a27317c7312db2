#include "views/fabric_view.h"

#include "views/fabric_raster.h"
#include "views/metric_choice.h"

#include "core/linkrate.h"
#include "views/background_job.h"
#include "views/compare_colouring.h"
#include "views/fabric_layout.h"
#include "views/store_snapshot.h"
#include "views/utc_text.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabscope {
using namespace raster;
namespace {

constexpr double kUnfoldPx = 6;  // hosts closer than this (pixels per host slot) are folded

} // namespace

FabricView::FabricView(QWidget* parent) : QWidget(parent), geometryJob_(new BackgroundJob(QStringLiteral("geometryJob"), this)) {
    setObjectName(QStringLiteral("fabricView"));
    setAccessibleName(tr("Fabric graph"));
    setAccessibleDescription(tr("Switches and hosts in tiers; links coloured by the chosen metric at the time cursor. "
                                "Plus/minus zoom, 0 fits, Shift+Left/Right pans."));
    setMinimumSize(400, 300);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

FabricView::~FabricView() = default;

void FabricView::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    layout_.reset();
    if (snapshot_) layout_ = std::make_shared<const FabricLayout>(layoutFor(snapshot_->fabric, snapshot_->tiers, snapshot_->shape, layoutKind_));
    // A frame of the previous store is no placeholder for this one.
    idBuffer_ = composed_ = nodeLayer_ = QImage();
    frameLabels_.clear();
    edgeValue_.clear();
    edgeColour_.clear();
    selectedNode_ = selectedLink_ = -1;
    overlay_ = {};
    compare_.reset();  // a comparison colours the fabric it was made for
    updateModuleMarks();
    bin_ = snapshot_ ? snapshot_->rates.binAt(time_) : -1;
    fit();
    Q_EMIT layoutChanged();
}

void FabricView::setRates(std::shared_ptr<const StoreSnapshot> snapshot) {
    if (!snapshot_ || !snapshot || snapshot->fabric.links.size() != snapshot_->fabric.links.size()) {
        setSnapshot(std::move(snapshot));
        return;
    }
    snapshot_ = std::move(snapshot);
    updateModuleMarks();
    bin_ = snapshot_->rates.binAt(time_);
    colourDirty_ = true;
    update();
}

double FabricView::fitScale() const {
    if (!layout_) return 1;
    return std::max(1e-6, (width() - 2 * kSide) / layout_->width);
}

double FabricView::zoom() const { return sx_ / fitScale(); }

void FabricView::fit() {
    sx_ = fitScale();
    ox_ = kSide;
    invalidateGeometry();
}

void FabricView::zoomBy(double factor, double anchorX) {
    if (!layout_) return;
    const double fs = fitScale();
    const double next = std::clamp(sx_ * factor, fs * 0.5, std::max(fs, 60.0));
    const double worldX = (anchorX - ox_) / sx_;
    sx_ = next;
    ox_ = anchorX - worldX * sx_;
    invalidateGeometry();
}

void FabricView::panBy(double dx) {
    ox_ += dx;
    invalidateGeometry();
}

void FabricView::frameNodes(const std::vector<std::uint32_t>& nodes) {
    if (!layout_ || nodes.empty()) return;
    double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    bool host = false;
    for (auto n : nodes) {
        if (n >= layout_->nodeCount || layout_->tier[n] < 0) continue;
        lo = std::min(lo, layout_->x[n]);
        hi = std::max(hi, layout_->x[n]);
        host = host || layout_->tier[n] == 0;
    }
    if (lo > hi) return;
    const double span = std::max(hi - lo, 8.0) * 1.6;  // some context either side
    double s = (width() - 2 * kSide) / span;
    if (host) s = std::max(s, kUnfoldPx * 2);
    s = std::clamp(s, fitScale(), std::max(fitScale(), 60.0));
    sx_ = s;
    ox_ = width() / 2.0 - (lo + hi) / 2 * sx_;
    invalidateGeometry();
}

void FabricView::invalidateGeometry() {
    geometryDirty_ = colourDirty_ = true;
    ++geometryGeneration_;  // a frame in flight for the previous view is stale
    updateFolding();
    update();
    Q_EMIT viewChanged();
}

void FabricView::updateFolding() { folded_ = sx_ < kUnfoldPx; }

QPointF FabricView::pointPos(std::uint32_t p) const { return {ox_ + sx_ * layout_->x[p], rowYOf(layout_->top, height(), layout_->y[p])}; }

std::optional<QPointF> FabricView::nodePosition(int node) const {
    if (!layout_ || node < 0 || static_cast<std::size_t>(node) >= layout_->nodeCount || layout_->tier[static_cast<std::size_t>(node)] < 0)
        return std::nullopt;
    auto p = static_cast<std::uint32_t>(node);
    if (folded_ && layout_->groupOfHost[p] != kNone) p = layout_->groupOfHost[p];
    return pointPos(p);
}

void FabricView::setMetric(LinkMetric metric) {
    if (metric == scale_.metric()) return;
    scale_ = ColourScale(metric);
    colourDirty_ = true;
    update();
}

void FabricView::setCompareColouring(std::shared_ptr<const CompareColouring> colouring) {
    compare_ = std::move(colouring);
    colourDirty_ = true;
    update();
}

void FabricView::setTime(double t) {
    time_ = t;
    const int bin = snapshot_ ? snapshot_->rates.binAt(t) : -1;
    if (bin == bin_) {
        update();  // the legend shows the time
        return;
    }
    bin_ = bin;
    colourDirty_ = true;
    update();
}

void FabricView::selectNode(int node) {
    selectedNode_ = node;
    selectedLink_ = -1;
    update();
}

void FabricView::selectLink(int link) {
    selectedLink_ = link;
    selectedNode_ = -1;
    update();
}

void FabricView::clearSelection() {
    selectedNode_ = selectedLink_ = -1;
    update();
}

void FabricView::setFindingOverlay(FindingFocus focus) {
    overlay_ = std::move(focus);
    update();
}

void FabricView::clearFindingOverlay() {
    if (overlay_.empty()) return;
    overlay_ = {};
    update();
}

void FabricView::setLayoutKind(LayoutKind kind) {
    if (kind == layoutKind_) return;
    layoutKind_ = kind;
    if (snapshot_) {
        layout_ = std::make_shared<const FabricLayout>(layoutFor(snapshot_->fabric, snapshot_->tiers, snapshot_->shape, layoutKind_));
        idBuffer_ = composed_ = nodeLayer_ = QImage();  // the old geometry is no placeholder for a new layout
        frameLabels_.clear();
        fit();
    }
    Q_EMIT layoutChanged();
}

void FabricView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (layout_ && e->oldSize().width() > 0) {
        // Keep the zoom level relative to the fit.
        const double z = zoom();
        const double oldFit = std::max(1e-6, (e->oldSize().width() - 2 * kSide) / layout_->width);
        const double worldCentre = (e->oldSize().width() / 2.0 - ox_) / (sx_ > 0 ? sx_ : oldFit);
        sx_ = fitScale() * z;
        ox_ = width() / 2.0 - worldCentre * sx_;
    } else {
        sx_ = fitScale();
        ox_ = kSide;
    }
    invalidateGeometry();
}

FabricGeometryInput FabricView::geometryInput() const {
    return {snapshot_, layout_, size(), sx_, ox_, zoom(), folded_, geometryGeneration_};
}

void FabricView::adoptFrame(FabricGeometryFrame frame) {
    idBuffer_ = std::move(frame.idBuffer);
    nodeLayer_ = std::move(frame.nodeLayer);
    frameLabels_ = std::move(frame.labels);
    frameSx_ = frame.sx, frameOx_ = frame.ox, frameFolded_ = frame.folded;
    frameBands_ = std::move(frame.bands);
    cost_.geometryMs = frame.ms;
    geometryDirty_ = frame.generation != geometryGeneration_;
    colourDirty_ = true;
}

void FabricView::requestGeometry() {
    // One frame at a time (paints ask again and again while the geometry is dirty); the frame
    // under way restarts itself when it lands stale.
    if (geometryJob_->busy() || !layout_) return;
    geometryJob_->run([input = geometryInput()](const JobToken&) { return renderGeometryFrame(input); },
                      [this](FabricGeometryFrame frame) {
                          if (frame.generation != geometryGeneration_ || frame.idBuffer.size() != size() || frame.snapshot != snapshot_) {
                              ++droppedFrames_;
                              if (geometryDirty_) requestGeometry();  // dropped: the view moved on meanwhile
                              return;
                          }
                          adoptFrame(std::move(frame));
                          update();
                          Q_EMIT frameReady();
                      });
}

void FabricView::renderGeometry() {
    // Synchronous (tests, benchmarks, a click that needs an up-to-date id buffer): newer than any
    // frame in flight, which is dropped when it lands.
    adoptFrame(renderGeometryFrame(geometryInput()));
}

void FabricView::recolour() {
    QElapsedTimer timer;
    timer.start();
    colourDirty_ = false;
    if (composed_.size() != idBuffer_.size()) composed_ = QImage(idBuffer_.size(), QImage::Format_RGB32);
    const auto& edges = layout_ && !idBuffer_.isNull() ? (frameFolded_ ? layout_->edgesFolded : layout_->edgesUnfolded) : std::vector<DrawEdge>{};
    edgeValue_.assign(edges.size(), std::numeric_limits<float>::quiet_NaN());
    edgeColour_.assign(edges.size() + 1, palette().base().color().rgb());
    const LinkTimeSeries* rates = snapshot_ && !snapshot_->rates.empty() && bin_ >= 0 ? &snapshot_->rates : nullptr;
    const LinkMetric m = scale_.metric();
    for (std::size_t e = 0; e < edges.size(); ++e) {
        float v = std::numeric_limits<float>::quiet_NaN();
        if (compare_) {  // compare mode: a bundle shows its member with the largest change
            for (std::uint32_t k = 0; k < edges[e].members; ++k) {
                const float x = compare_->delta(layout_->edgeMembers[edges[e].firstMember + k]);
                if (!std::isnan(x) && (std::isnan(v) || std::abs(x) > std::abs(v))) v = x;
            }
            edgeValue_[e] = v;
            edgeColour_[e + 1] = compare_->rgb(v);
            continue;
        }
        if (rates)
            for (std::uint32_t k = 0; k < edges[e].members; ++k) {
                const float x = rates->value(m, layout_->edgeMembers[edges[e].firstMember + k], static_cast<std::size_t>(bin_));
                if (!std::isnan(x) && (std::isnan(v) || x > v)) v = x;
            }
        edgeValue_[e] = v;
        edgeColour_[e + 1] = scale_.rgb(v);
    }
    colourBands();  // after the edges: a band takes its worst edge's value
    const auto* src = reinterpret_cast<const quint32*>(idBuffer_.constBits());
    auto* dst = reinterpret_cast<quint32*>(composed_.bits());
    const std::size_t n = static_cast<std::size_t>(idBuffer_.width()) * static_cast<std::size_t>(idBuffer_.height());
    const QRgb* table = edgeColour_.data();
    for (std::size_t i = 0; i < n; ++i) dst[i] = table[src[i] & 0xFFFFFFu];
    cost_.recolourMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

void FabricView::renderFrame() {
    if (geometryDirty_ || idBuffer_.size() != size()) renderGeometry();
    if (colourDirty_) recolour();
}

std::uint32_t FabricView::edgeOfLink(int link) const {
    if (!layout_ || link < 0 || static_cast<std::size_t>(link) >= layout_->edgeOfLinkFolded.size()) return kNone;
    const auto e = (frameFolded_ ? layout_->edgeOfLinkFolded : layout_->edgeOfLinkUnfolded)[static_cast<std::size_t>(link)];
    return bandOfEdge(e) >= 0 ? static_cast<std::uint32_t>(frameEdgeCount() + static_cast<std::size_t>(bandOfEdge(e))) : e;
}

QRgb FabricView::linkColour(int link) const {
    const auto e = edgeOfLink(link);
    return e == kNone || e + 1 >= edgeColour_.size() ? ColourScale::noData() : edgeColour_[e + 1];
}

float FabricView::linkValue(int link) const {
    if (compare_ && link >= 0) return compare_->delta(static_cast<std::size_t>(link));
    if (!snapshot_ || snapshot_->rates.empty() || bin_ < 0 || link < 0) return std::numeric_limits<float>::quiet_NaN();
    return snapshot_->rates.value(scale_.metric(), static_cast<std::size_t>(link), static_cast<std::size_t>(bin_));
}

std::optional<QPoint> FabricView::pixelOfLink(int link) const {
    const auto e = edgeOfLink(link);
    if (e == kNone || idBuffer_.isNull()) return std::nullopt;
    // Prefer a pixel away from the ends, where nodes are drawn over the line.
    const auto [a, b] = drawnEnds(e);
    for (double f : {0.5, 0.4, 0.6, 0.3, 0.7, 0.25, 0.75}) {
        const QPointF c = a + (b - a) * f;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const QPoint q(static_cast<int>(std::lround(c.x())) + dx, static_cast<int>(std::lround(c.y())) + dy);
                if (idBuffer_.rect().contains(q) && (idBuffer_.pixel(q) & 0xFFFFFFu) == e + 1) return q;
            }
    }
    return std::nullopt;
}

int FabricView::nodeAt(QPointF pos) const {
    if (!layout_) return -1;
    int best = -1;
    double bestD = 8.0 * 8.0;
    for (std::uint32_t i = 0; i < layout_->nodeCount; ++i) {
        if (layout_->tier[i] < 0 || (folded_ && layout_->tier[i] == 0)) continue;
        const QPointF d = pointPos(i) - pos;
        const double dd = d.x() * d.x() + d.y() * d.y();
        if (dd < bestD) bestD = dd, best = static_cast<int>(i);
    }
    return best;
}

int FabricView::edgeAt(QPointF pos) const {
    if (idBuffer_.isNull()) return -1;
    const QPoint c = pos.toPoint();
    for (int r = 0; r <= 3; ++r)
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx) {
                const QPoint q = c + QPoint(dx, dy);
                if (!idBuffer_.rect().contains(q)) continue;
                const quint32 id = idBuffer_.pixel(q) & 0xFFFFFFu;
                if (id) return static_cast<int>(id - 1);
            }
    return -1;
}

int FabricView::linkAt(QPointF pos) const {
    const int e = edgeAt(pos);
    return e < 0 ? -1 : worstLinkOf(static_cast<std::uint32_t>(e));  // parallel links or a band: the hottest
}

QString FabricView::drawnLabel(int node) const {
    for (const auto& [n, label] : frameLabels_)
        if (static_cast<int>(n) == node) return label;
    return {};
}

bool FabricView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void FabricView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
    pressPos_ = e->position().toPoint();
    pressOx_ = ox_;
    dragging_ = false;
}

void FabricView::mouseMoveEvent(QMouseEvent* e) {
    if (!(e->buttons() & Qt::LeftButton)) return;
    const int dx = e->position().toPoint().x() - pressPos_.x();
    if (!dragging_ && std::abs(dx) < 4) return;
    dragging_ = true;
    ox_ = pressOx_ + dx;
    invalidateGeometry();
}

void FabricView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(e);
    if (dragging_) {
        dragging_ = false;
        return;
    }
    renderFrame();
    if (const int n = nodeAt(e->position()); n >= 0) {
        selectNode(n);
        Q_EMIT nodeClicked(n);
    } else if (const int l = linkAt(e->position()); l >= 0) {
        selectLink(l);
        Q_EMIT linkClicked(l);
    } else {
        clearSelection();
        Q_EMIT selectionCleared();
    }
}

void FabricView::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    if (steps != 0) zoomBy(std::pow(1.25, steps), e->position().x());
    e->accept();
}

void FabricView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25, width() / 2.0); break;
    case Qt::Key_Minus: zoomBy(0.8, width() / 2.0); break;
    case Qt::Key_0: fit(); break;
    case Qt::Key_Left:
        if (!(e->modifiers() & Qt::ShiftModifier)) return QWidget::keyPressEvent(e);
        panBy(width() / 8.0);
        break;
    case Qt::Key_Right:
        if (!(e->modifiers() & Qt::ShiftModifier)) return QWidget::keyPressEvent(e);
        panBy(-width() / 8.0);
        break;
    default: QWidget::keyPressEvent(e);
    }
}

void FabricView::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    p.setClipRect(event->rect());  // clipped drawing is ~6x faster (docs/ARCHITECTURE.md)
    if (!snapshot_ || snapshot_->fabric.nodes.empty()) {
        p.fillRect(rect(), palette().base());
        p.drawText(rect(), Qt::AlignCenter, tr("No fabric loaded.\nOpen a store (Ctrl+O) or drop topology files here."));
        return;
    }
    if (geometryDirty_ || idBuffer_.size() != size()) requestGeometry();  // off the GUI thread
    if (colourDirty_ && !idBuffer_.isNull()) recolour();
    if (idBuffer_.isNull()) {
        p.fillRect(rect(), palette().base());
        p.drawText(rect(), Qt::AlignCenter, tr("Drawing the fabric…"));
    } else if (!geometryDirty_ && idBuffer_.size() == size()) {
        p.drawImage(0, 0, composed_);
        p.drawImage(0, 0, nodeLayer_);
    } else {
        // Placeholder until the new frame lands: the previous one, moved and scaled to the new view.
        p.fillRect(rect(), palette().base());
        p.save();
        const double k = frameSx_ > 0 ? sx_ / frameSx_ : 1.0;
        const double oldH = std::max(1.0, idBuffer_.height() - kTop - kBottom), newH = std::max(1.0, height() - kTop - kBottom);
        QTransform t(k, 0, 0, newH / oldH, ox_ - k * frameOx_, kTop - kTop * newH / oldH);
        p.setTransform(t);
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(0, 0, composed_);
        p.drawImage(0, 0, nodeLayer_);
        p.restore();
    }

    // Overlays: the finding, then the selection (few items, drawn directly).
    const auto& f = snapshot_->fabric;
    auto linkLine = [&](std::uint32_t l) -> std::optional<QLineF> {
        const auto a = nodePosition(static_cast<int>(f.port(f.links[l].a).node.value()));
        const auto b = nodePosition(static_cast<int>(f.port(f.links[l].b).node.value()));
        if (!a || !b) return std::nullopt;
        return QLineF(*a, *b);
    };
    p.setRenderHint(QPainter::Antialiasing);
    paintFindingOverlay(p);
    if (selectedLink_ >= 0)
        if (auto line = linkLine(static_cast<std::uint32_t>(selectedLink_))) {
            p.setPen(QPen(QColor(20, 20, 20), 7, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(*line);
            p.setPen(QPen(QColor(linkColour(selectedLink_)), 3));
            p.drawLine(*line);
        }
    if (selectedNode_ >= 0)
        if (auto c = nodePosition(selectedNode_)) {
            p.setPen(QPen(QColor(20, 20, 20), 2.5));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(*c, 10, 10);
        }
    paintHopNumbers(p);
    paintModuleMarks(p);
    if (compare_) compare_->paintMarks(p, *this);  // removed links dashed, width/speed changes labelled
    p.setRenderHint(QPainter::Antialiasing, false);

    // Header and legend.
    p.setPen(palette().text().color());
    const QString when = utcText(time_, QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    p.drawText(QPointF(10, 18), tr("%1 switches, %2 hosts, %3 links  |  zoom %4x%5")
                                    .arg(f.count(NodeType::Switch))
                                    .arg(f.count(NodeType::Ca))
                                    .arg(f.links.size())
                                    .arg(zoom(), 0, 'f', 1)
                                    .arg(folded_ ? tr(", hosts folded under their leaf (zoom in to unfold)") : QString()));
    // The lines below stop short of the legend, or take the width when there is none.
    const QRect legend = legendRect();
    const int room = std::max(100, (legend.isEmpty() ? width() - 4 : legend.left()) - 16 - 10);
    if (compare_) {
        QFont bold = p.font();
        bold.setBold(true);
        p.save();
        p.setFont(bold);
        const QString title = compare_->header();  // in full in the Changes dock
        p.drawText(QPointF(10, 36), QFontMetrics(bold).elidedText(title, Qt::ElideMiddle, room));
        p.restore();
    } else {
        const QString note = countersNote(snapshot_->rates, scale_.metric());  // e.g. no byte counters: what colours instead
        QString line = snapshot_->rates.empty() ? note
                       : note.isEmpty()        ? tr("Cursor %1").arg(when)
                                               : tr("%1  |  cursor %2").arg(note, when);  // the note first: the time is also under the fabric
        if (const QString modules = moduleMarksNote(); !modules.isEmpty()) line = line.isEmpty() ? modules : line + QStringLiteral("  |  ") + modules;
        p.drawText(QPointF(10, 36), p.fontMetrics().elidedText(line, Qt::ElideRight, room));
    }
    // Left of the legend, as the lines above: a long compare hint ran under the legend's box.
    const QString hint = compare_ ? compare_->hint() : tr("Wheel or +/- zoom, drag or Shift+arrows pan, 0 fits; click a node or link to inspect it.");
    p.drawText(QPointF(10, 54), p.fontMetrics().elidedText(hint, Qt::ElideRight, room));
    if (compare_) compare_->paintLegend(p, legend);
    else if (!legend.isEmpty()) scale_.paintLegend(p, legend);
    paintBandNote(p, QRect(10, 56, room, 13));  // left of the legend, under the hints
}

QRect FabricView::legendRect() const {
    if (compare_) return {width() - 320, 6, 312, compare_->legendHeight()};
    // Without counters nothing is coloured: a colour scale there would suggest otherwise.
    if (!snapshot_ || snapshot_->rates.empty()) return {};
    return {width() - 300, 6, 292, 66};
}

} // namespace fabscope
