#pragma once
// A pair's routes as link_voting.h counts them: each route's weight and the links its hops cross.
// Shared by the probe pairs (lossy_link) and the benchmark pairs (pair_benchmark_findings.cpp).
#include "core/analysis/context.h"
#include "core/analysis/link_voting.h"
#include "core/analysis/probe_routes.h"

namespace fabscope {

VotingPair::Routes votingRoutes(const ProbeRoutes& routes, const AnalysisContext& ctx);

} // namespace fabscope
