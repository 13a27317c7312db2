#pragma once
// All equal-cost shortest routes between two nodes of a fabric (hop count over links), for
// straggler_path when no forwarding tables are imported. Hosts (CAs) are never transit nodes.
// Boost.Graph stays inside equal_cost_paths.cpp.
#include "core/model.h"

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace fabscope {

struct Hop {
    PortId tx, rx;  // the link direction the route takes
};
using Route = std::vector<Hop>;

// Builds the fabric's graph once; routes() may then be asked for many pairs. The hop distances
// to recent destinations (by their switches) are kept, least recently used first out: pairs into
// hosts of one leaf search the fabric once. kKeepByMemory keeps as many as 32 MiB hold (every
// leaf of the k=48 tree, so a job placed anywhere searches once per leaf); 0 searches for every
// pair (bench/bench_job_routes' baseline).
class EqualCostRouter {
public:
    static constexpr std::size_t kKeepByMemory = static_cast<std::size_t>(-1);
    explicit EqualCostRouter(const Fabric& fabric, std::size_t keptDestinations = kKeepByMemory);
    ~EqualCostRouter();
    EqualCostRouter(const EqualCostRouter&) = delete;
    EqualCostRouter& operator=(const EqualCostRouter&) = delete;

    // Routes from `src` to `dst` (node ids), each a list of hops from src to dst; at most
    // maxRoutes (parallel links give distinct routes). Empty when dst is unreachable or src == dst.
    [[nodiscard]] std::vector<Route> routes(NodeId src, NodeId dst, std::size_t maxRoutes) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace fabscope
