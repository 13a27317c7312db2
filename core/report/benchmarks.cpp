#include "core/report/benchmarks.h"

#include "core/analysis/capacity_history.h"

namespace fabscope {

BenchmarkResults collectBenchmarks(const Store& store, const Fabric& fabric, const CapacityHistory& capacities) {
    BenchmarkResults b;
    b.runs = loadCollectiveRuns(store);
    const CollectiveAssessor assessor(fabric, &capacities);
    for (const auto& r : b.runs) b.assessments.push_back(assessor.assess(r));
    for (auto& p : loadProbes(store))
        if (p.tool.starts_with("ib_")) b.perftest.push_back(std::move(p));
    return b;
}

} // namespace fabscope
