// The fabric view's bands: at low zoom the links between two groups of switches are drawn as one
// band coloured by the worst of them (views/link_bundles.h). Their ids follow the edges' in the id
// buffer and the colour table; the tooltip (here with the edges' and nodes') names the band's
// link count and its worst link.
#include "views/fabric_view.h"

#include "core/linkrate.h"
#include "views/compare_colouring.h"
#include "views/store_snapshot.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabscope {
using namespace raster;
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

} // namespace

const LinkBundles* FabricView::frameBundles() const {
    if (!layout_) return nullptr;
    return frameFolded_ ? &layout_->bundlesFolded : &layout_->bundlesUnfolded;
}

std::size_t FabricView::frameEdgeCount() const {
    if (!layout_ || idBuffer_.isNull()) return 0;
    return (frameFolded_ ? layout_->edgesFolded : layout_->edgesUnfolded).size();
}

int FabricView::bandOfEdge(std::uint32_t edge) const {
    const LinkBundles* bundles = frameBundles();
    if (!bundles || edge >= bundles->bundleOfEdge.size()) return -1;
    const auto b = bundles->bundleOfEdge[edge];
    return b < frameBands_.size() && frameBands_[b] ? static_cast<int>(b) : -1;
}

std::pair<QPointF, QPointF> FabricView::drawnEnds(std::uint32_t id) const {
    const std::size_t edges = frameEdgeCount();
    if (id < edges) {
        const auto& edge = (frameFolded_ ? layout_->edgesFolded : layout_->edgesUnfolded)[id];
        return {pointPos(edge.from), pointPos(edge.to)};
    }
    const LinkBundle& b = frameBundles()->bundles[id - edges];
    return {QPointF(ox_ + sx_ * b.xLow, rowYOf(layout_->top, height(), b.yLow)), QPointF(ox_ + sx_ * b.xHigh, rowYOf(layout_->top, height(), b.yHigh))};
}

int FabricView::worstLinkOf(std::uint32_t id) const {
    const std::size_t edges = frameEdgeCount();
    const auto& list = frameFolded_ ? layout_->edgesFolded : layout_->edgesUnfolded;
    std::vector<std::uint32_t> drawn{id};
    if (id >= edges) drawn = frameBundles()->bundles[id - edges].edges;
    // The hottest link at the cursor, else the first.
    int best = static_cast<int>(layout_->edgeMembers[list[drawn.front()].firstMember]);
    float bestV = kNaN;
    for (auto e : drawn)
        for (std::uint32_t k = 0; k < list[e].members; ++k) {
            const int l = static_cast<int>(layout_->edgeMembers[list[e].firstMember + k]);
            const float v = linkValue(l);
            if (!std::isnan(v) && (std::isnan(bestV) || v > bestV)) bestV = v, best = l;
        }
    return best;
}

void FabricView::colourBands() {
    const LinkBundles* bundles = frameBundles();
    const std::size_t edges = frameEdgeCount(), n = bundles && edges ? bundles->bundles.size() : 0;
    edgeValue_.resize(edges + n, kNaN);
    edgeColour_.resize(edges + n + 1, palette().base().color().rgb());
    for (std::size_t b = 0; b < n && b < frameBands_.size(); ++b) {
        if (!frameBands_[b]) continue;
        // The worst of its edges (each already the worst of its parallel links); in compare mode
        // the largest change either way.
        float v = kNaN;
        for (auto e : bundles->bundles[b].edges) {
            const float x = edgeValue_[e];
            if (!std::isnan(x) && (std::isnan(v) || (compare_ ? std::abs(x) > std::abs(v) : x > v))) v = x;
        }
        edgeValue_[edges + b] = v;
        edgeColour_[edges + b + 1] = compare_ ? compare_->rgb(v) : scale_.rgb(v);
    }
}

QString FabricView::bundleLegend() const {
    if (std::find(frameBands_.begin(), frameBands_.end(), 1) == frameBands_.end()) return {};
    return compare_ ? tr("bundle: largest change of its links; width by link count")
                    : tr("bundle: worst of its links; width by link count; zoom in for each");
}

