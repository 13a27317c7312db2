#pragma once
// What every detector works from: the latest fabric, which stored series belongs to which of its
// ports, the analysis window and the thresholds.
#include "core/analysis/analysis_config.h"
#include "core/analysis/capacity_history.h"
#include "core/analysis/findings.h"
#include "core/analysis/rates.h"
#include "core/series_ports.h"
#include "core/store/store.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

// A port a series talks about: a fabric port when the topology has it, else only its node and
// port name (a port whose link was down when the topology was taken).
struct SeriesPort {
    std::uint32_t node = 0;  // index into fabric.nodes
    std::string port;        // Port.name
    bool operator<(const SeriesPort& o) const { return std::tie(node, port) < std::tie(o.node, o.port); }
};

class HostPlaces;

class AnalysisContext {
public:
    // Loads the latest snapshot (or `snapshotId`: `compare` takes the one in force in each window)
    // and maps the store's series onto it. A store without topology gives an empty fabric (and no findings).
    AnalysisContext(const Store& store, double windowStart, double windowEnd, AnalysisConfig config,
                    std::optional<std::int64_t> snapshotId = std::nullopt);
    AnalysisContext(const AnalysisContext&) = delete;  // its port index refers to its own fabric
    AnalysisContext& operator=(const AnalysisContext&) = delete;
    ~AnalysisContext();

    [[nodiscard]] const Fabric& fabric() const { return fabric_; }
    // Each node's tier (core/tiers.h) and whether it is a switch's internal aggregation node
    // (core/model.h): computed once, when a detector first asks, for all that ask after it.
    [[nodiscard]] const std::vector<int>& tiers() const;
    [[nodiscard]] const std::vector<bool>& aggregationNodes() const;
    // Where hosts meet the fabric and the routes between them (core/analysis/host_places.h):
    // built when a detector first asks, then shared by jobs, probes and benchmarks, so a host
    // is placed by one rule and each destination searched once per analysis.
    [[nodiscard]] const HostPlaces& hostPlaces() const;
    [[nodiscard]] const AnalysisConfig& config() const { return config_; }
    // Each port's sending capacity over the store's snapshots: utilisation is of the capacity in
    // force at each interval (core/analysis/capacity_history.h).
    [[nodiscard]] const CapacityHistory& capacities() const { return capacities_; }
    [[nodiscard]] double snapshotTime() const { return snapshotTime_; }
    [[nodiscard]] std::int64_t snapshotId() const { return snapshotId_; }  // 0 without a topology
    [[nodiscard]] double windowStart() const { return windowStart_; }
    [[nodiscard]] double windowEnd() const { return windowEnd_; }
    // The window, when it was read beside the context (analysisContext()): before any detector runs.
    void setWindow(double start, double end) {
        windowStart_ = start;
        windowEnd_ = end;
    }

    // Series id of `counter` on a fabric port, if one was imported.
    [[nodiscard]] std::optional<std::int64_t> seriesFor(PortId port, std::string_view counter) const;
    // Every (port, series id) carrying `counter`, fabric ports or not.
    [[nodiscard]] std::vector<std::pair<SeriesPort, std::int64_t>> seriesOf(const std::string& counter) const;
    // Rates of one series over the window.
    [[nodiscard]] RateSeries rates(std::int64_t seriesId, const std::string& counter) const;
    // The same through another connection to the same store (a worker thread's own Store).
    [[nodiscard]] RateSeries rates(const Store& via, std::int64_t seriesId, const std::string& counter) const;
    [[nodiscard]] const Store& store() const { return store_; }
    // The highest rate any interval of the series can have in the window (Store::seriesPeaks:
    // +infinity when not known), so a detector skips a series that cannot reach its threshold
    // without loading it. Read once for every series, through the first asking thread's
    // connection `via`, unless setPeaks() gave them before.
    [[nodiscard]] double peakRate(const Store& via, std::int64_t seriesId) const;
    // The peaks read elsewhere (analysisContext(): beside the context) for this window. Before
    // any detector runs, after setWindow().
    void setPeaks(std::vector<double> peaks);
    // What a peak is compared with a threshold through: a skipped series must be below it by more
    // than the rounding of the detector's own arithmetic.
    static constexpr double kPeakSlack = 1 + 1e-9;
    // A window in whole milliseconds covering it, as series are loaded for it.
    struct WindowMs {
        std::int64_t from = 0, to = 0;
    };
    [[nodiscard]] static WindowMs windowMs(double start, double end);
    [[nodiscard]] WindowMs windowMs() const { return windowMs(windowStart_, windowEnd_); }

    // The fabric port a series port is, and the link it is on (when connected).
    [[nodiscard]] std::optional<PortId> fabricPort(const SeriesPort& p) const;
    [[nodiscard]] std::optional<LinkId> linkOf(PortId p) const;
    [[nodiscard]] PortId peer(LinkId link, PortId p) const;

    [[nodiscard]] PortRef ref(PortId p) const;
    [[nodiscard]] PortRef ref(const SeriesPort& p) const;
    // "leaf02 p9" on InfiniBand, "leaf02 Ethernet8" on Ethernet.
    [[nodiscard]] static std::string label(const PortRef& p);

private:
    const Store& store_;
    Fabric fabric_;
    AnalysisConfig config_;
    double snapshotTime_ = 0;
    std::int64_t snapshotId_ = 0;
    double windowStart_ = 0, windowEnd_ = 0;
    // Lookups by index: detectors ask for every port of an 83k-link fabric, so a lookup must
    // not allocate or walk a tree of strings.
    std::optional<SeriesPortIndex> ports_;  // empty without a snapshot
    std::vector<std::optional<LinkId>> linkOfPort_;                    // by PortId value
    CapacityHistory capacities_;
    std::map<std::string, std::vector<std::pair<SeriesPort, std::int64_t>>, std::less<>> byCounter_;
    std::map<std::string, std::vector<std::int64_t>, std::less<>> seriesByPort_;  // counter -> by PortId value, 0 = none
    mutable std::once_flag tiersOnce_, aggregationOnce_, peaksOnce_, placesOnce_;
    mutable std::unique_ptr<HostPlaces> places_;
    mutable std::vector<double> peaks_;  // by series id
    mutable std::vector<int> tiers_;
    mutable std::vector<bool> aggregation_;
};

} // namespace fabscope
