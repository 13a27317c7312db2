#include "core/analysis/context.h"
#include "core/analysis/host_places.h"
#include "core/tiers.h"

#include "core/fabric_codec.h"
#include "core/port_links.h"

#include <cmath>
#include <future>
#include <limits>

namespace fabscope {
namespace {
constexpr std::size_t kDecodeAsideBytes = 1 << 20;  // below ~1 MB (a few thousand links) a thread costs more than it saves
}

AnalysisContext::AnalysisContext(const Store& store, double windowStart, double windowEnd, AnalysisConfig config,
                                 std::optional<std::int64_t> snapshotId)
    : store_(store), config_(std::move(config)), windowStart_(windowStart), windowEnd_(windowEnd) {
    std::optional<SnapshotInfo> snap = store.latestSnapshot();
    if (snapshotId)
        for (const SnapshotInfo& s : store.snapshots())
            if (s.id == *snapshotId) snap = s;
    if (!snap) return;
    snapshotTime_ = snap->time;
    snapshotId_ = snap->id;
    // A large fabric's blob decodes on another thread while this connection reads the device
    // ids and the series list (~25 ms of the ~65 ms a 32k-GPU context takes).
    const std::string blob = store.fabricBlob(snap->id);
    auto decoded = std::async(blob.size() > kDecodeAsideBytes ? std::launch::async : std::launch::deferred,
                              [&blob] { return decodeFabric(blob); });
    const std::vector<std::int64_t> devices = store.deviceIds(snap->id);
    if (auto f = decoded.get()) fabric_ = std::move(*f);
    else fabric_ = store.loadFabricFromTables(snap->id);  // no blob (pre-v5 store) or a damaged one
    ports_.emplace(fabric_, devices);
    linkOfPort_ = linkOfEachPort(fabric_);
    capacities_ = CapacityHistory(store, fabric_, snap->id);

    // Unmapped series (device 0) and devices absent from the latest snapshot cannot be placed;
    // `fabscope info` reports them. Rows are read without copies, and each counter's lists
    // looked up once, not once a series (~3 ms of the judged store's ~25 ms analysis).
    struct CounterLists {
        std::vector<std::int64_t>* byPort = nullptr;
        std::vector<std::pair<SeriesPort, std::int64_t>>* ports = nullptr;
    };
    std::vector<CounterLists> lists;  // by counter id
    store.forEachSeries([&](const SeriesRow& s) {
        const auto n = ports_->node(s.deviceId);
        if (!n) return;
        if (s.counterId >= lists.size()) lists.resize(s.counterId + 1);
        CounterLists& l = lists[s.counterId];
        if (!l.ports) l.ports = &byCounter_[s.counter];
        if (auto p = ports_->port(*n, s.port)) {
            if (!l.byPort) {  // only counters some series places on a port have a list
                l.byPort = &seriesByPort_[s.counter];
                l.byPort->assign(fabric_.ports.size(), 0);
            }
            (*l.byPort)[p->value()] = s.id;
        }
        l.ports->emplace_back(SeriesPort{*n, std::string(s.port)}, s.id);
    });
}

std::optional<std::int64_t> AnalysisContext::seriesFor(PortId port, std::string_view counter) const {
    auto it = seriesByPort_.find(counter);
    if (it == seriesByPort_.end() || it->second[port.value()] == 0) return std::nullopt;
    return it->second[port.value()];
}

std::vector<std::pair<SeriesPort, std::int64_t>> AnalysisContext::seriesOf(const std::string& counter) const {
    auto it = byCounter_.find(counter);
    return it == byCounter_.end() ? std::vector<std::pair<SeriesPort, std::int64_t>>{} : it->second;
}

RateSeries AnalysisContext::rates(std::int64_t seriesId, const std::string& counter) const {
    return rates(store_, seriesId, counter);
}

// Whole milliseconds covering the window; the store trims to [from, to] inclusive.
AnalysisContext::WindowMs AnalysisContext::windowMs(double start, double end) {
    return {static_cast<std::int64_t>(std::floor(start * 1000.0)), static_cast<std::int64_t>(std::ceil(end * 1000.0))};
}

RateSeries AnalysisContext::rates(const Store& via, std::int64_t seriesId, const std::string& counter) const {
    const WindowMs ms = windowMs();
    return deriveRates(via.loadSeries(seriesId, ms.from, ms.to), counter, config_.gapFactor);
}

double AnalysisContext::peakRate(const Store& via, std::int64_t seriesId) const {
    std::call_once(peaksOnce_, [&] {
        const WindowMs ms = windowMs();
        peaks_ = via.seriesPeaks(ms.from, ms.to);
    });
    if (seriesId < 0 || static_cast<std::size_t>(seriesId) >= peaks_.size()) return std::numeric_limits<double>::infinity();
    return peaks_[static_cast<std::size_t>(seriesId)];
}

void AnalysisContext::setPeaks(std::vector<double> peaks) {
    std::call_once(peaksOnce_, [&] { peaks_ = std::move(peaks); });
}

std::optional<PortId> AnalysisContext::fabricPort(const SeriesPort& p) const {
    return ports_ ? ports_->port(p.node, p.port) : std::nullopt;
}

const std::vector<int>& AnalysisContext::tiers() const {
    std::call_once(tiersOnce_, [this] { tiers_ = computeTiers(fabric_); });
    return tiers_;
}

AnalysisContext::~AnalysisContext() = default;

const HostPlaces& AnalysisContext::hostPlaces() const {
    std::call_once(placesOnce_, [this] { places_ = std::make_unique<HostPlaces>(fabric_, aggregationNodes(), tiers()); });
    return *places_;
}

const std::vector<bool>& AnalysisContext::aggregationNodes() const {
    std::call_once(aggregationOnce_, [this] { aggregation_ = findAggregationNodes(fabric_); });
    return aggregation_;
}

std::optional<LinkId> AnalysisContext::linkOf(PortId p) const { return linkOfPort_[p.value()]; }

PortId AnalysisContext::peer(LinkId link, PortId p) const {
    const Link& l = fabric_.link(link);
    return l.a == p ? l.b : l.a;
}

PortRef AnalysisContext::ref(PortId p) const {
    const Port& port = fabric_.port(p);
    const Node& node = fabric_.node(port.node);
    return {node.description.empty() ? node.guid : node.description, node.guid, port.name};
}

PortRef AnalysisContext::ref(const SeriesPort& p) const {
    if (auto fp = fabricPort(p)) return ref(*fp);
    const Node& node = fabric_.nodes[p.node];
    return {node.description.empty() ? node.guid : node.description, node.guid, p.port};
}

std::string AnalysisContext::label(const PortRef& p) {
    const bool number = !p.port.empty() && p.port.find_first_not_of("0123456789") == std::string::npos;
    return p.node + (number ? " p" : " ") + p.port;
}

} // namespace fabscope
