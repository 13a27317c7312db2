#pragma once
// The host x host layout of a latency matrix (pingmesh style): the hosts of one measurement,
// ordered pod by pod and leaf by leaf, and the pair behind each cell. Qt-free, so the view and
// the report order hosts the same way; the stats themselves come from probe_pairs.h.
#include "core/analysis/probe_pairs.h"

#include <string>
#include <vector>

namespace fabscope {

struct ProbeMatrix {
    std::string tool;                 // the measurement shown: "pingmesh" when present
    std::vector<std::string> hosts;   // rows and columns, grouped by pod, then leaf
    std::vector<std::string> leafOf;  // per host: the switch its cable goes to
    std::vector<int> podOf;           // per host: 0, 1, ... in order; leaves joined by same_leaf/same_pod pairs
    std::vector<int> cell;            // hosts.size()^2, row = src: index into `pairs`, -1 when unmeasured
    std::vector<ProbePair> pairs;     // the pairs of `tool` (latency pairs only)

    [[nodiscard]] std::size_t size() const { return hosts.size(); }
    [[nodiscard]] const ProbePair* at(std::size_t src, std::size_t dst) const {
        const int i = cell[src * hosts.size() + dst];
        return i < 0 ? nullptr : &pairs[static_cast<std::size_t>(i)];
    }
};

// Lays out the latency pairs of `all` (pingmesh, else the first latency tool and size).
[[nodiscard]] ProbeMatrix buildProbeMatrix(const ProbePairs& all, const Fabric& fabric);

} // namespace fabscope
