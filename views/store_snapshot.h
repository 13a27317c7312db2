#pragma once
// What the GUI shows of a store, loaded off the GUI thread and then shared read-only.
#include "core/analysis/findings.h"
#include "core/fabric_shape.h"
#include "core/model.h"
#include "core/store/fabric_events.h"
#include "core/store/port_ber.h"
#include "core/store/port_optics.h"
#include "core/store/store.h"
#include "core/timeseries/link_series.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fabscope {

struct PortRef;

struct StoreSnapshot {
    std::string path;
    StoreInfo info;
    std::int64_t snapshotId = 0;
    Fabric fabric;                     // latest topology snapshot
    std::vector<int> tiers;            // per node, see core/tiers.h
    ShapeAnalysis shape;               // fat tree, dragonfly groups or rails, see core/fabric_shape.h
    std::vector<LinkId> linkOfPort;    // per port; invalid when the port is on no link
    LinkTimeSeries rates;              // per-link rates on one time grid (empty without counters)
    std::unordered_map<std::string, std::uint32_t> nodeByName;  // GUID and description -> node index
    std::vector<std::vector<std::uint32_t>> portsOfNode;        // per node: its PortId values
    std::unordered_map<std::uint32_t, PortOptics> optics;        // by PortId value: what its module reported
    std::unordered_map<std::uint32_t, PortBer> ber;              // by PortId value: its FEC mode and bit error rates
    std::unordered_map<std::uint32_t, std::vector<FabricEvent>> events;  // by NodeId value: what ibdiagnet reported
    std::vector<Finding> planChecks;  // how the fabric differs from the latest cabling plan (topology_change findings)

    // The fabric port a finding names (by GUID, else description, then port name).
    [[nodiscard]] std::optional<PortId> findPort(const PortRef& ref) const;
    [[nodiscard]] std::optional<LinkId> linkOf(PortId p) const;
    // The store's sample span, else the rates' grid span; invalid when there are no samples.
    [[nodiscard]] TimeRange timeSpan() const;
    // "leaf02 p9"
    [[nodiscard]] std::string portLabel(PortId p) const;
    [[nodiscard]] std::string linkLabel(LinkId l) const;  // "leaf02 p9 — spine01 p2"
    // A link's sending capacities (Gb/s, up then down) in force at time t: they differ from the
    // fabric's only where a speed changed between the store's snapshots.
    [[nodiscard]] std::pair<double, double> capacityGbpsAt(LinkId l, double t) const;
    [[nodiscard]] bool capacityVaries(LinkId l) const;
};

// Opens the store read-only and loads its summary, latest fabric and link rates; throws
// StoreError. `cancel` stops the rate loading early; `config` converts the shares of time as the
// findings do (loadLinkTimeSeries).
std::shared_ptr<const StoreSnapshot> loadStoreSnapshot(const std::string& path, const std::atomic<bool>* cancel = nullptr,
                                                       const AnalysisConfig& config = {});

// The same in two steps, so a window can draw the fabric while the rates load: a 32k-GPU
// store's fabric reads in well under a second, its 200 M samples take several. The first
// step leaves `rates` empty; the second returns a copy of `base` with them.
std::shared_ptr<const StoreSnapshot> loadStoreFabric(const std::string& path);
std::shared_ptr<const StoreSnapshot> withLinkRates(const StoreSnapshot& base, const std::atomic<bool>* cancel = nullptr,
                                                   const AnalysisConfig& config = {});

// The same for a fabric held in memory (tests, benchmarks), with optional rates.
std::shared_ptr<const StoreSnapshot> makeSnapshot(Fabric fabric, LinkTimeSeries rates = {});

} // namespace fabscope
