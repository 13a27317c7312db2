#pragma once
// One owner of the "share of time" conversions: PortXmitWait ticks and PFC pause counters into the
// share of an interval spent waiting or paused. The congestion_tree and pfc_storm detectors and the
// views' link series (core/timeseries/link_series.cpp) all convert through here, so a chart of a
// link and the finding about it give the same percentage. docs/ANALYSIS.md.
#include "core/analysis/analysis_config.h"

#include <algorithm>
#include <string>

namespace fabscope {

// Share of an interval of `dt` seconds that `seconds` of waiting or pause cover, capped at 1.
inline double shareOfInterval(double seconds, double dt) { return dt > 0 ? std::min(1.0, seconds / dt) : 0.0; }

// PortXmitWait ticks -> seconds; the tick length is an assumption (congestion_tree.tick_ns).
inline double xmitWaitSeconds(double ticks, const CongestionTreeConfig& c) { return ticks * c.tickNs * 1e-9; }

// Seconds of pause one counted unit stands for: a microsecond of a duration counter, or one XOFF
// frame of `bps` link speed (<= 0: pfc_storm.default_speed_gbps) held frame_quanta x 512 bit
// times, refreshed xoff_refresh times per quanta while kept paused (the lower bound).
inline double pauseSecondsPerUnit(bool frames, double bps, const PfcStormConfig& c) {
    if (!frames) return 1e-6;
    if (bps <= 0) bps = c.defaultSpeedGbps * 1e9;
    return c.frameQuanta * 512.0 / bps / c.xoffRefresh;
}

// "pfc_tx_pause_us_prio3" (durations) or "pfc_rx_pause_prio0" (frame counts).
inline std::string pfcPauseCounter(bool tx, bool frames, int prio) {
    return std::string("pfc_") + (tx ? "tx" : "rx") + (frames ? "_pause_prio" : "_pause_us_prio") + std::to_string(prio);
}

} // namespace fabscope
