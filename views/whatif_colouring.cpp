#include "views/whatif_colouring.h"

#include "views/store_snapshot.h"
#include "views/utc_text.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabscope {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

QString percent(float v) { return QStringLiteral("%1 %").arg(static_cast<double>(v), 0, 'f', 1); }

} // namespace

QString whatIfTitle(const WhatIfResult& r) {
    const double a = r.report.windowStart, b = r.report.windowEnd;
    const bool sameDay = !crossesDays(a, b);
    return QObject::tr("Prediction: %1 (window %2–%3 UTC)")
        .arg(r.what, utcText(a, QStringLiteral("yyyy-MM-dd HH:mm")), utcText(b, sameDay ? QStringLiteral("HH:mm") : QStringLiteral("yyyy-MM-dd HH:mm")));
}

int linkOfPorts(const StoreSnapshot& s, const std::vector<PortRef>& ports) {
    for (const PortRef& r : ports)
        if (const auto port = s.findPort(r))
            if (const auto link = s.linkOf(*port)) return static_cast<int>(link->value());
    return -1;
}

WhatIfColouring::WhatIfColouring(std::shared_ptr<const WhatIfResult> result, const StoreSnapshot& shown) : prediction_(std::move(result)) {
    const std::size_t links = shown.fabric.links.size();
    delta_.assign(links, kNaN);
    before_.assign(links, kNaN);
    after_.assign(links, kNaN);
    failed_.assign(links, false);
    hot_.assign(links, false);
    // Links with counters in the window and untouched by the change: unchanged (0).
    const auto& r = shown.rates;
    const WhatIfReport& rep = prediction_->report;
    if (!r.empty() && r.links == links && r.step > 0) {
        const auto first = static_cast<std::size_t>(std::clamp(std::floor((rep.windowStart - r.start) / r.step), 0.0, static_cast<double>(r.bins)));
        const auto last = static_cast<std::size_t>(std::clamp(std::ceil((rep.windowEnd - r.start) / r.step), 0.0, static_cast<double>(r.bins)));
        for (std::size_t l = 0; l < links; ++l)
            for (std::size_t b = first; b < last; ++b)
                if (!std::isnan(r.value(LinkMetric::UtilMax, l, b))) {
                    delta_[l] = 0;
                    break;
                }
    }
    std::vector<bool> listed(links, false);
    double largest = 0;
    for (const WhatIfLink& wl : rep.links) {
        const int l = linkOfPorts(shown, wl.ports);
        if (l < 0) continue;
        const auto li = static_cast<std::size_t>(l);
        if (wl.failed) {  // carries nothing afterwards: dashed, no colour of its own
            failed_[li] = true;
            delta_[li] = kNaN;
            Mark m;
            m.link = l;
            m.nodeA = static_cast<int>(shown.fabric.port(shown.fabric.links[li].a).node.value());
            m.nodeB = static_cast<int>(shown.fabric.port(shown.fabric.links[li].b).node.value());
            m.removed = true;
            m.label = QObject::tr("fails");
            if (std::none_of(marks_.begin(), marks_.end(), [l](const Mark& x) { return x.link == l; })) marks_.push_back(std::move(m));
            continue;
        }
        // A link's two directions: the one with the larger change is drawn.
        const auto d = static_cast<float>((wl.after.p95Util() - wl.before.p95Util()) * 100);
        if (!listed[li] || std::abs(d) > std::abs(delta_[li])) {
            delta_[li] = d;
            before_[li] = static_cast<float>(wl.before.p95Util() * 100);
            after_[li] = static_cast<float>(wl.after.p95Util() * 100);
        }
        hot_[li] = hot_[li] || wl.turnsHot;
        listed[li] = true;
        largest = std::max(largest, std::abs(static_cast<double>(d)));
    }
    range_ = std::clamp(std::ceil(largest / 10) * 10, 10.0, 100.0);
}

QString WhatIfColouring::title() const { return whatIfTitle(*prediction_); }

QString WhatIfColouring::header() const {
    // Short: the fabric's header is narrow beside the legend (the Prediction dock has the window).
    return QObject::tr("Prediction: %1 — not a measurement").arg(prediction_->what);
}

QString WhatIfColouring::hint() const {
    return QObject::tr("Esc: back to the metric's colours; Ctrl+Z: the prediction again.");
}

QString WhatIfColouring::predictionLegendTitle() { return QObject::tr("Predicted Δ p95 utilisation (percentage points)"); }

QString WhatIfColouring::removedLabel() const { return QObject::tr("fails"); }

QString WhatIfColouring::tooltip(std::size_t link) const {
    if (link < failed_.size() && failed_[link]) return QObject::tr("Prediction: this link fails and carries nothing");
    const float d = delta(link);
    if (std::isnan(d)) return QObject::tr("Prediction: no p95 utilisation in the window (no data)");
    if (std::isnan(before_[link])) return QObject::tr("Prediction: unchanged (0 pp; the change moves no load onto it)");
    return QObject::tr("Prediction: p95 utilisation %1 → %2 (%3)%4")
        .arg(percent(before_[link]), percent(after_[link]), format(d), hot_[link] ? QObject::tr(", turns hot") : QString());
}

} // namespace fabscope
