#pragma once
// Which fabric port a stored series sits on. A series names its node by device id and its port
// by name; the snapshot's nodes come with their device ids (Store::deviceIds). Shared by the
// analysis, the views' link rates and counter readings, and `fabscope info`.
#include "core/model.h"
#include "core/store/store.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabscope {

class SeriesPortIndex {
public:
    // `deviceIds` in the order of fabric.nodes; the fabric must outlive the index.
    SeriesPortIndex(const Fabric& fabric, const std::vector<std::int64_t>& deviceIds);

    // The node of a device; nullopt for device 0 (unmapped) or one not in this snapshot.
    [[nodiscard]] std::optional<std::uint32_t> node(std::int64_t deviceId) const;
    // The port of a node by name; a node has tens of ports, so a scan costs no allocation.
    [[nodiscard]] std::optional<PortId> port(std::uint32_t node, std::string_view name) const;
    [[nodiscard]] std::optional<PortId> port(const SeriesInfo& s) const;

private:
    const Fabric& fabric_;
    std::unordered_map<std::int64_t, std::uint32_t> nodeOfDevice_;
    std::vector<std::vector<std::uint32_t>> portsOfNode_;  // node -> PortId values
};

} // namespace fabscope
