#pragma once
// Rates derived from raw cumulative counters (docs/FORMATS.md: store raw values, derive rates). An
// interval yields no rate when the counter went backwards (reset), when either end is a
// saturated legacy counter (stuck at 2^N-1), or when it spans a gap in the sampling.
#include "core/store/store.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace fabscope {

enum class IntervalFlag : std::uint8_t { Ok, Reset, Saturated, Gap };

// Columnar: interval i runs from startMs[i] to endMs[i] (consecutive samples).
struct RateSeries {
    std::vector<std::int64_t> startMs, endMs;
    std::vector<double> delta;    // counter increase; 0 when not Ok
    std::vector<double> perSecond; // delta / dt; 0 when not Ok
    std::vector<IntervalFlag> flag;

    [[nodiscard]] std::size_t size() const { return flag.size(); }
    [[nodiscard]] bool ok(std::size_t i) const { return flag[i] == IntervalFlag::Ok; }
    // Sum of the valid deltas, and the seconds those intervals cover.
    [[nodiscard]] double totalIncrease() const;
    [[nodiscard]] double coveredSeconds() const;
};

// True when `value` is the ceiling of a legacy counter of this kind: 2^64-1 and 2^32-1 always
// (also x4 for data counters imported from PortXmitData words), 2^16-1 for 16-bit IB error
// counters, 2^8-1 for the 8-bit link_downed / link_error_recovery.
bool isSaturatedCeiling(std::string_view counter, double value);
inline bool isSaturated(std::string_view counter, double value) {
    // Below 2^32-1 only the 8- and 16-bit ceilings can be one: the common case costs one compare.
    if (value < 4294967295.0 && value != 255.0 && value != 65535.0) return false;
    return isSaturatedCeiling(counter, value);
}

// `gapFactor`: an interval longer than gapFactor x the median interval is a gap.
RateSeries deriveRates(const SeriesData& data, std::string_view counter, double gapFactor = 3);

// The steepest rise between consecutive samples: the largest (b - a) * 1000 / dt over pairs with
// b >= a and dt > 0 ms, as deriveRates() computes an interval's perSecond. No interval of these
// samples, nor of any consecutive run of them (a window), has a higher rate; 0 when the counter
// never rises (an error counter that stayed 0), NaN when a value is not finite (nothing known).
// Stored with each chunk (Store::seriesPeaks), so the analysis skips series that cannot reach a
// threshold without loading them.
double peakRate(std::span<const std::int64_t> timesMs, std::span<const double> values);

} // namespace fabscope
