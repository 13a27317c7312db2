#include "views/counter_probe.h"

#include "core/series_ports.h"
#include "core/store/store.h"

#include <algorithm>
#include <cmath>

namespace fabscope {

CounterIndex buildCounterIndex(const Store& store, std::int64_t snapshotId, const Fabric& fabric) {
    CounterIndex out;
    const SeriesPortIndex ports(fabric, store.deviceIds(snapshotId));
    for (const SeriesInfo& s : store.series())
        if (const auto p = ports.port(s)) out.byPort[p->value()].push_back({s.id, s.counter, s.unit});
    for (auto& [port, list] : out.byPort)
        std::sort(list.begin(), list.end(), [](const PortSeries& a, const PortSeries& b) { return a.counter < b.counter; });
    return out;
}

std::vector<CounterReading> readCountersAt(const Store& store, const CounterIndex& index, const std::vector<PortId>& ports,
                                           double time) {
    std::vector<CounterReading> out;
    const auto t = static_cast<std::int64_t>(std::floor(time * 1000.0));
    for (PortId p : ports) {
        const auto it = index.byPort.find(p.value());
        if (it == index.byPort.end()) continue;
        for (const PortSeries& s : it->second) {
            CounterReading r{p, s.counter, s.unit, false, 0, 0};
            // The chunk around the time first; the whole history only when that hour is empty.
            SeriesData d = store.loadSeries(s.id, t - 3600 * 1000, t);
            if (d.timesMs.empty()) d = store.loadSeries(s.id, INT64_MIN, t);
            if (!d.timesMs.empty()) {
                r.found = true;
                r.value = d.values.back();
                r.sampleTime = static_cast<double>(d.timesMs.back()) / 1000.0;
            }
            out.push_back(std::move(r));
        }
    }
    return out;
}

} // namespace fabscope
