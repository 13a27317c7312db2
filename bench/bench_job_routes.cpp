// bench_job_routes: how long the analysis takes to place and route a large job on a large fabric
// without forwarding tables: the k=48 demo fat tree (2,880 switches, 27,648 hosts) and a job of
// 16,384 ranks, one per host, its pairs rank i -> i+1 (a ring, as straggler_path takes a job
// without logged rings above ring_above ranks).
//   placement: each rank's host port found through RankHosts (the fabric's names indexed once)
//              against the scan of every node per rank the analysis did before (run on 256 ranks
//              spread over the job, the rest projected: a scan stops at its host); both give the
//              same ports.
//   routing:   every pair's equal-cost routes with the distances to recent destinations kept,
//              against a search of the fabric for every pair (EqualCostRouter with none kept);
//              every route compared. Twice: the ranks in host order (ring neighbours share a
//              leaf), then shuffled (placed anywhere, as a fragmented allocation places them).
//   bench_job_routes [--ranks N] [--work DIR]
#include "core/analysis/context.h"
#include "core/analysis/equal_cost_paths.h"
#include "core/analysis/rank_hosts.h"
#include "core/demo_fabric.h"
#include "core/store/store.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <filesystem>
#include <string>
#include <vector>

using namespace fabscope;

namespace {

double seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// The placement before RankHosts: every node scanned for each rank, its names built as it went.
std::optional<PortId> scanForHost(const AnalysisContext& ctx, const std::vector<bool>& aggregation, const std::string& host,
                                  const std::string& device) {
    const Fabric& f = ctx.fabric();
    std::optional<std::size_t> exact, prefix;
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        const Node& n = f.nodes[i];
        if (n.type == NodeType::Switch || aggregation[i]) continue;
        const std::string& d = n.description;
        if ((!device.empty() && d == host + " " + device) || d == host || n.systemName == host) {
            exact = i;
            break;
        }
        if (!prefix && d.starts_with(host + " ") && (device.empty() || d.find(device) != std::string::npos)) prefix = i;
    }
    const auto node = exact ? exact : prefix;
    if (!node) return std::nullopt;
    for (std::size_t p = 0; p < f.ports.size(); ++p)
        if (f.ports[p].node.value() == *node && ctx.linkOf(PortId(p))) return PortId(p);
    return std::nullopt;
}

bool sameRoutes(const std::vector<Route>& a, const std::vector<Route>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].size() != b[i].size()) return false;
        for (std::size_t k = 0; k < a[i].size(); ++k)
            if (a[i][k].tx != b[i][k].tx || a[i][k].rx != b[i][k].rx) return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    int ranks = 16384;
    std::string work = std::filesystem::temp_directory_path() / ("fabscope-job-routes-" + std::to_string(::getpid()));
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--ranks") == 0) ranks = std::max(2, std::atoi(argv[i + 1]));
        if (std::strcmp(argv[i], "--work") == 0) work = argv[i + 1];
    }
    std::filesystem::create_directories(work);
    const std::string db = work + "/job-routes.sqlite";
    std::filesystem::remove(db);
    {
        Store store(db);
        Store::Transaction tx(store);
        store.writeSnapshot(demoFabric(DemoOptions::Scale::Large), "k48", 1700000000);
        tx.commit();
    }
    const Store store(db, Store::Mode::ReadOnly);
    const AnalysisContext ctx(store, 1700000000, 1700000600, AnalysisConfig{});
    const Fabric& f = ctx.fabric();
    std::vector<std::string> hosts;
    for (const Node& n : f.nodes)
        if (n.type != NodeType::Switch && n.description.ends_with(" mlx5_0") && static_cast<int>(hosts.size()) < ranks)
            hosts.push_back(n.description.substr(0, n.description.size() - 7));
    ranks = static_cast<int>(hosts.size());
    std::printf("k=48 fat tree: %zu nodes, %zu links; a job of %d ranks, one per host, pairs rank i -> i+1\n", f.nodes.size(),
                f.links.size(), ranks);

    // Placement.
    const std::vector<bool>& aggregation = ctx.aggregationNodes();
    double t = seconds();
    const RankHosts index(f, aggregation);
    std::vector<std::optional<PortId>> placed;
    for (const std::string& h : hosts) placed.push_back(index.port(h, "mlx5_0"));
    const double indexed = seconds() - t;
    const int sample = std::min(ranks, 256);
    t = seconds();
    bool placesAgree = true;
    for (int k = 0; k < sample; ++k) {
        const auto r = static_cast<std::size_t>(static_cast<long>(k) * ranks / sample);
        placesAgree = placesAgree && scanForHost(ctx, aggregation, hosts[r], "mlx5_0") == placed[r];
    }
    const double scanned = (seconds() - t) / sample * ranks;
    std::size_t unplaced = 0;
    for (const auto& p : placed) unplaced += !p;
    std::printf("placement: indexed %.3f s; a scan per rank %.1f s (%d ranks timed, projected to %d): %.0fx; %zu ranks off the fabric; "
                "ports %s\n",
                indexed, scanned, sample, ranks, scanned / std::max(indexed, 1e-6), unplaced, placesAgree ? "agree" : "DISAGREE");

    // Routing: the ranks in host order (a ring's neighbours mostly share a leaf), then placed
    // anywhere (a scheduler's fragmented allocation: every pair's destination on another leaf).
    const std::size_t maxRoutes = 16;
    bool routesAgree = true;
    const auto timeRouting = [&](const char* placement, const std::vector<std::optional<PortId>>& at) {
        const EqualCostRouter kept(f), searched(f, 0);
        std::vector<std::vector<Route>> routes;
        double t0 = seconds();
        for (int r = 0; r < ranks; ++r) {
            const auto a = at[static_cast<std::size_t>(r)], b = at[static_cast<std::size_t>((r + 1) % ranks)];
            routes.push_back(a && b ? kept.routes(f.port(*a).node, f.port(*b).node, maxRoutes) : std::vector<Route>{});
        }
        const double keptS = seconds() - t0;
        t0 = seconds();
        std::size_t hops = 0;
        bool agree = true;
        for (int r = 0; r < ranks; ++r) {
            const auto a = at[static_cast<std::size_t>(r)], b = at[static_cast<std::size_t>((r + 1) % ranks)];
            const auto again = a && b ? searched.routes(f.port(*a).node, f.port(*b).node, maxRoutes) : std::vector<Route>{};
            agree = agree && sameRoutes(again, routes[static_cast<std::size_t>(r)]);
            for (const Route& route : again) hops += route.size();
        }
        const double searchedS = seconds() - t0;
        std::printf("routing, %s: distances kept %.3f s; a search per pair %.3f s: %.1fx; %zu hops over up to %zu routes a pair; routes %s\n",
                    placement, keptS, searchedS, searchedS / std::max(keptS, 1e-6), hops, maxRoutes, agree ? "agree" : "DISAGREE");
        routesAgree = routesAgree && agree;
    };
    timeRouting("ranks in host order", placed);
    std::vector<std::optional<PortId>> scattered = placed;
    std::shuffle(scattered.begin(), scattered.end(), std::mt19937(7));
    timeRouting("ranks placed anywhere", scattered);
    std::filesystem::remove_all(work);
    return placesAgree && routesAgree ? 0 : 1;
}
