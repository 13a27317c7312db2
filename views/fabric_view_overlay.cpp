// The fabric view's overlay of a finding or a job (views/finding_focus.h): glows under the links
// it names, its path with numbered hops, the origin of a storm or tree and where it spread.
#include "views/fabric_view.h"

#include "views/store_snapshot.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QPainter>

namespace fabscope {

// The window decides what a right-click offers (what-if, app/main_window_whatif.cpp); a node is
// hit before the links that end at it, as a left click does.
void FabricView::contextMenuEvent(QContextMenuEvent* e) {
    renderFrame();
    const int node = nodeAt(e->pos());
    const int link = node >= 0 ? -1 : linkAt(e->pos());
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("fabricContextMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    Q_EMIT contextMenuRequested(menu, node, link);
    if (menu->isEmpty()) {
        delete menu;
        return QWidget::contextMenuEvent(e);
    }
    e->accept();
    menu->popup(e->globalPos());
}

void FabricView::paintFindingOverlay(QPainter& p) const {
    if (overlay_.empty() || !snapshot_) return;
    const auto& f = snapshot_->fabric;
    auto linkLine = [&](std::uint32_t l) -> std::optional<QLineF> {
        if (l >= f.links.size()) return std::nullopt;
        const auto a = nodePosition(static_cast<int>(f.port(f.links[l].a).node.value()));
        const auto b = nodePosition(static_cast<int>(f.port(f.links[l].b).node.value()));
        if (!a || !b || *a == *b) return std::nullopt;
        return QLineF(*a, *b);
    };
    // A glow under each link, then the link in its metric colour so the value stays readable.
    auto glow = [&](const std::vector<std::uint32_t>& links, QColor colour, double width) {
        QVector<QLineF> lines;
        for (auto l : links)
            if (auto line = linkLine(l)) lines.append(*line);
        p.setPen(QPen(colour, width, Qt::SolidLine, Qt::RoundCap));
        p.drawLines(lines);
        for (auto l : links)
            if (auto line = linkLine(l)) {
                p.setPen(QPen(QColor(linkColour(static_cast<int>(l))), 3));
                p.drawLine(*line);
            }
    };
    glow(overlay_.jobLinks, QColor(0, 170, 150, 120), 7);    // every route of a job
    glow(overlay_.links, QColor(200, 0, 200, 110), 9);       // the finding's ports
    glow(overlay_.spreadLinks, QColor(255, 150, 0, 150), 9);  // where a storm or tree spread
    if (!overlay_.pathLinks.empty()) glow(overlay_.pathLinks, QColor(0, 120, 255, 140), 11);  // a straggler's route
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(200, 0, 200), 2));
    for (auto n : overlay_.nodes)
        if (auto c = nodePosition(static_cast<int>(n))) p.drawEllipse(*c, 9, 9);
    if (overlay_.originLink >= 0)
        if (auto line = linkLine(static_cast<std::uint32_t>(overlay_.originLink))) {
            p.setPen(QPen(QColor(220, 0, 0, 170), 11, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(*line);
        }
    if (overlay_.originNode >= 0)
        if (auto c = nodePosition(overlay_.originNode)) {
            p.setPen(QPen(QColor(220, 0, 0), 3));
            p.drawEllipse(*c, 13, 13);
            p.setPen(QColor(180, 0, 0));
            p.drawText(QPointF(c->x() + 15, c->y() + 4), tr("origin"));
        }
}

// Hop numbers along a straggler's route, at each link's middle: painted after the selection, so
// the selected link (often the route's bottleneck) never hides its number.
void FabricView::paintHopNumbers(QPainter& p) const {
    if (overlay_.pathLinks.empty()) return;
    const auto& f = snapshot_->fabric;
    QFont font = p.font();
    font.setBold(true);
    p.save();
    p.setFont(font);
    for (std::size_t k = 0; k < overlay_.pathLinks.size(); ++k) {
        const Link& l = f.links[overlay_.pathLinks[k]];
        const auto a = nodePosition(static_cast<int>(f.port(l.a).node.value()));
        const auto b = nodePosition(static_cast<int>(f.port(l.b).node.value()));
        if (!a || !b) continue;
        const QPointF c = (*a + *b) / 2;
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0, 90, 200));
        p.drawEllipse(c, 8, 8);
        p.setPen(Qt::white);
        p.drawText(QRectF(c.x() - 8, c.y() - 8, 16, 16), Qt::AlignCenter, QString::number(k + 1));
    }
    p.restore();
}

} // namespace fabscope
