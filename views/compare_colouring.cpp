#include "views/compare_colouring.h"

#include "core/analysis/findings.h"
#include "views/fabric_view.h"
#include "views/store_snapshot.h"
#include "views/utc_text.h"

#include <QFileInfo>
#include <QLinearGradient>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace fabscope {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

QString qs(const std::string& s) { return QString::fromStdString(s); }

std::optional<double> number(const ChangeValues& values, std::string_view key) {
    for (const auto& [k, v] : values)
        if (k == key && std::holds_alternative<double>(v)) return std::get<double>(v);
    return std::nullopt;
}

std::string text(const ChangeValues& values, std::string_view key) {
    for (const auto& [k, v] : values)
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return {};
}

int nodeOf(const StoreSnapshot& s, const PortRef& r) {
    auto it = r.guid.empty() ? s.nodeByName.end() : s.nodeByName.find(r.guid);
    if (it == s.nodeByName.end()) it = s.nodeByName.find(r.node);
    return it == s.nodeByName.end() ? -1 : static_cast<int>(it->second);
}

int linkOfRef(const StoreSnapshot& s, const PortRef& r) {
    const auto port = s.findPort(r);
    if (!port) return -1;
    const auto link = s.linkOf(*port);
    return link ? static_cast<int>(link->value()) : -1;
}

QColor mix(QRgb a, QRgb b, double f) {
    return QColor(static_cast<int>(qRed(a) + (qRed(b) - qRed(a)) * f), static_cast<int>(qGreen(a) + (qGreen(b) - qGreen(a)) * f),
                  static_cast<int>(qBlue(a) + (qBlue(b) - qBlue(a)) * f));
}

} // namespace

QString compareSideLabel(const CompareSide& side) {
    const QString name = QFileInfo(qs(side.store)).fileName();
    if (side.end < side.start) return name;
    return QObject::tr("%1 %2 UTC").arg(name, utcSpanText(side.start, side.end));
}

QString compareTitle(const CompareReport& report) {
    return QObject::tr("Compare: good %1 vs bad %2").arg(compareSideLabel(report.good), compareSideLabel(report.bad));
}

FindingFocus focusOfChange(const StoreSnapshot& shown, const Change& change) {
    Finding f;
    f.ports = change.ports;
    FindingFocus focus = focusOf(shown, f);
    // A job or benchmark names hosts: their nodes (a host's CA is "<host> <device>" or the host).
    for (const std::string& host : change.hosts)
        for (std::size_t n = 0; n < shown.fabric.nodes.size(); ++n) {
            const std::string& d = shown.fabric.nodes[n].description;
            if (d == host || (d.size() > host.size() && d.compare(0, host.size(), host) == 0 && d[host.size()] == ' ')) {
                const auto node = static_cast<std::uint32_t>(n);
                if (std::find(focus.nodes.begin(), focus.nodes.end(), node) == focus.nodes.end()) focus.nodes.push_back(node);
                if (focus.primaryNode < 0) focus.primaryNode = static_cast<int>(n);
            }
        }
    return focus;
}

