#include "core/analysis/capacity_history.h"

#include "core/port_links.h"
#include "core/store/store.h"

#include <algorithm>
#include <map>
#include <string>

namespace fabscope {
namespace {

// A port's identity across snapshots: its node's GUID when known (InfiniBand), else its node's
// name (Ethernet), and the port's name.
std::pair<std::string, std::string> portKey(const Fabric& f, PortId p) {
    const Node& n = f.node(f.port(p).node);
    return {n.guid.empty() ? n.description : n.guid, f.port(p).name};
}

} // namespace

double sendingCapacityBps(const Fabric& fabric, PortId tx, const std::vector<std::optional<LinkId>>& linkOf) {
    if (const auto own = fabric.port(tx).capacityBps) return static_cast<double>(own);
    if (const auto l = linkOf[tx.value()]) return static_cast<double>(fabric.link(*l).capacityBps);
    return 0;
}

CapacityHistory::CapacityHistory(const Store& store, const Fabric& shown, std::int64_t shownId) {
    const std::vector<SnapshotInfo> snaps = store.snapshots();
    if (snaps.size() < 2) return;
    const auto shownLinks = linkOfEachPort(shown);
    std::map<std::pair<std::string, std::string>, std::uint32_t> shownPorts;
    for (std::size_t i = 0; i < shown.ports.size(); ++i) shownPorts.emplace(portKey(shown, PortId(i)), static_cast<std::uint32_t>(i));
    std::unordered_map<std::uint32_t, std::vector<double>> steps;
    for (std::size_t s = 0; s < snaps.size(); ++s) {
        times_.push_back(snaps[s].time);
        if (snaps[s].id == shownId) continue;  // its capacities are the ones shown
        const Fabric other = store.loadFabric(snaps[s].id);
        const auto otherLinks = linkOfEachPort(other);
        for (std::size_t i = 0; i < other.ports.size(); ++i) {
            const auto it = shownPorts.find(portKey(other, PortId(i)));
            if (it == shownPorts.end()) continue;
            const double then = sendingCapacityBps(other, PortId(i), otherLinks);
            if (then <= 0 || then == sendingCapacityBps(shown, PortId(it->second), shownLinks)) continue;
            auto& row = steps[it->second];
            if (row.empty()) row.assign(snaps.size(), 0);
            row[s] = then;
        }
    }
    steps_ = std::move(steps);
}

double CapacityHistory::at(PortId tx, double t, double shownBps) const {
    const auto it = steps_.find(tx.value());
    if (it == steps_.end()) return shownBps;
    const auto after = std::upper_bound(times_.begin(), times_.end(), t);
    const std::size_t s = after == times_.begin() ? 0 : static_cast<std::size_t>(after - times_.begin()) - 1;
    return it->second[s] > 0 ? it->second[s] : shownBps;
}

double CapacityHistory::lowest(PortId tx, double shownBps) const {
    const auto it = steps_.find(tx.value());
    if (it == steps_.end()) return shownBps;
    double low = shownBps;
    for (const double bps : it->second)
        if (bps > 0) low = std::min(low, bps);
    return low;
}

std::vector<CapacitySpan> CapacityHistory::spans(PortId tx, double shownBps) const {
    std::vector<CapacitySpan> out;
    const auto it = steps_.find(tx.value());
    const std::size_t n = it == steps_.end() ? 1 : times_.size();
    for (std::size_t s = 0; s < n; ++s) {
        const double bps = it == steps_.end() || it->second[s] <= 0 ? shownBps : it->second[s];
        if (out.empty() || out.back().bps != bps) out.push_back({s == 0 ? 0 : times_[s], bps});
    }
    return out;
}

std::vector<double> CapacityHistory::utilisation(const RateSeries& r, PortId tx, double shownBps) const {
    std::vector<double> util(r.size(), 0);
    const bool varying = varies(tx);
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (!r.ok(i)) continue;
        const double bps = varying ? at(tx, static_cast<double>(r.endMs[i]) / 1000.0, shownBps) : shownBps;
        util[i] = r.perSecond[i] * 8.0 / bps;
    }
    return util;
}

void CapacityHistory::rescale(RateSeries& r, PortId tx, double shownBps) const {
    if (!varies(tx) || shownBps <= 0) return;  // an unknown speed has no ratio to take
    for (std::size_t i = 0; i < r.size(); ++i)
        if (r.ok(i)) {
            const double scale = shownBps / at(tx, static_cast<double>(r.endMs[i]) / 1000.0, shownBps);
            r.perSecond[i] *= scale;
            r.delta[i] *= scale;
        }
}

} // namespace fabscope