void FabricView::paintBandNote(QPainter& p, const QRect& area) const {
    const QString note = bundleLegend();
    if (note.isEmpty()) return;
    // Boxed like the legend, right-aligned against it.
    p.save();
    QFont font = p.font();
    font.setPointSizeF(7.5);
    p.setFont(font);
    const QFontMetrics fm(font);
    const QString text = fm.elidedText(note, Qt::ElideRight, std::max(40, area.width() - 12));
    const int w = fm.horizontalAdvance(text) + 12;
    const QRect box(area.right() - w + 1, area.top(), w, area.height());
    p.fillRect(box, QColor(255, 255, 255, 225));
    p.setPen(QColor(120, 120, 120));
    p.drawRect(box.adjusted(0, 0, -1, -1));
    p.setPen(QColor(20, 20, 20));
    p.drawText(box.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    p.restore();
}

QString FabricView::bandTooltip(std::uint32_t band) const {
    const LinkBundle& b = frameBundles()->bundles[band];
    const std::uint32_t id = static_cast<std::uint32_t>(frameEdgeCount()) + band;
    const int worst = worstLinkOf(id);
    QString text = tr("<b>Bundle of %1 links</b> between %2 (tier %3) and %4 (tier %5), %6 switch pairs; zoom in to see each")
                       .arg(b.links)
                       .arg(qs(b.nameLow).toHtmlEscaped())
                       .arg(b.tierLow)
                       .arg(qs(b.nameHigh).toHtmlEscaped())
                       .arg(b.tierHigh)
                       .arg(b.edges.size());
    const float v = id < edgeValue_.size() ? edgeValue_[id] : kNaN;
    const QString label = qs(snapshot_->linkLabel(LinkId(static_cast<std::size_t>(worst)))).toHtmlEscaped();
    if (compare_) return text + tr("<br>largest change: %1, Δ p95 utilisation %2").arg(label, CompareColouring::format(v));
    return text + tr("<br>worst: %1; %2: %3").arg(label, scale_.name(), scale_.format(v));
}

QString FabricView::tooltipAt(QPointF pos) const {
    if (legendRect().contains(pos.toPoint())) return compare_ ? compare_->scaleTitle().toHtmlEscaped() : scale_.legendTooltip();
    if (!snapshot_ || !layout_) return {};
    const auto& f = snapshot_->fabric;
    if (const int n = nodeAt(pos); n >= 0) {
        const Node& node = f.nodes[static_cast<std::size_t>(n)];
        return tr("<b>%1</b><br>%2, GUID %3<br>tier %4, %5 ports")
                   .arg(qs(node.description).toHtmlEscaped(), QString::fromUtf8(toString(node.type).data()), qs(node.guid))
                   .arg(snapshot_->tiers[static_cast<std::size_t>(n)])
                   .arg(node.numPorts) +
               moduleMarksTooltip(n, -1);
    }
    const int e = edgeAt(pos);
    if (e < 0) return {};
    if (static_cast<std::size_t>(e) >= frameEdgeCount()) return bandTooltip(static_cast<std::uint32_t>(e) - static_cast<std::uint32_t>(frameEdgeCount()));
    const auto& edge = (frameFolded_ ? layout_->edgesFolded : layout_->edgesUnfolded)[static_cast<std::size_t>(e)];
    const auto& rates = snapshot_->rates;
    auto util = [&](LinkMetric m, std::uint32_t l) {
        return bin_ >= 0 && !rates.empty() ? rates.value(m, l, static_cast<std::size_t>(bin_)) : std::numeric_limits<float>::quiet_NaN();
    };
    const ColourScale pct(LinkMetric::UtilUp);
    QString text;
    if (layout_->isGroup(edge.to) || layout_->isGroup(edge.from)) {
        const auto g = std::max(edge.from, edge.to);
        text = tr("<b>%1 host links of %2</b> (folded; zoom in to see each)")
                   .arg(edge.members)
                   .arg(qs(f.nodes[layout_->groupLeaf[g - layout_->nodeCount]].description).toHtmlEscaped());
    } else {
        const std::uint32_t l = layout_->edgeMembers[edge.firstMember];
        const Link& link = f.links[l];
        const QString capacity = link.capacityBps ? tr("%1 Gb/s").arg(static_cast<double>(link.capacityBps) / 1e9) : tr("capacity unknown");
        text = tr("<b>%1</b><br>%2, %3%4")
                   .arg(qs(snapshot_->linkLabel(LinkId(static_cast<std::size_t>(l)))).toHtmlEscaped(),
                        qs(widthSpeedLabel(link.width, link.speed)), capacity)
                   .arg(edge.members > 1 ? tr("<br>%1 parallel links").arg(edge.members) : QString());
        if (snapshot_->capacityVaries(LinkId(static_cast<std::size_t>(l)))) {  // utilisation is of the speed then
            const auto [up, down] = snapshot_->capacityGbpsAt(LinkId(static_cast<std::size_t>(l)), time_);
            text += up == down ? tr("<br>%1 Gb/s at the cursor (speed changed between snapshots)").arg(up, 0, 'g', 4)
                               : tr("<br>up %1 Gb/s, down %2 Gb/s at the cursor (speed changed between snapshots)").arg(up, 0, 'g', 4).arg(down, 0, 'g', 4);
        }
        text += moduleMarksTooltip(-1, static_cast<int>(l));
        const ColourScale gbps(LinkMetric::ThroughputUp);
        text += tr("<br>up %1 (%2), down %3 (%4)")
                    .arg(gbps.format(util(LinkMetric::ThroughputUp, l)), pct.format(util(LinkMetric::UtilUp, l)),
                         gbps.format(util(LinkMetric::ThroughputDown, l)), pct.format(util(LinkMetric::UtilDown, l)));
    }
    if (compare_) {
        if (edge.members == 1) text += QStringLiteral("<br>") + compare_->tooltip(layout_->edgeMembers[edge.firstMember]).toHtmlEscaped();
        return text + tr("<br>Δ p95 utilisation drawn: %1 (largest change of the %2 link(s) drawn here)")
                          .arg(CompareColouring::format(edgeValue_.size() > static_cast<std::size_t>(e) ? edgeValue_[static_cast<std::size_t>(e)]
                                                                                                         : std::numeric_limits<float>::quiet_NaN()))
                          .arg(edge.members);
    }
    text += tr("<br>%1: %2 (max over the %3 link(s) drawn here)")
                .arg(scale_.name(), scale_.format(edgeValue_.size() > static_cast<std::size_t>(e) ? edgeValue_[static_cast<std::size_t>(e)]
                                                                                                 : std::numeric_limits<float>::quiet_NaN()))
                .arg(edge.members);
    return text;
}

} // namespace fabscope