CompareColouring::CompareColouring(std::shared_ptr<const CompareResult> result, const StoreSnapshot& shown) : result_(std::move(result)) {
    const std::size_t links = shown.fabric.links.size();
    delta_.assign(links, kNaN);
    goodP95_.assign(links, kNaN);
    badP95_.assign(links, kNaN);
    // Links with counters in the shown side's window: unchanged (0) unless a load change says more.
    const CompareSide& side = result_->shownIsBad ? result_->report.bad : result_->report.good;
    const auto& r = shown.rates;
    if (!r.empty() && r.links == links && r.step > 0) {
        const auto first = static_cast<std::size_t>(std::clamp(std::floor((side.start - r.start) / r.step), 0.0, static_cast<double>(r.bins)));
        const auto last = static_cast<std::size_t>(std::clamp(std::ceil((side.end - r.start) / r.step), 0.0, static_cast<double>(r.bins)));
        for (std::size_t l = 0; l < links; ++l)
            for (std::size_t b = first; b < last; ++b)
                if (!std::isnan(r.value(LinkMetric::UtilMax, l, b))) {
                    delta_[l] = 0;
                    break;
                }
    }
    std::vector<bool> listed(links, false);  // a load change with figures on both sides
    double largest = 0;
    for (const Change& c : result_->report.changes) {
        if (c.kind == ChangeKind::Load && c.ports.size() == 2) {
            int l = linkOfRef(shown, c.ports[0]);
            if (l < 0) l = linkOfRef(shown, c.ports[1]);
            if (l < 0) continue;
            const auto li = static_cast<std::size_t>(l);
            const auto g = number(c.good, "p95_util"), b = number(c.bad, "p95_util");
            if (!g || !b) {  // counters on one side only: no Δ to draw
                if (!listed[li]) delta_[li] = kNaN;
                continue;
            }
            const auto d = static_cast<float>((*b - *g) * 100);
            if (!listed[li] || std::abs(d) > std::abs(delta_[li])) {
                delta_[li] = d;
                goodP95_[li] = static_cast<float>(*g * 100);
                badP95_[li] = static_cast<float>(*b * 100);
            }
            listed[li] = true;
            largest = std::max(largest, std::abs(static_cast<double>(d)));
        } else if (c.kind == ChangeKind::Topology && c.ports.size() == 2) {
            Mark m;
            m.nodeA = nodeOf(shown, c.ports[0]);
            m.nodeB = nodeOf(shown, c.ports[1]);
            m.link = linkOfRef(shown, c.ports[0]);
            if (m.link < 0) m.link = linkOfRef(shown, c.ports[1]);
            const std::string ws = text(c.bad, "width_speed");
            if (text(c.bad, "link") == "none") m.removed = true, m.label = QObject::tr("removed");
            else if (text(c.good, "link") == "none") m.label = QObject::tr("added");
            else if (!ws.empty()) m.label = qs(ws);
            else if (!text(c.bad, "module").empty()) m.label = QObject::tr("module replaced");  // same link, another optic or cable
            else m.label = QObject::tr("moved");
            if (m.nodeA >= 0 && m.nodeB >= 0) marks_.push_back(std::move(m));
        }
    }
    // The scale's end: the largest change, rounded up to 10 points (10..100).
    range_ = std::clamp(std::ceil(largest / 10) * 10, 10.0, 100.0);
}

float CompareColouring::delta(std::size_t link) const { return link < delta_.size() ? delta_[link] : kNaN; }

QRgb CompareColouring::rgb(float d) const {
    if (std::isnan(d)) return noData();
    const double f = std::clamp(static_cast<double>(d) / range_, -1.0, 1.0);
    if (f == 0) return neutral();
    // A change at a tenth of the scale already leaves the grey visibly.
    const double k = 0.25 + 0.75 * std::abs(f);
    return mix(neutral(), f > 0 ? more() : less(), k).rgb();
}

QString CompareColouring::title() const { return compareTitle(result_->report); }

QString CompareColouring::legendTitle() { return QObject::tr("Δ p95 utilisation, bad − good (percentage points)"); }

QString CompareColouring::header() const {
    // Short: the file names and the windows' times (the Changes dock has the dates).
    auto side = [](const CompareSide& s) {
        return QObject::tr("%1 %2–%3").arg(QFileInfo(qs(s.store)).fileName(), utcText(s.start, QStringLiteral("HH:mm")), utcText(s.end, QStringLiteral("HH:mm")));
    };
    return QObject::tr("Compare: good %1 vs bad %2 UTC").arg(side(result_->report.good), side(result_->report.bad));
}

QString CompareColouring::hint() const {
    return QObject::tr("Esc or Leave compare: back to the metric's colours; a change in the Changes dock frames its link.");
}

QString CompareColouring::removedLabel() const { return QObject::tr("removed"); }

QString CompareColouring::format(float d) {
    if (std::isnan(d)) return QObject::tr("no data");
    return QStringLiteral("%1%2 pp").arg(d > 0 ? QStringLiteral("+") : QString()).arg(static_cast<double>(d), 0, 'f', 1);
}

