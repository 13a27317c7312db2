#pragma once
// Which metric the fabric and heatmap are coloured by when a store opens, and what the fabric's
// header says about the store's counters. A RoCE store may hold PFC pause counters and no byte
// counters: it opens coloured by PFC pause share, not by an all-grey utilisation.
#include "core/timeseries/link_series.h"

#include <QString>

#include <optional>

namespace fabscope {

// The order a network engineer looks at a fabric in: load (utilisation, or Gb/s where the store
// has no port speeds), then congestion (PFC pauses, XmitWait), then errors, then ECN/CNP.
inline constexpr LinkMetric kDefaultMetricOrder[] = {LinkMetric::UtilMax,     LinkMetric::ThroughputMax, LinkMetric::PfcPauseMax,
                                                     LinkMetric::XmitWait,    LinkMetric::Errors,        LinkMetric::EcnCnp};

// `picked` (the user's explicit choice) when the rates have data for it, else the first metric
// of kDefaultMetricOrder that has some; UtilMax when none has.
LinkMetric chooseMetric(const LinkTimeSeries& rates, std::optional<LinkMetric> picked);

// Whether some link has counters for some metric the views draw.
bool anyCounters(const LinkTimeSeries& rates);

// The fabric header's line about counters when `shown` colours the links: "No counters in this
// store…" when the rates are empty (no counter the views draw), "No byte counters: coloured by
// …" when the store has other counters but no byte counters, empty otherwise.
QString countersNote(const LinkTimeSeries& rates, LinkMetric shown);

} // namespace fabscope
