#pragma once
// An estimate of the GPU time the network put at risk over the window, defined so that it can be
// stated in the report: an upper bound for the GPUs it counts, never a measured slowdown.
//
// Per critical finding, the GPUs whose traffic can cross it are those attached below its lowest
// node (its own host for a host link, every host under a leaf for a leaf uplink, ...). A GPU's time
// at risk is the union of the intervals of the critical findings that reach it. Without job data
// every host NIC counts as one GPU (one NIC per GPU, as in rail-optimised servers). With jobs in
// the store (rank -> host), a job's time at risk is the union over the findings that reach any of
// its hosts, times all of its GPUs (ranks): a collective waits for its slowest member. A job's own
// straggler_path (warning or critical) always counts for it: the job's ring runs at that path's
// bound, and the report states the bound with and without the hop.
#include "core/analysis/findings.h"
#include "core/model.h"
#include "core/store/store.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fabscope {

struct FindingRisk {
    std::string findingId, kind, summary;
    std::size_t gpus = 0;      // GPUs whose traffic can cross it
    double seconds = 0;        // its duration
    std::string scope;         // "hosts below leaf02"
};

struct JobRisk {
    std::string job;
    std::size_t gpus = 0;      // ranks
    std::size_t hostsMapped = 0, ranksUnmapped = 0;  // distinct hosts found; ranks whose host is not
    double seconds = 0;        // union of the critical findings reaching its hosts, and its own straggler_path
    std::string straggler;     // id of the job's straggler_path finding; empty when none
    double boundGbps = 0, boundWithoutGbps = 0;  // the ring's bound with and without that hop
    double slowdown = 0;       // boundWithoutGbps / boundGbps; 0 when not known
    [[nodiscard]] double gpuSeconds() const { return static_cast<double>(gpus) * seconds; }
};

struct GpuRisk {
    bool fromJobs = false;        // jobs in the store: per-job figures are the total
    std::size_t gpusCounted = 0;  // host NICs (no jobs) or ranks over all jobs
    double windowSeconds = 0;
    std::vector<FindingRisk> findings;  // critical findings only
    std::vector<JobRisk> jobs;
    double totalGpuSeconds = 0;         // overlaps counted once per GPU (or job)
};

GpuRisk estimateGpuRisk(const Store& store, const Fabric& fabric, const std::vector<int>& tiers,
                        const FindingsReport& findings);

} // namespace fabscope
