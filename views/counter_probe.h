#pragma once
// Raw counter values of fabric ports at one instant, read from the store (the inspector's
// "counters at the cursor"). No Qt: the inspector runs it on a worker with its own read-only Store.
#include "core/model.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace fabscope {

class Store;

struct PortSeries {
    std::int64_t id = 0;
    std::string counter, unit;
};

// Which series sit on which fabric port of one snapshot (by device id and port name).
struct CounterIndex {
    std::unordered_map<std::uint32_t, std::vector<PortSeries>> byPort;  // PortId value -> series
};
CounterIndex buildCounterIndex(const Store& store, std::int64_t snapshotId, const Fabric& fabric);

struct CounterReading {
    PortId port;
    std::string counter, unit;
    bool found = false;     // false: no sample at or before the time
    double value = 0;       // the raw (cumulative) value as imported
    double sampleTime = 0;  // UNIX seconds of that sample (the latest at or before the time)
};

// The latest sample at or before `time` of every counter of `ports`, ordered by port then name.
std::vector<CounterReading> readCountersAt(const Store& store, const CounterIndex& index, const std::vector<PortId>& ports,
                                           double time);

} // namespace fabscope
