// The fabric view's hardware marks, so a flagged optic or a failed power supply is seen on the
// graph before anyone opens the inspector: an amber triangle on a port module's link next to the
// node whose port holds it (the rule and its words are the findings', core/analysis/optic_evidence.h),
// a red diamond further along the link of a port whose bit error rate is above the threshold
// (core/analysis/ber_rule.h), and a red square at the top right of a node a tool reported errors
// about (fabric_events).
#include "core/analysis/ber_rule.h"
#include "core/analysis/optic_evidence.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace fabscope {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

constexpr double kMarkOffset = 20;  // px from the node's centre along its link (a bit error mark twice as far)
constexpr double kMarkSize = 7;     // px, half the triangle's width

} // namespace

void FabricView::setMarkConfig(const AnalysisConfig& config) {
    opticsConfig_ = config.optics;
    berConfig_ = config.errorLink;
    updateModuleMarks();
    update();
}

void FabricView::updateModuleMarks() {
    moduleMarks_.clear();
    if (!snapshot_) return;
    const Fabric& f = snapshot_->fabric;
    for (const auto& [portId, optics] : snapshot_->optics) {
        if (portId >= f.ports.size()) continue;
        const std::string why = opticConcernText(optics, opticsConfig_);
        if (why.empty()) continue;
        const PortId port(portId);
        const auto link = snapshot_->linkOf(port);
        moduleMarks_.push_back({static_cast<std::uint32_t>(f.port(port).node.value()),
                                link ? static_cast<int>(link->value()) : -1,
                                qs(snapshot_->portLabel(port) + " module: " + why)});
    }
    for (const auto& [portId, ber] : snapshot_->ber) {
        const auto excess = portId < f.ports.size() ? berExcess(ber, berConfig_) : std::nullopt;
        if (!excess) continue;
        const PortId port(portId);
        const auto link = snapshot_->linkOf(port);
        moduleMarks_.push_back({static_cast<std::uint32_t>(f.port(port).node.value()), link ? static_cast<int>(link->value()) : -1,
                                qs(snapshot_->portLabel(port) + " bit error rate " + excess->text()), true});
    }
    // Stable order for tooltips and tests: by node, then text.
    std::sort(moduleMarks_.begin(), moduleMarks_.end(),
              [](const ModuleMark& a, const ModuleMark& b) { return a.node != b.node ? a.node < b.node : a.text < b.text; });
    errorMarks_.clear();
    for (const auto& [node, events] : snapshot_->events) {
        QString text;
        for (const FabricEvent& e : events)
            if (e.error) text += (text.isEmpty() ? QString() : QStringLiteral("; ")) + qs(e.tool + ": " + e.summary);
        if (!text.isEmpty() && node < f.nodes.size()) errorMarks_.push_back({node, text});
    }
    std::sort(errorMarks_.begin(), errorMarks_.end(), [](const NodeErrorMark& a, const NodeErrorMark& b) { return a.node < b.node; });
    updatePlanMarks();
}

std::optional<QPointF> FabricView::nodeErrorMarkPosition(const NodeErrorMark& mark) const {
    if (!snapshot_ || !layout_) return std::nullopt;
    const auto c = nodePosition(static_cast<int>(mark.node));
    if (!c) return std::nullopt;
    return *c + QPointF(kMarkSize + 3, -(kMarkSize + 3));
}

std::optional<QPointF> FabricView::moduleMarkPosition(const ModuleMark& mark) const {
    if (!snapshot_ || !layout_) return std::nullopt;
    const auto own = nodePosition(static_cast<int>(mark.node));
    std::optional<QPointF> far;
    if (mark.link >= 0) {
        const Link& l = snapshot_->fabric.links[static_cast<std::size_t>(mark.link)];
        const auto a = snapshot_->fabric.port(l.a).node.value(), b = snapshot_->fabric.port(l.b).node.value();
        far = nodePosition(static_cast<int>(a == mark.node ? b : a));
    }
    if (own && far && *own != *far) {
        const QPointF d = *far - *own;
        const double len = std::hypot(d.x(), d.y());
        const double offset = mark.bitErrors ? 2 * kMarkOffset : kMarkOffset;
        return *own + d * (std::min(offset, len / (mark.bitErrors ? 2.2 : 3)) / len);
    }
    if (own) return *own + QPointF(kMarkSize + 4, -(kMarkSize + 4));
    if (far) return *far + QPointF(kMarkSize + 4, kMarkSize + 4);  // a folded host: beside its leaf
    return std::nullopt;
}

