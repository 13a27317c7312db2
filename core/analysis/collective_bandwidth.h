#pragma once
// Collective benchmark assessment: a nccl-tests run's bus bandwidth at its largest message size
// against what the fabric links on the run's ring could carry, naming the narrowest link.
// Units: nccl-tests prints GB/s (10^9 bytes/s); links are in Gb/s, so busbw x 8 is compared.
#include "core/analysis/equal_cost_paths.h"
#include "core/analysis/rank_hosts.h"
#include "core/model.h"
#include "core/store/probes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

class CapacityHistory;

struct CollectiveBottleneck {
    std::string txNode, txPort;  // the transmitting end of the narrowest hop
    std::string rxNode, rxPort;
    double capacityGbps = 0;
    std::string srcHost, dstHost;  // the ring neighbours whose routes cross it
};

struct CollectiveAssessment {
    std::int64_t runId = 0;
    std::string tool;
    std::int64_t largestBytes = 0;
    std::optional<double> busbwGBs;      // at the largest size: out-of-place, else in-place
    std::optional<double> peakBusbwGBs;  // over all sizes and both columns
    std::optional<CollectiveBottleneck> bottleneck;
    std::optional<double> efficiency;    // busbw x 8 / bottleneck capacity (Gb/s over Gb/s)
    std::vector<std::string> unmappedHosts;  // hosts with no CA of that name in the fabric
    std::string note;                        // why there is no bottleneck, when there is none
};

// Ring pairs: distinct hosts in rank order (ranks on one host talk over NVLink/PCIe, not the
// fabric), each to the next and the last back to the first. Per pair, the best of its equal-cost
// routes by narrowest hop (ECMP may pick any; this is what the links could carry at best); the
// run's bottleneck is the narrowest such pair capacity and its hop. Hosts are found as RankHosts
// finds them (a host's name with no device).
// One assessor serves a whole sweep: the fabric's names, routes and links are indexed once.
class CollectiveAssessor {
public:
    // `history`: each port's speed over the store's snapshots, so a run is judged against the
    // speeds in force at its time; null: the fabric's own speeds.
    explicit CollectiveAssessor(const Fabric& fabric, const CapacityHistory* history = nullptr);
    [[nodiscard]] CollectiveAssessment assess(const CollectiveRun& run) const;

private:
    [[nodiscard]] double hopGbps(const Hop& h, double time) const;

    const Fabric& f_;
    const CapacityHistory* history_;
    RankHosts hosts_;
    EqualCostRouter router_;
    std::vector<std::optional<LinkId>> linkOfPort_;
};

// One run on its own (an assessor made for it).
[[nodiscard]] CollectiveAssessment assessCollectiveRun(const Fabric& fabric, const CollectiveRun& run);

} // namespace fabscope
