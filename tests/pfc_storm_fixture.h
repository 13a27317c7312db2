#pragma once
// The PFC storm of the view tests, one owner: a two-leaf, two-spine fabric (4xHDR links, four
// hosts) and its pause counters, where dgx003's NIC stops draining and pauses leaf02 up to 95 % of
// the time from +10 s, spreading to leaf02's uplink, spine01 and leaf01. Shared by
// tst_finding_overlay, tst_view_default_metric and tst_view_roce_metrics.
#include "analysis_fixture.h"

namespace pfcstorm {

using namespace atest;

// dgx004's link width: 1 makes it the degraded host link of a job's straggler.
inline Fabric fabric(int dgx004Width = 4) {
    MiniFabric m;
    const NodeId l1 = m.sw("leaf01"), l2 = m.sw("leaf02"), s1 = m.sw("spine01"), s2 = m.sw("spine02");
    m.link(l1, 1, m.host("dgx001 mlx5_0"), 1);
    m.link(l1, 2, m.host("dgx002 mlx5_0"), 1);
    m.link(l2, 1, m.host("dgx003 mlx5_0"), 1);
    m.link(l2, 2, m.host("dgx004 mlx5_0"), 1, dgx004Width);
    m.link(l1, 9, s1, 1);
    m.link(l1, 10, s2, 1);
    m.link(l2, 9, s1, 2);
    m.link(l2, 10, s2, 2);
    return m.build();
}

// Pause share of time per 10 s interval.
inline const std::vector<double> kNone(10, 0);
inline const std::vector<double> kStorm{0, 0.8, 0.9, 0.95, 0.9, 0.85, 0, 0, 0, 0};
inline const std::vector<double> kSpread{0, 0.6, 0.7, 0.7, 0.6, 0.6, 0, 0, 0, 0};

// A cumulative pause counter in µs from the shares of each 10 s interval.
inline std::vector<double> pausedUs(const std::vector<double>& shares) {
    std::vector<double> d;
    for (double s : shares) d.push_back(s * 10e6);
    return cumulative(d);
}

inline std::string txPause(const std::string& node, int port, const std::vector<double>& shares) {
    return rows(node, port, "pfc_tx_pause_us_prio3", pausedUs(shares));
}

// The storm's tx pause counters; `dgx003Rx` adds dgx003's (quiet) rx pause counter.
inline std::string stormRows(bool dgx003Rx) {
    return txPause("leaf02", 1, kNone) + txPause("leaf02", 2, kNone) + txPause("dgx001 mlx5_0", 1, kNone) +
           (dgx003Rx ? rows("dgx003 mlx5_0", 1, "pfc_rx_pause_us_prio3", pausedUs(kNone)) : std::string()) +
           txPause("dgx003 mlx5_0", 1, kStorm) + txPause("leaf02", 9, kSpread) + txPause("spine01", 1, kSpread) +
           txPause("leaf01", 1, kSpread);
}

} // namespace pfcstorm
