#pragma once
// A job's communicating pairs as the fabric carries them: each pair of ranks routed hop by hop
// (forwarding tables, else the equal-cost set) and scored by the headroom it meets over the
// window. straggler_path picks its outlier from these; the GUI's job overlay and the report's
// Jobs section show them. docs/ANALYSIS.md, "straggler_path".
#include "core/analysis/port_ref.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct JobPairRoute {
    int srcRank = 0, dstRank = 0;
    std::string srcHost, dstHost;
    double headroom = 1;            // share 0..1, the mean over its routes weighted by their share
    double bottleneckHeadroom = 1;  // share 0..1 of the worst route's worst hop
    double bottleneckGbps = 0;      // that hop's free capacity, Gb/s
    std::vector<PortRef> path;      // the worst route: transmitter, receiver per hop, source host port first
    std::size_t bottleneckHop = 0;  // index of the hop in `path` / 2
    std::size_t routes = 0;         // routes weighed (1 with forwarding tables)
    std::string routedBy;           // "forwarding_tables" | "equal_cost"
    std::string reason;             // why the bottleneck is tight: "utilisation", "degraded_link", ...
};

// Where a rank runs on the fabric: its host adapter's connected port and the switch port cabled
// to it, as the analysis placed it before routing its pairs.
struct JobRankPlace {
    int rank = 0;
    std::string host, device;           // as the job's file named them; device empty when unknown
    std::int64_t line = 0;              // where the file said so; 0 when unknown
    std::optional<PortRef> port;        // the host's port; nullopt when the host is not on the fabric
    std::optional<PortRef> switchPort;  // the port cabled to it
    // Share 0..1, the median headroom of the scored pairs the rank is in: low when every pair
    // through it is tight, which tells the rank behind a bottleneck from its partners. nullopt
    // when none of its pairs was scored.
    std::optional<double> medianPairHeadroom;
};

struct JobRoutes {
    std::int64_t id = 0;
    std::string name, file, ncclVersion;
    std::size_t ranks = 0;               // ranks the store holds
    std::size_t ranksUnplaced = 0;       // ranks whose host is not on the fabric
    std::vector<std::string> hosts;      // distinct, in rank order ("gpu005 mlx5_0")
    std::vector<JobRankPlace> rankPlaces;  // every rank, in rank order
    std::size_t ringChannels = 0, treeChannels = 0;
    std::vector<int> ring;               // channel 0's ring as rank order; empty without rings
    std::vector<JobPairRoute> pairs;     // worst headroom first
    double medianHeadroom = 1;           // over the pairs
    std::string stragglerFinding;        // id of its straggler_path finding; empty when none
};

} // namespace fabscope
