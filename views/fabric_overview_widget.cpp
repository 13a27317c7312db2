#include "views/fabric_overview_widget.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace fabscope {

FabricOverviewWidget::FabricOverviewWidget(QWidget* parent) : QWidget(parent) {
    setMinimumSize(400, 300);
    setMouseTracking(true);
}

void FabricOverviewWidget::setSnapshot(std::shared_ptr<const StoreSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    degraded_.clear();
    maxTier_ = 0;
    if (snapshot_) {
        const auto& f = snapshot_->fabric;
        for (int t : snapshot_->tiers) maxTier_ = std::max(maxTier_, t);
        // Most common width per tier pair; a link below it is degraded.
        std::map<std::pair<int, int>, std::map<int, int>> widths;
        auto tierPair = [&](const Link& l) {
            const int a = snapshot_->tiers[f.port(l.a).node.value()], b = snapshot_->tiers[f.port(l.b).node.value()];
            return std::pair{std::min(a, b), std::max(a, b)};
        };
        for (const auto& l : f.links)
            if (l.width) ++widths[tierPair(l)][*l.width];
        for (std::size_t i = 0; i < f.links.size(); ++i) {
            const auto& l = f.links[i];
            if (!l.width) continue;
            const auto& hist = widths[tierPair(l)];
            const auto usual = std::max_element(hist.begin(), hist.end(), [](auto x, auto y) { return x.second < y.second; });
            if (*l.width < usual->first) degraded_.push_back(i);
        }
    }
    layoutNodes();
    update();
}

void FabricOverviewWidget::layoutNodes() {
    positions_.clear();
    if (!snapshot_) return;
    const auto& f = snapshot_->fabric;
    std::vector<std::vector<std::size_t>> byTier(static_cast<std::size_t>(maxTier_ + 1));
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (snapshot_->tiers[i] >= 0) byTier[static_cast<std::size_t>(snapshot_->tiers[i])].push_back(i);
    positions_.assign(f.nodes.size(), QPointF(-1, -1));
    const double margin = 30, h = height() - 2 * margin - 30, w = width() - 2 * margin;
    for (std::size_t t = 0; t < byTier.size(); ++t) {
        const double y = margin + (maxTier_ == 0 ? h / 2 : h * (1.0 - static_cast<double>(t) / maxTier_));
        const auto& nodes = byTier[t];
        for (std::size_t k = 0; k < nodes.size(); ++k)
            positions_[nodes[k]] = QPointF(margin + w * (static_cast<double>(k) + 0.5) / static_cast<double>(nodes.size()), y);
    }
}

void FabricOverviewWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layoutNodes();
}

int FabricOverviewWidget::nodeAt(QPointF pos) const {
    int best = -1;
    double bestD = 8 * 8;
    for (std::size_t i = 0; i < positions_.size(); ++i) {
        const QPointF d = positions_[i] - pos;
        const double dd = d.x() * d.x() + d.y() * d.y();
        if (positions_[i].x() >= 0 && dd < bestD) {
            bestD = dd;
            best = static_cast<int>(i);
        }
    }
    return best;
}

bool FabricOverviewWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && snapshot_) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int n = nodeAt(help->pos());
        if (n >= 0) {
            const Node& node = snapshot_->fabric.nodes[static_cast<std::size_t>(n)];
            QToolTip::showText(help->globalPos(),
                               tr("%1\n%2, GUID %3, tier %4, %5 ports")
                                   .arg(QString::fromStdString(node.description),
                                        QString::fromUtf8(toString(node.type).data()),
                                        QString::fromStdString(node.guid))
                                   .arg(snapshot_->tiers[static_cast<std::size_t>(n)])
                                   .arg(node.numPorts),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

void FabricOverviewWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!snapshot_ || snapshot_->fabric.nodes.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No fabric loaded.\nOpen a store (Ctrl+O) or drop topology files here."));
        return;
    }
    const auto& f = snapshot_->fabric;
    p.setClipRect(rect());  // clipped line drawing is ~6x faster (DESIGN §6)
    // Batch links by colour: normal first, degraded on top.
    QVector<QLineF> normal, degraded;
    std::vector<bool> isDegraded(f.links.size(), false);
    for (auto i : degraded_) isDegraded[i] = true;
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const auto& l = f.links[i];
        const QPointF a = positions_[f.port(l.a).node.value()], b = positions_[f.port(l.b).node.value()];
        if (a.x() < 0 || b.x() < 0) continue;
        (isDegraded[i] ? degraded : normal).append(QLineF(a, b));
    }
    p.setPen(QPen(QColor(150, 160, 175, 120), 1));
    p.drawLines(normal);
    p.setPen(QPen(QColor(230, 120, 0), 2.5));
    p.drawLines(degraded);
    const double r = f.nodes.size() > 500 ? 2.0 : 5.0;
    p.setPen(Qt::NoPen);
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        if (positions_[i].x() < 0) continue;
        p.setBrush(f.nodes[i].type == NodeType::Switch ? QColor(40, 90, 160) : QColor(60, 150, 90));
        p.drawEllipse(positions_[i], r, r);
    }
    // Legend.
    p.setPen(palette().text().color());
    const int y = height() - 12;
    p.drawText(10, y, tr("%1 switches, %2 hosts, %3 links  |  grey: link  |  orange: below the usual width of its tier (%4)")
                          .arg(f.count(NodeType::Switch))
                          .arg(f.count(NodeType::Ca))
                          .arg(f.links.size())
                          .arg(degraded_.size()));
}

} // namespace fabscope
