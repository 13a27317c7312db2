#include "core/unmapped_series.h"

#include <set>
#include <unordered_map>

namespace fabscope {

std::vector<UnmappedSeries> unmappedSeries(const Store& store) {
    std::unordered_map<std::int64_t, std::uint32_t> nodeOfDevice;
    std::set<std::pair<std::uint32_t, std::string>> ports;  // (node index, port name)
    if (const auto snap = store.latestSnapshot()) {
        const Fabric f = store.loadFabric(snap->id);
        const auto devices = store.deviceIds(snap->id);  // in node order, as loadFabric returns them
        for (std::size_t i = 0; i < devices.size() && i < f.nodes.size(); ++i)
            nodeOfDevice.emplace(devices[i], static_cast<std::uint32_t>(i));
        for (const Port& p : f.ports) ports.emplace(p.node.value(), p.name);
    }
    std::vector<UnmappedSeries> out;
    for (const auto& s : store.series()) {
        const auto n = nodeOfDevice.find(s.deviceId);
        if (s.deviceId == 0 || n == nodeOfDevice.end())
            out.push_back({s.nodeRef, s.port, s.counter, "node"});
        else if (!ports.count({n->second, s.port}))
            out.push_back({s.nodeRef, s.port, s.counter, "port"});
    }
    return out;
}

} // namespace fabscope
