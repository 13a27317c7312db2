#pragma once
// Utilisation of every link direction over the window, summed up per tier and direction
// (host -> leaf, leaf -> spine, ...) and ranked to find the busiest links.
#include "core/analysis/context.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fabscope {

// Time-weighted statistics of utilisation (0..1+) samples.
struct UtilStats {
    double p50 = 0, p95 = 0, p99 = 0, max = 0, mean = 0;
    double secondsAbove = 0;     // time at or above the hot threshold
    double secondsMeasured = 0;  // time with a valid rate
    [[nodiscard]] double fractionAbove() const { return secondsMeasured > 0 ? secondsAbove / secondsMeasured : 0; }
};

struct TierDirection {
    int fromTier = 0, toTier = 0;
    std::string label;               // "leaf → spine (up)"
    std::size_t directions = 0;      // link directions measured
    std::size_t unmeasured = 0;      // link directions with no byte counter on either end
    UtilStats stats;
    std::vector<double> t, mean, max;  // across its links, per interval (end time, UNIX s)
};

struct LinkDirectionUtil {
    PortRef tx, rx;
    std::string group;         // TierDirection label
    double capacityGbps = 0;
    UtilStats stats;
    std::vector<double> t, u;  // interval end times and utilisation; filled for charted links only
};

struct UtilisationReport {
    double threshold = 0.8;     // "hot": the hot_link threshold of the analysis config
    std::vector<TierDirection> groups;      // ascending by (from, to) tier
    std::vector<LinkDirectionUtil> top;     // busiest first (by p95, then max)
};

// `tiers` as computeTiers() gives them for ctx.fabric(); `charted` <= `topN` get their series.
UtilisationReport measureUtilisation(const AnalysisContext& ctx, const std::vector<int>& tiers, std::size_t topN,
                                     std::size_t charted);

} // namespace fabscope
