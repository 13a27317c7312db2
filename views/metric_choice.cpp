#include "views/metric_choice.h"

#include "views/colour_scale.h"

#include <QCoreApplication>

namespace fabscope {

LinkMetric chooseMetric(const LinkTimeSeries& rates, std::optional<LinkMetric> picked) {
    if (picked && rates.has(*picked)) return *picked;
    for (LinkMetric m : kDefaultMetricOrder)
        if (rates.has(m)) return m;
    return LinkMetric::UtilMax;
}

bool anyCounters(const LinkTimeSeries& rates) {
    if (rates.empty()) return false;
    for (int m = 0; m < kLinkMetricCount; ++m)
        if (rates.has(static_cast<LinkMetric>(m))) return true;
    return false;
}

QString countersNote(const LinkTimeSeries& rates, LinkMetric shown) {
    auto tr = [](const char* s) { return QCoreApplication::translate("FabricView", s); };
    if (rates.empty()) return tr("No counters in this store: links are drawn without colour.");
    // Rates built without the presence flags (tests, benchmarks) say nothing.
    if (anyCounters(rates) && !rates.has(LinkMetric::ThroughputMax))  // no byte counters on any link
        return tr("No byte counters: coloured by %1").arg(ColourScale::shortName(shown));
    return {};
}

} // namespace fabscope
