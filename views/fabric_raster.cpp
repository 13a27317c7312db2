#include "views/fabric_raster.h"

#include "core/linkrate.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QElapsedTimer>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace fabscope {
using namespace raster;
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Liang-Barsky clip of a segment to [0,w) x [0,h); false when nothing is left.
bool clip(double& x0, double& y0, double& x1, double& y1, double w, double h) {
    double t0 = 0, t1 = 1;
    const double dx = x1 - x0, dy = y1 - y0;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {x0, w - 1 - x0, y0, h - 1 - y0};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return false;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0) t0 = std::max(t0, r);
        else t1 = std::min(t1, r);
        if (t0 > t1) return false;
    }
    const double ax = x0 + t0 * dx, ay = y0 + t0 * dy;
    x1 = x0 + t1 * dx, y1 = y0 + t1 * dy;
    x0 = ax, y0 = ay;
    return true;
}

// Bresenham into the id buffer, `thick` pixels wide across the line's minor axis. No QPainter:
// the pen would change for every edge.
void rasterise(quint32* buf, int w, int h, double fx0, double fy0, double fx1, double fy1, quint32 value, int thick) {
    if (!clip(fx0, fy0, fx1, fy1, w, h)) return;
    int x0 = static_cast<int>(std::lround(fx0)), y0 = static_cast<int>(std::lround(fy0));
    const int x1 = static_cast<int>(std::lround(fx1)), y1 = static_cast<int>(std::lround(fy1));
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    const bool steep = -dy > dx;
    int err = dx + dy;
    for (;;) {
        for (int k = 0; k < thick; ++k) {
            const int px = steep ? x0 + k - thick / 2 : x0, py = steep ? y0 : y0 + k - thick / 2;
            if (px >= 0 && px < w && py >= 0 && py < h) buf[static_cast<std::size_t>(py) * static_cast<std::size_t>(w) + static_cast<std::size_t>(px)] = value;
        }
        if (x0 == x1 && y0 == y1) break;
        const int e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

// Screen y of a layout row (0 = hosts at the bottom, `top` at the top of the drawing area).
} // namespace

double raster::rowYOf(double top, int height, double row) {
    const double h = height - kTop - kBottom;
    if (top <= 0) return kTop + h / 2;
    return kTop + h * (top - row) / top;
}

FabricGeometryFrame renderGeometryFrame(const FabricGeometryInput& in) {
    QElapsedTimer timer;
    timer.start();
    FabricGeometryFrame out;
    out.generation = in.generation;
    out.snapshot = in.snapshot;
    out.sx = in.sx, out.ox = in.ox, out.folded = in.folded;
    const QSize sz = in.size;
    out.idBuffer = QImage(sz, QImage::Format_RGB32);
    out.idBuffer.fill(0u);
    out.nodeLayer = QImage(sz, QImage::Format_ARGB32_Premultiplied);
    out.nodeLayer.fill(Qt::transparent);
    if (!in.layout || !in.snapshot) return out;
    const FabricLayout& L = *in.layout;
    const double sx = in.sx;
    const bool folded = in.folded;
    auto pointPos = [&](std::uint32_t pt) { return QPointF(in.ox + in.sx * L.x[pt], rowYOf(L.top, sz.height(), L.y[pt])); };
    auto zoom = [&] { return in.zoom; };
    const auto& edges = folded ? L.edgesFolded : L.edgesUnfolded;
    auto* buf = reinterpret_cast<quint32*>(out.idBuffer.bits());
    const int w = sz.width(), h = sz.height();
    const int thick = sx > 40 ? 3 : 2;
    // Too many links between two tiers to tell apart: one band per pair of switch groups.
    const LinkBundles& bundles = folded ? L.bundlesFolded : L.bundlesUnfolded;
    out.bands = chooseBands(bundles, edges, L, sx, in.ox, w, L.top > 0 ? (h - kTop - kBottom) / L.top : 1.0, thick);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        if (e < bundles.bundleOfEdge.size() && bundles.bundleOfEdge[e] != kNone && out.bands[bundles.bundleOfEdge[e]]) continue;
        const QPointF a = pointPos(edges[e].from), b = pointPos(edges[e].to);
        if (std::max(a.x(), b.x()) < 0 || std::min(a.x(), b.x()) >= w) continue;
        // Bundles of parallel links are drawn wider.
        const int t = edges[e].members > 1 && !L.isGroup(edges[e].to) ? thick + 1 : thick;
        rasterise(buf, w, h, a.x(), a.y(), b.x(), b.y(), static_cast<quint32>(e + 1), t);
    }
    for (std::size_t b = 0; b < bundles.bundles.size(); ++b) {
        if (!out.bands[b]) continue;
        const LinkBundle& band = bundles.bundles[b];
        const double xa = in.ox + sx * band.xLow, xb = in.ox + sx * band.xHigh;
        if (std::max(xa, xb) < 0 || std::min(xa, xb) >= w) continue;
        rasterise(buf, w, h, xa, rowYOf(L.top, h, band.yLow), xb, rowYOf(L.top, h, band.yHigh),
                  static_cast<quint32>(edges.size() + b + 1), bandWidth(band, bundles.maxLinks));
    }

    // Nodes: batched by kind, labels only where they fit.
    QPainter p(&out.nodeLayer);
    p.setClipRect(QRect(QPoint(0, 0), sz));
    p.setRenderHint(QPainter::Antialiasing, sx > 20);
    const auto& f = in.snapshot->fabric;
    QVector<QRectF> switches, hosts, groups;
    const double sw = std::clamp(sx * 0.6, 4.0, 12.0);
    const double hr = std::clamp(sx * 0.3, 1.5, 5.0);
    std::vector<int> perTier(static_cast<std::size_t>(L.maxTier + 1), 0);
    for (std::size_t i = 0; i < L.nodeCount; ++i)
        if (L.tier[i] >= 0) ++perTier[static_cast<std::size_t>(L.tier[i])];
    for (std::uint32_t i = 0; i < L.points(); ++i) {
        if (L.tier[i] < 0) continue;
        const bool group = L.isGroup(i);
        const bool host = !group && L.tier[i] == 0;
        if ((group && !folded) || (host && folded)) continue;
        const QPointF c = pointPos(i);
        if (c.x() < -20 || c.x() > w + 20) continue;
        if (group) {
            const double gw = std::clamp(sx * L.groupSize[i - L.nodeCount] * 0.8, 4.0, 40.0);
            groups.append(QRectF(c.x() - gw / 2, c.y() - 4, gw, 8));
        } else if (host) {
            hosts.append(QRectF(c.x() - hr, c.y() - hr, 2 * hr, 2 * hr));
        } else {
            switches.append(QRectF(c.x() - sw / 2, c.y() - sw / 2, sw, sw));
        }
    }
    // A band lands on a group of switches, not on the one at its end: a bar under the group.
    QVector<QLineF> bars;
    for (std::size_t b = 0; b < bundles.bundles.size(); ++b) {
        if (!out.bands[b]) continue;
        const LinkBundle& band = bundles.bundles[b];
        const double yl = rowYOf(L.top, h, band.yLow), yh = rowYOf(L.top, h, band.yHigh);
        bars.append(QLineF(in.ox + sx * band.xLowMin, yl, in.ox + sx * band.xLowMax, yl));
        bars.append(QLineF(in.ox + sx * band.xHighMin, yh, in.ox + sx * band.xHighMax, yh));
    }
    p.setPen(QPen(QColor(140, 140, 155), 3, Qt::SolidLine, Qt::FlatCap));
    p.drawLines(bars);
    p.setPen(QPen(QColor(30, 40, 60), 1));
    p.setBrush(QColor(60, 95, 150));
    p.drawRects(switches);
    p.setBrush(QColor(70, 150, 95));
    p.setPen(Qt::NoPen);
    for (const auto& r : hosts) p.drawEllipse(r);
    p.setBrush(QColor(70, 150, 95));
    p.setPen(QPen(QColor(30, 80, 50), 1));
    p.drawRects(groups);
    // Labels: a tier's nodes are labelled when their spacing leaves room for a name. What every
    // name of the tier shares at the start and end is left out (FabricLayout::label), at parts of
    // words too when the tier's longest label does not fit, and the rest elided at the right; the
    // full name is in the node's tooltip.
    p.setPen(QColor(30, 30, 30));
    QFont font = p.font();
    font.setPointSizeF(7.5);
    p.setFont(font);
    const QFontMetrics fm(font);
    auto spacingOf = [&](int t) { return t == 0 ? sx : (w - 2 * kSide) * zoom() / std::max(1, perTier[static_cast<std::size_t>(t)]); };
    const bool trimmed = L.label.size() == L.nodeCount && L.longestLabel.size() == perTier.size();
    std::vector<char> shortRow(perTier.size(), 0);
    for (std::size_t t = 0; trimmed && t < perTier.size(); ++t)
        shortRow[t] = perTier[t] > 0 && fm.horizontalAdvance(qs(L.label[L.longestLabel[t]])) > spacingOf(static_cast<int>(t)) - 4;
    for (std::uint32_t i = 0; i < L.nodeCount; ++i) {
        const int t = L.tier[i];
        if (t < 0 || (t == 0 && folded)) continue;
        const double spacing = spacingOf(t);
        if (spacing < 48) continue;
        const QPointF c = pointPos(i);
        if (c.x() < -60 || c.x() > w + 60) continue;
        QString name;
        if (trimmed) name = qs(shortRow[static_cast<std::size_t>(t)] ? L.shortLabel[i] : L.label[i]);
        else name = qs(f.nodes[i].description.empty() ? f.nodes[i].guid : f.nodes[i].description);
        const QString label = fm.elidedText(name, Qt::ElideRight, static_cast<int>(spacing) - 4);
        if (label != name && label.size() <= name.size() / 2) continue;  // "SCOR…" tells no core from the next
        const int lw = fm.horizontalAdvance(label);
        const double ly = t == 0 ? c.y() + hr + fm.ascent() + 2 : c.y() - sw / 2 - 3;
        p.drawText(QPointF(c.x() - lw / 2.0, ly), label);
        out.labels.emplace_back(i, label);
    }
    // Rails and dragonfly groups: a bracket under their hosts and a name where it fits.
    p.setPen(QPen(QColor(110, 110, 130), 1));
    for (const auto& band : L.bands) {
        const double x0 = in.ox + in.sx * band.x0, x1 = in.ox + in.sx * band.x1;
        if (x1 < 0 || x0 > w) continue;
        const double by = h - 9;
        p.drawLine(QPointF(x0, by - 4), QPointF(x0, by));
        p.drawLine(QPointF(x0, by), QPointF(x1, by));
        p.drawLine(QPointF(x1, by - 4), QPointF(x1, by));
        const QString label = QString::fromStdString(band.label);
        if (fm.horizontalAdvance(label) + 6 < x1 - x0) {
            const QRectF r(x0, by - fm.height() - 1, x1 - x0, fm.height());
            p.fillRect(QRectF(r.center().x() - fm.horizontalAdvance(label) / 2.0 - 2, r.top(), fm.horizontalAdvance(label) + 4, r.height()),
                       QColor(255, 255, 255, 200));
            p.drawText(r, Qt::AlignCenter, label);
        }
    }
    p.setPen(QColor(30, 30, 30));
    if (folded) {
        for (std::uint32_t g = 0; g < L.groupSize.size(); ++g) {
            const double spacing = sx * L.groupSize[g];
            if (spacing < 40) continue;
            const QPointF c = pointPos(static_cast<std::uint32_t>(L.nodeCount + g));
            const QString label = FabricView::tr("%n host(s)", nullptr, static_cast<int>(L.groupSize[g]));
            p.drawText(QPointF(c.x() - fm.horizontalAdvance(label) / 2.0, c.y() + 6 + fm.ascent()), label);
        }
    }
    out.ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    return out;
}


} // namespace fabscope