QString CompareColouring::tooltip(std::size_t link) const {
    const float d = delta(link);
    if (std::isnan(d)) return QObject::tr("Compare: no p95 utilisation on one side or both (no data)");
    if (std::isnan(goodP95_[link])) return QObject::tr("Compare: Δ p95 utilisation 0 pp (within the compare thresholds)");
    return QObject::tr("Compare: Δ p95 utilisation %1 (good %2 % → bad %3 %)")
        .arg(format(d))
        .arg(static_cast<double>(goodP95_[link]), 0, 'f', 1)
        .arg(static_cast<double>(badP95_[link]), 0, 'f', 1);
}

int CompareColouring::legendHeight() const { return 66; }

void CompareColouring::paintLegend(QPainter& p, const QRect& area) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(area, QColor(255, 255, 255, 230));
    p.setPen(QColor(120, 120, 120));
    p.drawRect(area.adjusted(0, 0, -1, -1));
    const int pad = 6;
    const QFontMetrics fm = p.fontMetrics();
    p.setPen(QColor(20, 20, 20));
    p.drawText(QRect(area.left() + pad, area.top() + pad, area.width() - 2 * pad, fm.height()), Qt::AlignLeft,
               fm.elidedText(scaleTitle(), Qt::ElideRight, area.width() - 2 * pad));
    const int side = 74;  // the swatches' column on the right
    const QRect bar(area.left() + pad, area.top() + 2 * pad + fm.height(), area.width() - 2 * pad - side, 12);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 20; ++i) {
        const double f = i / 20.0;
        g.setColorAt(f, QColor(rgb(static_cast<float>((2 * f - 1) * range_))));
    }
    p.fillRect(bar, g);
    // Ticks; the ends say which way is which: "−60 less" and "more +60".
    const int ty = bar.bottom() + 4 + fm.ascent();
    for (int i = 0; i <= 2; ++i) {
        const double f = i / 2.0;
        const double v = (2 * f - 1) * range_;
        QString label = (v > 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'f', 0);
        if (i == 0) label = QStringLiteral("−") + QString::number(range_, 'f', 0) + QObject::tr(" less");
        if (i == 2) label = QObject::tr("more ") + label;
        const int x = bar.left() + static_cast<int>(f * bar.width());
        p.setPen(QColor(20, 20, 20));
        p.drawLine(x, bar.bottom(), x, bar.bottom() + 3);
        const int w = fm.horizontalAdvance(label);
        const int lx = i == 0 ? bar.left() : i == 2 ? bar.right() - w + 1 : x - w / 2;
        p.setPen(i == 0 ? QColor(less()) : i == 2 ? QColor(more()) : QColor(20, 20, 20));
        p.drawText(lx, ty, label);
    }
    // Swatches: no data, and a removed link's dashes.
    p.setPen(QColor(20, 20, 20));
    const QRect none(bar.right() + 10, bar.top(), 12, 12);
    p.fillRect(none, QColor(noData()));
    p.drawText(none.right() + 4, none.bottom(), QObject::tr("no data"));
    const int ry = ty - fm.ascent() / 2;
    p.setPen(QPen(QColor(removed()), 2, Qt::DashLine));
    p.drawLine(none.left(), ry, none.left() + 14, ry);
    p.setPen(QColor(20, 20, 20));
    p.drawText(none.left() + 17, ty, removedLabel());
    p.restore();
}

void CompareColouring::paintMarks(QPainter& p, const FabricView& view) const {
    if (marks_.empty()) return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = p.fontMetrics();
    for (const Mark& m : marks_) {
        const auto a = view.nodePosition(m.nodeA), b = view.nodePosition(m.nodeB);
        if (!a || !b || *a == *b) continue;
        if (m.removed) {
            p.setPen(QPen(QColor(removed()), 3, Qt::DashLine, Qt::FlatCap));
            p.drawLine(*a, *b);
        }
        const QPointF c = (*a + *b) / 2;
        const QRectF box(c.x() - fm.horizontalAdvance(m.label) / 2.0 - 4, c.y() - fm.height() / 2.0 - 1, fm.horizontalAdvance(m.label) + 8,
                         fm.height() + 2);
        p.setPen(QPen(m.removed ? QColor(removed()) : QColor(110, 0, 150), 1.5));
        p.setBrush(QColor(255, 255, 255, 235));
        p.drawRoundedRect(box, 3, 3);
        p.drawText(box, Qt::AlignCenter, m.label);
    }
    p.restore();
}

} // namespace fabscope
