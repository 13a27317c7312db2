#include "core/series_ports.h"

namespace fabscope {

SeriesPortIndex::SeriesPortIndex(const Fabric& fabric, const std::vector<std::int64_t>& deviceIds)
    : fabric_(fabric), portsOfNode_(fabric.nodes.size()) {
    for (std::size_t i = 0; i < deviceIds.size() && i < fabric.nodes.size(); ++i)
        nodeOfDevice_.emplace(deviceIds[i], static_cast<std::uint32_t>(i));
    for (std::size_t i = 0; i < fabric.ports.size(); ++i)
        portsOfNode_[fabric.ports[i].node.value()].push_back(static_cast<std::uint32_t>(i));
}

std::optional<std::uint32_t> SeriesPortIndex::node(std::int64_t deviceId) const {
    if (deviceId == 0) return std::nullopt;
    const auto it = nodeOfDevice_.find(deviceId);
    if (it == nodeOfDevice_.end()) return std::nullopt;
    return it->second;
}

std::optional<PortId> SeriesPortIndex::port(std::uint32_t node, std::string_view name) const {
    if (node >= portsOfNode_.size()) return std::nullopt;
    for (std::uint32_t p : portsOfNode_[node])
        if (fabric_.ports[p].name == name) return PortId(p);
    return std::nullopt;
}

std::optional<PortId> SeriesPortIndex::port(const SeriesInfo& s) const {
    const auto n = node(s.deviceId);
    return n ? port(*n, s.port) : std::nullopt;
}

} // namespace fabscope
