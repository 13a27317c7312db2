#pragma once
// One PFC pause model for InfiniBand-less fabrics (RoCE) and both ends of every link, used by the
// pfc_storm detector. Per port and interval, two shares of the interval's time:
//   sent     the time this port held its link peer paused (its tx pause counters, else the
//            peer's rx pause counters: RX on one end is TX of its peer);
//   received the time this port was held paused by its peer (its rx counters, else the peer's tx).
// Durations (pfc_*_pause_us_prioN) are taken as they are; frame counts (pfc_*_pause_prioN) are
// converted: one XOFF frame holds the peer for frame_quanta x 512 bit times at the link speed, and
// a port kept paused refreshes XOFF about xoff_refresh times per quanta time, so
//   paused time ~= frames x quanta x 512 / speed / xoff_refresh      (lower bound; x xoff_refresh
// is the upper bound for isolated frames). Per interval the worst priority counts. docs/ANALYSIS.md.
#include "core/analysis/context.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fabscope {

struct PauseInterval {
    std::int64_t endMs = 0, startMs = 0;
    double share = 0;  // of the interval's time, 0..1
};

struct PauseShares {
    std::vector<PauseInterval> intervals;  // ascending by endMs, one per end (the worst priority's share)
    std::set<int> prios;     // priorities that paused at all
    bool fromFrames = false;  // converted from frame counts
    bool fromPeer = false;    // read from the link peer's counters of the other direction
};

struct PortPauses {
    PauseShares sent, received;
};

// Where the two ends of a link disagree (|sent by one - received by the other| above the config's
// `disagreement` share in some interval both measured).
struct PauseDisagreement {
    PortId sender, receiver;
    double sentShare = 0, receivedShare = 0;  // at the worst interval
};

struct FabricPauses {
    std::map<std::uint32_t, PortPauses> ports;  // PortId value -> shares
    std::vector<PauseDisagreement> disagreements;
};

FabricPauses measurePauses(const AnalysisContext& ctx);

// Mean share over the intervals ending in (start, end] (seconds); 0 when there are none.
double meanShare(const PauseShares& s, double start, double end);

}  // namespace fabscope
