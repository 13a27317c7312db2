#pragma once
// What the fabric says about benchmark hosts: the NICs a host has, the switch and line rate
// each NIC meets, how far apart two hosts are, and one router for the routes between them.
// Built once per analysis and shared by the pairwise verdicts (judgePairBenchmarks) and the
// findings that name a pair's route (detectPairBenchmarks), and by the probes' routes
// (ProbeRouter), so the fabric is indexed once: AnalysisContext::hostPlaces() keeps the one of an
// analysis, for jobs, probes and benchmarks alike. Safe for concurrent use: the router is built
// once, the distances remembered under a lock.
#include "core/analysis/equal_cost_paths.h"
#include "core/analysis/pair_benchmarks.h"
#include "core/analysis/rank_hosts.h"
#include "core/model.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fabscope {

class HostPlaces {
public:
    // `aggregation`: per node, true for an aggregation node (AnalysisContext::aggregationNodes()).
    HostPlaces(const Fabric& fabric, const std::vector<bool>& aggregation);
    // The same with each node's tier (core/tiers.h) already known (AnalysisContext::tiers()).
    HostPlaces(const Fabric& fabric, const std::vector<bool>& aggregation, std::vector<int> tiers);
    explicit HostPlaces(const Fabric& fabric);  // finds the aggregation nodes itself

    [[nodiscard]] const Fabric& fabric() const { return f_; }
    [[nodiscard]] const RankHosts& hosts() const { return names_; }
    // Built on first use: a store without two-host runs never needs one.
    [[nodiscard]] const EqualCostRouter& router() const;

    // The host's CA nodes: every "host mlx5_N" (one per NIC), else the one RankHosts finds.
    [[nodiscard]] std::vector<NodeId> nics(const std::string& host) const;
    // The NIC's linked port: its switch and its line rate (Gb/s).
    [[nodiscard]] std::optional<std::pair<NodeId, double>> uplink(NodeId nic) const;
    // The highest tier one shortest route between the two nodes climbs to. Remembered per pair
    // of the switches the two meet: a mesh of n hosts asks n^2 times, its leaves far fewer.
    [[nodiscard]] PairDistance distance(NodeId a, NodeId b) const;

private:
    const Fabric& f_;
    RankHosts names_;
    std::vector<std::optional<LinkId>> linkOfPort_;
    std::vector<int> tier_;
    int top_ = 1;
    mutable std::once_flag routerOnce_;
    mutable std::optional<EqualCostRouter> router_;
    mutable std::mutex distanceMutex_;  // guards distanceOf_
    mutable std::map<std::pair<std::uint32_t, std::uint32_t>, PairDistance> distanceOf_;
};

} // namespace fabscope
