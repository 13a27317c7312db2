#include "core/analysis/rates.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace fabscope {

double RateSeries::totalIncrease() const {
    double s = 0;
    for (std::size_t i = 0; i < size(); ++i)
        if (ok(i)) s += delta[i];
    return s;
}

double RateSeries::coveredSeconds() const {
    double s = 0;
    for (std::size_t i = 0; i < size(); ++i)
        if (ok(i)) s += static_cast<double>(endMs[i] - startMs[i]) / 1000.0;
    return s;
}

namespace {
// b - a, wrapping rather than overflowing for times far apart (a damaged file's): a wrapped
// interval is negative, so it has no rate.
std::int64_t interval(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a));
}

// A counter's ceilings, its name compared once per series rather than once per value (byte
// counters pass 2^32 within seconds, so every later value reaches these checks).
class Ceilings {
public:
    explicit Ceilings(std::string_view counter)
        : data_(counter == "xmit_bytes" || counter == "rcv_bytes"),
          bits8_(counter == "link_downed" || counter == "link_error_recovery"),
          bits16_(counter == "symbol_errors" || counter == "rcv_errors" || counter == "xmit_discards" ||
                  counter == "rcv_remote_phys_errors" || counter == "rcv_switch_relay_errors" ||
                  counter == "xmit_constraint_errors" || counter == "rcv_constraint_errors") {}
    [[nodiscard]] bool at(double value) const {
        constexpr double k64 = 18446744073709551615.0;  // rounds to 2^64 as a double: compare with >=
        constexpr double k32 = 4294967295.0;
        if (value >= k64 || value == k32) return true;
        if (data_) return value == 4 * k32;  // PortXmitData/PortRcvData count 4-byte words
        // Error counters of the IB PortCounters attribute are 16 bits wide, two of them only 8.
        if (bits8_) return value == 255.0;
        return bits16_ && value == 65535.0;
    }
    // As isSaturated(): the common case costs one compare.
    [[nodiscard]] bool saturated(double value) const {
        return !(value < 4294967295.0 && value != 255.0 && value != 65535.0) && at(value);
    }

private:
    bool data_, bits8_, bits16_;
};
} // namespace

bool isSaturatedCeiling(std::string_view counter, double value) { return Ceilings(counter).at(value); }

RateSeries deriveRates(const SeriesData& d, std::string_view counter, double gapFactor) {
    RateSeries r;
    const std::size_t n = d.timesMs.size() < 2 ? 0 : d.timesMs.size() - 1;
    r.startMs.resize(n);
    r.endMs.resize(n);
    r.delta.assign(n, 0);
    r.perSecond.assign(n, 0);
    r.flag.assign(n, IntervalFlag::Ok);
    if (n == 0) return r;

    std::vector<std::int64_t> dts(n);
    std::int64_t shortest = INT64_MAX, longest = INT64_MIN;
    for (std::size_t i = 0; i < n; ++i) {
        dts[i] = interval(d.timesMs[i], d.timesMs[i + 1]);
        shortest = std::min(shortest, dts[i]);
        longest = std::max(longest, dts[i]);
    }
    // The median interval; a regular scrape's are all one length, and need no selection.
    std::int64_t median = shortest;
    if (shortest != longest) {
        std::vector<std::int64_t> sorted = dts;
        std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n / 2), sorted.end());
        median = sorted[n / 2];
    }
    const double gapMs = gapFactor * static_cast<double>(median);

    const Ceilings ceilings(counter);
    bool satA = ceilings.saturated(d.values[0]);
    for (std::size_t i = 0; i < n; ++i) {
        r.startMs[i] = d.timesMs[i];
        r.endMs[i] = d.timesMs[i + 1];
        const double a = d.values[i], b = d.values[i + 1];
        const bool satB = ceilings.saturated(b);
        IntervalFlag f = IntervalFlag::Ok;
        if (satA || satB) f = IntervalFlag::Saturated;
        else if (b < a) f = IntervalFlag::Reset;
        else if (dts[i] <= 0 /* duplicate timestamp */ || static_cast<double>(dts[i]) > gapMs) f = IntervalFlag::Gap;
        r.flag[i] = f;
        satA = satB;
        if (f != IntervalFlag::Ok) continue;
        r.delta[i] = b - a;
        r.perSecond[i] = (b - a) * 1000.0 / static_cast<double>(dts[i]);
    }
    return r;
}

double peakRate(std::span<const std::int64_t> t, std::span<const double> v) {
    const std::size_t n = std::min(t.size(), v.size());
    if (n < 2) return n == 1 && !std::isfinite(v[0]) ? std::numeric_limits<double>::quiet_NaN() : 0;
    // One pass (an import runs this over every sample it writes): the interval lengths' range,
    // the largest increase, and v x 0 summed, which is NaN when any value is not finite.
    const auto length = [&](std::size_t i) { return interval(t[i - 1], t[i]); };
    std::int64_t shortest = INT64_MAX, longest = INT64_MIN;
    double rise = 0, notFinite = v[0] * 0.0;
    for (std::size_t i = 1; i < n; ++i) {
        const std::int64_t dt = length(i);
        shortest = std::min(shortest, dt);
        longest = std::max(longest, dt);
        rise = std::max(rise, v[i] - v[i - 1]);
        notFinite += v[i] * 0.0;
    }
    if (std::isnan(notFinite)) return std::numeric_limits<double>::quiet_NaN();
    // A regular scrape's intervals are one length: the steepest rise is the largest increase
    // over that length (x * 1000 / dt does not decrease as x grows, so it is the same number).
    if (shortest == longest) return shortest > 0 ? rise * 1000.0 / static_cast<double>(shortest) : 0;
    double peak = 0;
    for (std::size_t i = 1; i < n; ++i) {
        const std::int64_t dt = length(i);
        if (dt <= 0 || v[i] < v[i - 1]) continue;
        peak = std::max(peak, (v[i] - v[i - 1]) * 1000.0 / static_cast<double>(dt));
    }
    return peak;
}

} // namespace fabscope
