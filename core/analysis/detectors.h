#pragma once
// One detector per finding kind (docs/FINDINGS.md); each appends what it finds, unsorted.
#include "core/analysis/context.h"

#include <vector>

namespace fabscope {

void detectHotLinks(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectDegradedLinks(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectErrorLinks(const AnalysisContext& ctx, std::vector<Finding>& out);
// error_link from the bit error rates ibdiagnet read (net_dump_ext) on the context's snapshot.
void detectBerLinks(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectLinkFlaps(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectEcmpImbalance(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectCongestionTrees(const AnalysisContext& ctx, std::vector<Finding>& out);
void detectPfcStorms(const AnalysisContext& ctx, std::vector<Finding>& out);
// Every job of the store with its pairs routed and scored (job_routes.cpp); the findings of the
// other detectors make the hops they name score worse.
std::vector<JobRoutes> routeJobs(const Store& store, const AnalysisContext& ctx, const std::vector<Finding>& soFar);
// The outlier pair of each job, from routeJobs().
void detectStragglerPaths(const AnalysisContext& ctx, const std::vector<JobRoutes>& jobs, std::vector<Finding>& out);
// lossy_link and slow_pair from the store's probe results (pingmesh, perftest).
void detectProbeFindings(const Store& store, const AnalysisContext& ctx, std::vector<Finding>& out);
// slow_pair and slow_host from pairwise benchmarks (nccl-tests runs between two hosts).
void detectPairBenchmarks(const Store& store, const AnalysisContext& ctx, std::vector<Finding>& out);

} // namespace fabscope
