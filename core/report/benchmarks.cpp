#include "core/report/benchmarks.h"

namespace fabscope {

BenchmarkResults collectBenchmarks(const Store& store, const Fabric& fabric) {
    BenchmarkResults b;
    b.runs = loadCollectiveRuns(store);
    for (const auto& r : b.runs) b.assessments.push_back(assessCollectiveRun(fabric, r));
    for (auto& p : loadProbes(store))
        if (p.tool.starts_with("ib_")) b.perftest.push_back(std::move(p));
    return b;
}

} // namespace fabscope