void FabricView::paintModuleMarks(QPainter& p) const {
    p.save();
    p.setPen(QPen(QColor(90, 50, 0), 1.2));
    p.setBrush(QColor(255, 176, 0));
    for (const ModuleMark& m : moduleMarks_) {
        const auto c = moduleMarkPosition(m);
        if (!c || !rect().contains(c->toPoint()) || m.bitErrors) continue;
        QPainterPath tri;
        tri.moveTo(c->x(), c->y() - kMarkSize);
        tri.lineTo(c->x() + kMarkSize, c->y() + kMarkSize * 0.8);
        tri.lineTo(c->x() - kMarkSize, c->y() + kMarkSize * 0.8);
        tri.closeSubpath();
        p.drawPath(tri);
    }
    p.setPen(QPen(QColor(90, 0, 0), 1.2));
    p.setBrush(QColor(214, 39, 40));
    for (const ModuleMark& m : moduleMarks_) {
        const auto c = moduleMarkPosition(m);
        if (!c || !rect().contains(c->toPoint()) || !m.bitErrors) continue;
        p.drawPolygon(QPolygonF({{c->x(), c->y() - kMarkSize}, {c->x() + kMarkSize, c->y()}, {c->x(), c->y() + kMarkSize}, {c->x() - kMarkSize, c->y()}}));
    }
    for (const NodeErrorMark& m : errorMarks_)
        if (const auto c = nodeErrorMarkPosition(m); c && rect().contains(c->toPoint()))
            p.drawRect(QRectF(c->x() - kMarkSize * 0.7, c->y() - kMarkSize * 0.7, kMarkSize * 1.4, kMarkSize * 1.4));
    p.restore();
    paintPlanMarks(p);
}

QString FabricView::moduleMarksNote() const {
    QStringList parts;
    const auto bitErrors = static_cast<int>(std::count_if(moduleMarks_.begin(), moduleMarks_.end(), [](const ModuleMark& m) { return m.bitErrors; }));
    if (const int n = static_cast<int>(moduleMarks_.size()) - bitErrors; n > 0)
        parts << (n == 1 ? tr("▲ 1 module to check") : tr("▲ %1 modules to check").arg(n));
    if (bitErrors > 0)
        parts << (bitErrors == 1 ? tr("◆ 1 port above the bit error rate threshold") : tr("◆ %1 ports above the bit error rate threshold").arg(bitErrors));
    if (const auto n = static_cast<int>(errorMarks_.size()); n > 0)
        parts << (n == 1 ? tr("■ 1 node with errors") : tr("■ %1 nodes with errors").arg(n));
    if (const QString plan = planMarksNote(); !plan.isEmpty()) parts << plan;
    return parts.join(QStringLiteral(" · "));  // a node's or link's tooltip says why
}

QString FabricView::moduleMarksTooltip(int node, int link) const {
    QString text;
    for (const ModuleMark& m : moduleMarks_)
        if ((node >= 0 && static_cast<int>(m.node) == node) || (link >= 0 && m.link == link))
            text += (m.bitErrors ? QStringLiteral("<br>◆ ") : QStringLiteral("<br>▲ ")) + m.text.toHtmlEscaped();
    for (const NodeErrorMark& m : errorMarks_)
        if (node >= 0 && static_cast<int>(m.node) == node) text += QStringLiteral("<br>■ ") + m.text.toHtmlEscaped();
    return text + planMarksTooltip(node, link);
}

} // namespace fabscope
