#include "core/unmapped_series.h"

#include "core/series_ports.h"

namespace fabscope {

std::vector<UnmappedSeries> unmappedSeries(const Store& store) {
    Fabric f;
    std::vector<std::int64_t> devices;
    if (const auto snap = store.latestSnapshot()) {
        f = store.loadFabric(snap->id);
        devices = store.deviceIds(snap->id);
    }
    const SeriesPortIndex ports(f, devices);
    std::vector<UnmappedSeries> out;
    for (const auto& s : store.series()) {
        const auto n = ports.node(s.deviceId);
        if (!n) out.push_back({s.nodeRef, s.port, s.counter, "node"});
        else if (!ports.port(*n, s.port)) out.push_back({s.nodeRef, s.port, s.counter, "port"});
    }
    return out;
}

} // namespace fabscope
