#pragma once
// Per-link rate series on one regular time grid, loaded once from a store so the views can colour
// links at any cursor time, pool a heatmap and chart a link without touching SQLite again.
// No Qt. Values are link-major (link * bins + bin); NaN means "no data for that interval".
#include "core/analysis/capacity_history.h"
#include "core/analysis/analysis_config.h"
#include "core/model.h"
#include "core/time_range.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabscope {

class Store;

// What a link is coloured by. "Up" is the direction from the lower-tier end to the higher-tier
// end (host -> leaf -> spine); UtilMax is the larger of both directions.
// Throughput* are in Gb/s: they colour links whose capacity is unknown (RoCE captures without a
// port speed), where utilisation has nothing to divide by. XmitWait and PfcPause* are shares of
// time in % (the conversions of the congestion_tree and pfc_storm findings, core/analysis/
// time_shares.h); PfcPauseUp is the time the up direction's sender was held paused. EcnCnp is
// the busiest of the ECN-marked / CNP counters of both ends, in packets/s.
enum class LinkMetric : std::uint8_t {
    UtilMax, UtilUp, UtilDown, XmitWait, Errors, ThroughputMax, ThroughputUp, ThroughputDown,
    PfcPauseMax, PfcPauseUp, PfcPauseDown, EcnCnp
};
inline constexpr int kLinkMetricCount = 12;

std::string_view metricName(LinkMetric m);  // "Utilisation (max of both directions)"
std::string_view metricUnit(LinkMetric m);  // "%", "% of time", "errors/s", "packets/s"

struct LinkTimeSeries {
    double start = 0;  // UNIX seconds of the first bin's start
    double step = 0;   // seconds per bin
    std::size_t bins = 0, links = 0;
    // Link-major [link * bins + bin]. Utilisation in % of the sending port's capacity; XmitWait
    // in % of the time waiting (max of both ends); errors in errors/s (sum of every error counter
    // at both ends). PFC pause shares (% of time, per direction) and ECN/CNP (packets/s) are
    // allocated only when the store has such counters (else empty: no data).
    std::vector<float> utilUp, utilDown, xmitWait, errors;
    std::vector<float> pfcUp, pfcDown, ecnCnp;
    std::vector<std::uint8_t> upIsAtoB;  // per link: 1 when the up direction is link.a -> link.b
    // Per link and direction: the sending port's capacity in Gb/s (0: unknown). Throughput of a
    // link with a capacity is derived from its utilisation (of the capacity in force at each time,
    // see speedChanges); the Gb/s of links without one are kept in gbpsUp/gbpsDown, allocated only
    // when the fabric has such links.
    std::vector<float> capacityUpGbps, capacityDownGbps;
    std::vector<float> gbpsUp, gbpsDown;
    // Links whose sending speed changed between snapshots: up's and down's capacity over time
    // (bit/s), which turns their utilisation back into Gb/s. A handful of links, so no dense array.
    std::unordered_map<std::size_t, std::array<std::vector<CapacitySpan>, 2>> speedChanges;

    [[nodiscard]] bool empty() const { return bins == 0 || links == 0; }
    [[nodiscard]] TimeRange span() const { return {start, start + step * static_cast<double>(bins)}; }
    // The bin holding time t, clamped to the grid; -1 when there is no grid.
    [[nodiscard]] int binAt(double t) const;
    [[nodiscard]] double binStart(std::size_t bin) const { return start + step * static_cast<double>(bin); }
    [[nodiscard]] float value(LinkMetric m, std::size_t link, std::size_t bin) const;
    // Sending capacity in Gb/s (0: unknown) of a link's up (direction 0) or down (1) at UNIX time
    // t: the speed in force then where it changed between snapshots (speedChanges).
    [[nodiscard]] float capacityGbpsAt(std::size_t link, int direction, double t) const;
    // Every bin of one link (a copy for UtilMax, which is derived).
    [[nodiscard]] std::vector<float> row(LinkMetric m, std::size_t link) const;
    // The largest value of a link over all bins (NaN when it has no data).
    [[nodiscard]] float peak(LinkMetric m, std::size_t link) const;
    // The stored array of a metric; nullptr for derived ones (UtilMax, Throughput*, PfcPauseMax)
    // and for arrays left empty (no such counters).
    [[nodiscard]] const std::vector<float>* stored(LinkMetric m) const;
    // Whether some link has counters for the metric (the metric choosers disable the others).
    [[nodiscard]] bool has(LinkMetric m) const { return present[static_cast<std::size_t>(m)]; }
    std::array<bool, kLinkMetricCount> present{};
    // Links with byte counters but no capacity: only Throughput* colours them.
    [[nodiscard]] std::size_t linksWithoutCapacity() const { return withoutCapacity; }
    std::size_t withoutCapacity = 0;
};

// Loads the rates of every link of `fabric` (the store's snapshot `snapshotId`, tiers from
// computeTiers). Series of ports that are not on a link are ignored. `cancel` is polled between
// links; a cancelled load returns what it has. `config` gives the tick length and the PFC frame
// conversion, so the shares match the findings of the same thresholds. Throws StoreError.
LinkTimeSeries loadLinkTimeSeries(const Store& store, std::int64_t snapshotId, const Fabric& fabric,
                                  const std::vector<int>& tiers, const std::atomic<bool>* cancel = nullptr,
                                  const AnalysisConfig& config = {});

} // namespace fabscope
