#pragma once
// Finds a host on the fabric by the names a log gave (a job rank's host and device, a benchmark's
// host), with the fabric's names indexed once: a job of 16k ranks on a 30k-node fabric asked each
// rank by a scan of every node, building strings as it went (minutes, where this takes
// milliseconds). The one rule for a host named by a log: jobs, benchmarks, probes, what-ifs and
// the pairwise matrix use it (probes may also name a node GUID, probe_routes.h).
#include "core/model.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fabscope {

class RankHosts {
public:
    // `aggregation`: per node, true for an aggregation node (never a rank's host).
    RankHosts(const Fabric& fabric, const std::vector<bool>& aggregation);

    // The first non-switch node whose description is "host device" or "host", or whose system
    // name is the host; else the first whose description starts with "host " and holds the
    // device (any, when it is empty). nullopt when none is on the fabric.
    [[nodiscard]] std::optional<NodeId> node(const std::string& host, const std::string& device = {}) const;
    // That node's first linked port (lowest port id), where the host meets the fabric.
    [[nodiscard]] std::optional<PortId> port(const std::string& host, const std::string& device = {}) const;
    [[nodiscard]] std::optional<PortId> linkedPort(NodeId node) const { return linkedPort_[node.value()]; }
    // Every host node whose description starts with "host " (a multi-NIC host's "host mlx5_N"), in node order.
    [[nodiscard]] std::vector<NodeId> nodesLedBy(const std::string& host) const;

private:
    using Index = std::unordered_map<std::string, std::vector<std::size_t>>;  // name -> its nodes, in order
    [[nodiscard]] static std::optional<std::size_t> first(const Index& index, const std::string& key);

    const Fabric& fabric_;
    Index byDescription_, bySystemName_;
    // A description's every prefix that a space ends ("gpu01" and "gpu01 mlx5" of "gpu01 mlx5 0").
    Index byLeadingWords_;
    std::vector<std::optional<PortId>> linkedPort_;  // per node
};

} // namespace fabscope
