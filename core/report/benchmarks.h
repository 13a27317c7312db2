#pragma once
// A store's benchmark results as the report and the Benchmarks dock show them: nccl-tests runs
// with their bottleneck assessment (core/analysis/collective_bandwidth.h) and perftest rows.
#include "core/analysis/collective_bandwidth.h"
#include "core/store/probes.h"
#include "core/store/store.h"

#include <vector>

namespace fabscope {

struct BenchmarkResults {
    std::vector<CollectiveRun> runs;
    std::vector<CollectiveAssessment> assessments;  // one per run, same order
    std::vector<ProbeResult> perftest;              // probes of the ib_*_lat / ib_*_bw tools
    [[nodiscard]] bool empty() const { return runs.empty() && perftest.empty(); }
};

class CapacityHistory;

// All of the store's runs and perftest rows (benchmarks are few; no window applies), each run
// assessed on `fabric` at the link speeds in force when it ran (`capacities`, the history of the
// snapshot `fabric` was loaded from: the report passes its analysis context's).
[[nodiscard]] BenchmarkResults collectBenchmarks(const Store& store, const Fabric& fabric, const CapacityHistory& capacities);

} // namespace fabscope
