#pragma once
// Per-interval utilisation of one link direction, shared by the detectors that compare links
// (ecmp_imbalance) or score routes (straggler_path). Same rules as hot_link: xmit_bytes of the
// transmitter, else rcv_bytes of the receiver; intervals without a rate stay flagged.
#include "core/analysis/context.h"

#include <optional>

namespace fabscope {

struct DirectionLoad {
    RateSeries rates;
    std::vector<double> util;  // 0..1 of capacity, 0 where !rates.ok(i)
    double capacityBps = 0;
    // Time-weighted mean over the valid intervals; nullopt when there are none.
    [[nodiscard]] std::optional<double> meanUtil() const;
};

// nullopt when no byte series exists for the direction or its capacity is unknown.
std::optional<DirectionLoad> directionLoad(const AnalysisContext& ctx, PortId tx, PortId rx);
// The same read through `via`, a worker thread's own connection to the store.
std::optional<DirectionLoad> directionLoad(const AnalysisContext& ctx, const Store& via, PortId tx, PortId rx);

} // namespace fabscope
