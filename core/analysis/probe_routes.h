#pragma once
// Where a probe between two hosts went: its routes over the fabric, from the probe's recorded
// path (the `path` column of a pingmesh CSV), else the forwarding tables (dump_fts / ibroute)
// traced hop by hop, else every equal-cost shortest route. A probe's host resolves by the one
// host rule (RankHosts: "gpu001 mlx5_0", "gpu001", a system name), else by its GUID; a hop by
// any node's full name (description, system name, GUID), else by the host rule.
#include "core/analysis/equal_cost_paths.h"
#include "core/model.h"
#include "core/store/store.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabscope {

enum class RouteSource { RecordedPath, ForwardingTables, EqualCost };
std::string_view toString(RouteSource s);  // "recorded_path", "forwarding_tables", "equal_cost"

struct WeightedRoute {
    double weight = 1;  // share of the probes that took this route; weights of one pair sum to 1
    Route hops;
};

struct ProbeRoutes {
    RouteSource source = RouteSource::EqualCost;
    std::vector<WeightedRoute> routes;  // empty when the hosts are not connected
};

// One hop of a recorded path: "leaf01", "leaf01 p3" or "leaf01:3" (the port the probe left by;
// on the last hop the port it arrived on).
struct PathHop {
    std::string node;
    std::string port;  // empty when not given
};
PathHop parsePathHop(std::string_view hop);

class HostPlaces;

class ProbeRouter {
public:
    // `places`: the analysis' host index and equal-cost router (host_places.h), shared rather
    // than built again; it must outlive this. `tables`: the forwarding tables of the fabric's
    // snapshot (Store::routes), may be empty.
    ProbeRouter(const HostPlaces& places, const std::vector<SwitchRoutes>& tables, std::size_t maxRoutes);

    // The connected port of the host a probe names; nullopt when the fabric has no such host.
    [[nodiscard]] std::optional<PortId> hostPort(std::string_view name) const;
    [[nodiscard]] std::optional<NodeId> node(std::string_view name) const;

    // Routes from src to dst (connected host ports). `recorded`: the distinct paths the probes of
    // this direction recorded, each with its row count; paths that do not resolve are ignored.
    [[nodiscard]] ProbeRoutes routes(PortId src, PortId dst, const std::map<std::vector<std::string>, int>& recorded) const;

    [[nodiscard]] std::optional<LinkId> linkOf(PortId p) const { return linkOfPort_[p.value()]; }
    [[nodiscard]] bool hasTables() const { return !tables_.empty(); }

private:
    std::optional<Route> traceTables(PortId src, PortId dst) const;
    std::optional<Route> resolvePath(PortId src, PortId dst, const std::vector<std::string>& hops) const;

    const HostPlaces& places_;
    const Fabric& fabric_;
    std::size_t maxRoutes_;
    std::unordered_map<std::string, std::uint32_t> byName_;            // every full name a node goes by
    std::unordered_map<std::uint32_t, const SwitchRoutes*> tables_;    // node -> its forwarding table
    std::map<std::pair<std::uint32_t, int>, PortId> portByNumber_;     // (node, port number)
    std::vector<std::optional<LinkId>> linkOfPort_;
    std::vector<std::vector<LinkId>> linksOfNode_;
};

} // namespace fabscope
