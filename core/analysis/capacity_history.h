#pragma once
// The capacity each port of a fabric had over time, where a store holds several topology
// snapshots: an uplink that ran at 4xHDR in the good run and at 1xHDR after a bad cable swap is
// judged against 200 Gb/s before the swap and 50 Gb/s after it, not against the latest
// snapshot's speed throughout (which read 180 % for the good run). A snapshot is in force from
// its time until the next one's, and samples before the first take the first: the rule
// `compare` picks each window's snapshot by.
#include "core/analysis/rates.h"
#include "core/model.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace fabscope {

class Store;

// A port's sending capacity in bit/s: its own, else its link's; 0 when neither is known.
double sendingCapacityBps(const Fabric& fabric, PortId tx, const std::vector<std::optional<LinkId>>& linkOf);

struct CapacitySpan {
    double from = 0;  // UNIX seconds it held from (the first span holds from the start)
    double bps = 0;
};

class CapacityHistory {
public:
    CapacityHistory() = default;  // one snapshot: nothing changes
    // `shown`: the fabric of snapshot `shownId` an analysis or a view works on. Reads the store's
    // other discovered snapshots; a store with one snapshot reads nothing more.
    CapacityHistory(const Store& store, const Fabric& shown, std::int64_t shownId);

    [[nodiscard]] bool empty() const { return steps_.empty(); }
    // Whether some snapshot gives tx another known sending capacity than `shown` does.
    [[nodiscard]] bool varies(PortId tx) const { return steps_.count(tx.value()) != 0; }
    // tx's sending capacity (bit/s) in force at UNIX time t; `shownBps` where it never changed
    // or the snapshot in force then lacks the port or its speed.
    [[nodiscard]] double at(PortId tx, double t, double shownBps) const;
    // The lowest capacity tx had in any snapshot (a peak rate's utilisation is at most peak / it).
    [[nodiscard]] double lowest(PortId tx, double shownBps) const;
    // tx's capacity over time, oldest first, equal neighbours merged: one span when it never changed.
    [[nodiscard]] std::vector<CapacitySpan> spans(PortId tx, double shownBps) const;
    // Per interval of `r`, its rate as a fraction of tx's capacity at the interval's end; 0 where
    // the interval has no rate.
    [[nodiscard]] std::vector<double> utilisation(const RateSeries& r, PortId tx, double shownBps) const;
    // Rescales each interval's rate and count by shownBps / the capacity in force then, so rate
    // x 8 / shownBps reads as the utilisation of that time's capacity (the views' fill takes one
    // scale), and pause frames x quanta x 512 / shownBps as the time they held the link then.
    void rescale(RateSeries& r, PortId tx, double shownBps) const;

private:
    std::vector<double> times_;                                      // snapshot times, oldest first
    std::unordered_map<std::uint32_t, std::vector<double>> steps_;  // by PortId: bit/s in each snapshot, 0 unknown
};

} // namespace fabscope
