#pragma once
// Finds a job rank's host on the fabric by the names its log gave (host, device), with the
// fabric's names indexed once: a job of 16k ranks on a 30k-node fabric asked each rank by a scan
// of every node, building strings as it went (minutes, where this takes milliseconds).
#include "core/model.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabscope {

class AnalysisContext;

class RankHosts {
public:
    // `aggregation`: per node, true for an aggregation node (never a rank's host).
    RankHosts(const AnalysisContext& ctx, const std::vector<bool>& aggregation);

    // The host's connected port: of the first non-switch node whose description is "host device"
    // or "host", or whose system name is the host; else of the first whose description starts
    // with "host " and holds the device. nullopt when none is on the fabric.
    [[nodiscard]] std::optional<PortId> port(const std::string& host, const std::string& device) const;

private:
    [[nodiscard]] std::optional<std::size_t> first(const std::unordered_map<std::string, std::vector<std::size_t>>& index,
                                                   const std::string& key) const;

    const Fabric& fabric_;
    std::unordered_map<std::string, std::vector<std::size_t>> byDescription_, bySystemName_;
    // A description's every prefix that a space ends ("gpu01" and "gpu01 mlx5" of "gpu01 mlx5 0"),
    // to its nodes in order.
    std::unordered_map<std::string, std::vector<std::size_t>> byLeadingWords_;
    std::vector<std::optional<PortId>> linkedPort_;  // per node, its first port with a link
};

} // namespace fabscope
