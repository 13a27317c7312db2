#pragma once
// Probe results (core/store/probes.h) summarised per host pair and measurement over a time window:
// RTT percentiles, jitter, loss, bandwidth; where the pair sits (same leaf, same pod, across
// spines) and the routes its probes and their replies took (probe_routes.h). Used by the
// lossy_link / slow_pair detectors and the latency matrix view.
#include "core/analysis/probe_routes.h"
#include "core/model.h"
#include "core/store/store.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fabscope {

// Where two hosts sit: below one leaf, below one pod's spines (a 3-tier fabric), or only joined
// at the top tier. From the highest tier a shortest route between them climbs to (core/tiers.h).
enum class DistanceClass { SameLeaf, SamePod, AcrossSpines };
std::string_view toString(DistanceClass c);   // "same_leaf", "same_pod", "across_spines"
std::string_view describe(DistanceClass c);   // "same leaf", "same pod", "across spines"

struct ProbePair {
    std::string tool;           // "pingmesh", "ib_write_lat", ...
    std::int64_t msgBytes = 0;  // perftest message size; 0 for pingmesh
    std::string src, dst;       // as the probes named them
    PortId srcPort, dstPort;    // the hosts' connected ports
    DistanceClass distance = DistanceClass::AcrossSpines;
    double first = 0, last = 0;  // UNIX seconds of the first and last probe
    std::int64_t sent = 0, lost = 0, rows = 0;
    std::optional<double> p50, p99, p999, stdev;  // microseconds (RTT for pingmesh)
    std::optional<double> bwGbps;                  // perftest *_bw: average (else peak) Gb/s
    ProbeRoutes forward, reply;                    // src -> dst, and dst -> src for the answer

    [[nodiscard]] double lossRate() const { return sent > 0 ? static_cast<double>(lost) / static_cast<double>(sent) : 0; }
    [[nodiscard]] std::optional<double> jitter() const;  // p99 - p50
    [[nodiscard]] bool bandwidth() const { return bwGbps.has_value(); }
};

struct ProbePairs {
    std::vector<ProbePair> pairs;       // sorted by tool, size, src, dst
    std::vector<std::string> unknownHosts;  // named by probes, not in the fabric
};

// Pairs of the probes whose time lies in [from, to], mapped onto the fabric of `places` (the
// latest snapshot) and its forwarding tables. Pairs whose hosts the fabric lacks are left out
// (unknownHosts).
class HostPlaces;
[[nodiscard]] ProbePairs loadProbePairs(const Store& store, const HostPlaces& places, double from, double to,
                                        std::size_t maxRoutes);
// The same with a host index of its own (for a view that has no analysis at hand).
[[nodiscard]] ProbePairs loadProbePairs(const Store& store, const Fabric& fabric, double from, double to,
                                        std::size_t maxRoutes);


// Linear-interpolated percentile (q in 0..1) of sorted values.
[[nodiscard]] double percentile(const std::vector<double>& sorted, double q);

} // namespace fabscope
