// The fabric against its cabling plan, on the graph: a planned cable that is not cabled is a red
// dashed line between the two nodes it should join, and a cable off the plan (on another port
// than planned, not planned, or at another speed) a red cross on its link. The marks come from the
// plan check's topology_change findings (core/analysis/topology_change.h), read with the fabric.
#include "core/analysis/findings.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"

#include <QPainter>

namespace fabscope {
namespace {

constexpr double kCross = 5;  // px, half the cross' width

std::string changeOf(const Finding& f) {
    for (const auto& [k, v] : f.metrics)
        if (k == "change" && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return {};
}

} // namespace

void FabricView::updatePlanMarks() {
    planMarks_.clear();
    if (!snapshot_) return;
    auto nodeOf = [this](const PortRef& ref) {
        for (const std::string& key : {ref.guid, ref.node})
            if (const auto it = snapshot_->nodeByName.find(key); !key.empty() && it != snapshot_->nodeByName.end())
                return static_cast<int>(it->second);
        return -1;
    };
    for (const Finding& f : snapshot_->planChecks) {
        if (f.ports.size() < 2) continue;
        PlanMark m;
        m.text = QString::fromStdString(f.summary);
        m.missing = changeOf(f) == "removed";
        if (m.missing) {
            m.nodeA = nodeOf(f.ports[0]);
            m.nodeB = nodeOf(f.ports[1]);
        } else if (const auto port = snapshot_->findPort(f.ports[0])) {
            if (const auto link = snapshot_->linkOf(*port)) m.link = static_cast<int>(link->value());
        }
        planMarks_.push_back(std::move(m));
    }
}

std::optional<std::pair<QPointF, QPointF>> FabricView::planMarkGeometry(const PlanMark& mark) const {
    if (!snapshot_ || !layout_) return std::nullopt;
    if (mark.link >= 0) {
        const Link& l = snapshot_->fabric.links[static_cast<std::size_t>(mark.link)];
        const auto a = nodePosition(static_cast<int>(snapshot_->fabric.port(l.a).node.value()));
        const auto b = nodePosition(static_cast<int>(snapshot_->fabric.port(l.b).node.value()));
        if (!a || !b) return std::nullopt;
        const QPointF mid = (*a + *b) / 2;
        return std::pair{mid, mid};
    }
    const auto a = nodePosition(mark.nodeA), b = nodePosition(mark.nodeB);
    if (!a || !b || *a == *b) return std::nullopt;  // a node the fabric lacks, or hosts folded together
    return std::pair{*a, *b};
}

void FabricView::paintPlanMarks(QPainter& p) const {
    if (planMarks_.empty()) return;
    p.save();
    const QColor red(214, 39, 40);
    for (const PlanMark& m : planMarks_) {
        const auto g = planMarkGeometry(m);
        if (!g) continue;
        if (!m.missing) {
            p.setPen(QPen(red, 2.5));
            p.drawLine(g->first + QPointF(-kCross, -kCross), g->first + QPointF(kCross, kCross));
            p.drawLine(g->first + QPointF(-kCross, kCross), g->first + QPointF(kCross, -kCross));
        } else {
            QPen dashed(red, 2);
            dashed.setDashPattern({3, 3});  // 6 px on, 6 off: gaps a glance tells from a solid link
            p.setPen(dashed);
            p.drawLine(g->first, g->second);
        }
    }
    p.restore();
}

QString FabricView::planMarksNote() const {
    int missing = 0, off = 0;
    for (const PlanMark& m : planMarks_) ++(m.missing ? missing : off);
    if (missing == 0 && off == 0) return {};
    QStringList parts;
    if (missing > 0) parts << (missing == 1 ? tr("╌ 1 planned cable missing") : tr("╌ %1 planned cables missing").arg(missing));
    if (off > 0) parts << (off == 1 ? tr("✕ 1 cable off the plan") : tr("✕ %1 cables off the plan").arg(off));
    return parts.join(QStringLiteral(" · "));
}

QString FabricView::planMarksTooltip(int node, int link) const {
    QString text;
    for (const PlanMark& m : planMarks_)
        if ((node >= 0 && (m.nodeA == node || m.nodeB == node)) || (link >= 0 && m.link == link))
            text += QStringLiteral("<br>") + (m.missing ? QStringLiteral("╌ ") : QStringLiteral("✕ ")) + m.text.toHtmlEscaped();
    return text;
}

} // namespace fabscope
