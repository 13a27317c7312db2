#pragma once
// Whether any probe lies in a time window: one step down the probes' time index, so a detector
// can skip its setup (the host index) for a store or window without probes.
namespace fabscope {

class Store;

[[nodiscard]] bool anyProbeIn(const Store& store, double from, double to);

} // namespace fabscope
