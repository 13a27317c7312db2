#include "core/timeseries/link_series.h"

#include "core/analysis/capacity_history.h"
#include "core/analysis/rates.h"
#include "core/analysis/time_shares.h"
#include "core/series_ports.h"
#include "core/store/store.h"
#include "core/parallel_connections.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <iterator>
#include <string>
#include <unordered_map>

namespace fabscope {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr std::string_view kErrorCounters[] = {"symbol_errors", "link_error_recovery", "rcv_errors",
                                                "xmit_discards", "fec_uncorrectable", "link_downed"};

constexpr std::string_view kNotificationCounters[] = {"ecn_marked", "cnp_sent", "cnp_handled"};

// Writes value(i) of every valid interval i into the bins whose centre it covers; `combine`
// merges with what is there (NaN = nothing yet).
template <typename Value, typename Combine>
void fillValues(const RateSeries& r, double start, double step, std::size_t bins, float* row, Value value, Combine combine) {
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (!r.ok(i)) continue;
        const double s = static_cast<double>(r.startMs[i]) / 1000.0, e = static_cast<double>(r.endMs[i]) / 1000.0;
        const auto b0 = static_cast<std::int64_t>(std::floor((s - start) / step + 0.5));
        auto b1 = static_cast<std::int64_t>(std::floor((e - start) / step + 0.5));
        if (b1 <= b0) b1 = b0 + 1;
        const auto v = static_cast<float>(value(i));
        for (std::int64_t b = std::max<std::int64_t>(b0, 0); b < std::min<std::int64_t>(b1, static_cast<std::int64_t>(bins)); ++b) {
            float& cell = row[b];
            cell = std::isnan(cell) ? v : combine(cell, v);
        }
    }
}

// The rate (per second) x `scale`.
template <typename Combine>
void fill(const RateSeries& r, double scale, double start, double step, std::size_t bins, float* row, Combine combine) {
    fillValues(r, start, step, bins, row, [&](std::size_t i) { return r.perSecond[i] * scale; }, combine);
}

// The share of each interval a counter of seconds covers, in % (time_shares.h).
template <typename Combine>
void fillShare(const RateSeries& r, double secondsPerUnit, double start, double step, std::size_t bins, float* row, Combine combine) {
    fillValues(r, start, step, bins, row, [&](std::size_t i) {
        const double dt = static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
        return 100.0 * shareOfInterval(r.delta[i] * secondsPerUnit, dt);
    }, combine);
}

} // namespace

std::string_view metricName(LinkMetric m) {
    switch (m) {
    case LinkMetric::UtilMax: return "Utilisation (max of both directions)";
    case LinkMetric::UtilUp: return "Utilisation up (towards the spine)";
    case LinkMetric::UtilDown: return "Utilisation down (towards the hosts)";
    case LinkMetric::XmitWait: return "XmitWait share (time waiting to send)";
    case LinkMetric::Errors: return "Errors";
    case LinkMetric::ThroughputMax: return "Throughput (max of both directions)";
    case LinkMetric::ThroughputUp: return "Throughput up (towards the spine)";
    case LinkMetric::ThroughputDown: return "Throughput down (towards the hosts)";
    case LinkMetric::PfcPauseMax: return "PFC pause share (max of both directions)";
    case LinkMetric::PfcPauseUp: return "PFC pause share up (sender towards the spine paused)";
    case LinkMetric::PfcPauseDown: return "PFC pause share down (sender towards the hosts paused)";
    case LinkMetric::EcnCnp: return "ECN marks / CNPs (busiest counter of both ends)";
    }
    return "";
}

std::string_view metricUnit(LinkMetric m) {
    switch (m) {
    case LinkMetric::UtilMax:
    case LinkMetric::UtilUp:
    case LinkMetric::UtilDown: return "%";
    case LinkMetric::XmitWait:
    case LinkMetric::PfcPauseMax:
    case LinkMetric::PfcPauseUp:
    case LinkMetric::PfcPauseDown: return "% of time";
    case LinkMetric::Errors: return "errors/s";
    case LinkMetric::EcnCnp: return "packets/s";
    case LinkMetric::ThroughputMax:
    case LinkMetric::ThroughputUp:
    case LinkMetric::ThroughputDown: return "Gb/s";
    }
    return "";
}

int LinkTimeSeries::binAt(double t) const {
    if (bins == 0 || step <= 0) return -1;
    const double b = std::floor((t - start) / step);
    return static_cast<int>(std::clamp(b, 0.0, static_cast<double>(bins - 1)));
}

const std::vector<float>* LinkTimeSeries::stored(LinkMetric m) const {
    const std::vector<float>* v = nullptr;
    switch (m) {
    case LinkMetric::UtilUp: v = &utilUp; break;
    case LinkMetric::UtilDown: v = &utilDown; break;
    case LinkMetric::XmitWait: v = &xmitWait; break;
    case LinkMetric::Errors: v = &errors; break;
    case LinkMetric::PfcPauseUp: v = &pfcUp; break;
    case LinkMetric::PfcPauseDown: v = &pfcDown; break;
    case LinkMetric::EcnCnp: v = &ecnCnp; break;
    case LinkMetric::PfcPauseMax:
    case LinkMetric::UtilMax:
    case LinkMetric::ThroughputMax:
    case LinkMetric::ThroughputUp:
    case LinkMetric::ThroughputDown: return nullptr;
    }
    return v && v->size() == links * bins && !v->empty() ? v : nullptr;
}

namespace {

float maxOfDefined(float u, float d) {
    if (std::isnan(u)) return d;
    if (std::isnan(d)) return u;
    return std::max(u, d);
}

} // namespace

float LinkTimeSeries::capacityGbpsAt(std::size_t link, int direction, double t) const {
    const std::vector<float>& fixed = direction == 0 ? capacityUpGbps : capacityDownGbps;
    float c = link < fixed.size() ? fixed[link] : 0.0f;
    if (speedChanges.empty()) return c;
    if (const auto it = speedChanges.find(link); it != speedChanges.end()) {
        const auto& spans = it->second[static_cast<std::size_t>(direction)];
        for (const CapacitySpan& s : spans)
            if (&s == &spans.front() || s.from <= t) c = static_cast<float>(s.bps / 1e9);
    }
    return c;
}

float LinkTimeSeries::value(LinkMetric m, std::size_t link, std::size_t bin) const {
    const std::size_t i = link * bins + bin;
    auto gbps = [&](const std::vector<float>& util, const std::vector<float>& cap, const std::vector<float>& raw, int dir) {
        const float c = link < cap.size() && cap[link] > 0 ? capacityGbpsAt(link, dir, binStart(bin)) : 0.0f;
        if (c > 0) return util[i] * c / 100.0f;
        return raw.empty() ? kNaN : raw[i];
    };
    switch (m) {
    case LinkMetric::UtilMax: return maxOfDefined(utilUp[i], utilDown[i]);
    case LinkMetric::ThroughputUp: return gbps(utilUp, capacityUpGbps, gbpsUp, 0);
    case LinkMetric::ThroughputDown: return gbps(utilDown, capacityDownGbps, gbpsDown, 1);
    case LinkMetric::ThroughputMax:
        return maxOfDefined(gbps(utilUp, capacityUpGbps, gbpsUp, 0), gbps(utilDown, capacityDownGbps, gbpsDown, 1));
    case LinkMetric::PfcPauseMax:
        return pfcUp.empty() ? kNaN : maxOfDefined(pfcUp[i], pfcDown[i]);
    default: {
        const auto* v = stored(m);
        return v ? (*v)[i] : kNaN;
    }
    }
}

std::vector<float> LinkTimeSeries::row(LinkMetric m, std::size_t link) const {
    std::vector<float> out(bins);
    for (std::size_t b = 0; b < bins; ++b) out[b] = value(m, link, b);
    return out;
}

float LinkTimeSeries::peak(LinkMetric m, std::size_t link) const {
    float best = kNaN;
    for (std::size_t b = 0; b < bins; ++b) {
        const float v = value(m, link, b);
        if (!std::isnan(v) && (std::isnan(best) || v > best)) best = v;
    }
    return best;
}

namespace {

// Series ids of the counters the views draw, by fabric port (0: none): a lookup per port and
// counter must be an index, not a search of a 553k-entry map.
// PFC and ECN/CNP counters are on few ports (RoCE): kept by port in maps, not in dense columns.
struct PortSeries {
    std::vector<std::int64_t> xmitBytes, rcvBytes, xmitWait;
    std::vector<std::vector<std::int64_t>> errors;  // same order as kErrorCounters
    struct Pauses {
        std::vector<std::pair<std::int64_t, int>> byKind[2][2];  // [tx][frames] -> (series, priority)
        [[nodiscard]] bool any(bool tx) const { return !byKind[tx][0].empty() || !byKind[tx][1].empty(); }
    };
    std::unordered_map<std::uint32_t, Pauses> pauses;
    std::unordered_map<std::uint32_t, std::vector<std::pair<std::int64_t, std::string_view>>> notifications;

    PortSeries(const Store& store, std::int64_t snapshotId, const Fabric& fabric) {
        const std::size_t n = fabric.ports.size();
        xmitBytes.assign(n, 0);
        rcvBytes.assign(n, 0);
        xmitWait.assign(n, 0);
        errors.assign(std::size(kErrorCounters), std::vector<std::int64_t>(n, 0));
        const SeriesPortIndex ports(fabric, store.deviceIds(snapshotId));
        for (const SeriesInfo& s : store.series()) {
            std::vector<std::int64_t>* column = s.counter == "xmit_bytes" ? &xmitBytes
                                              : s.counter == "rcv_bytes"  ? &rcvBytes
                                              : s.counter == "xmit_wait"  ? &xmitWait
                                                                          : nullptr;
            for (std::size_t c = 0; !column && c < std::size(kErrorCounters); ++c)
                if (s.counter == kErrorCounters[c]) column = &errors[c];
            if (column) {
                if (const auto p = ports.port(s)) (*column)[p->value()] = s.id;
                continue;
            }
            if (s.counter.starts_with("pfc_")) {
                for (int tx = 0; tx < 2; ++tx)
                    for (int frames = 0; frames < 2; ++frames)
                        for (int prio = 0; prio < 8; ++prio)
                            if (s.counter == pfcPauseCounter(tx != 0, frames != 0, prio))
                                if (const auto p = ports.port(s)) pauses[p->value()].byKind[tx][frames].emplace_back(s.id, prio);
                continue;
            }
            for (std::string_view c : kNotificationCounters)
                if (s.counter == c)
                    if (const auto p = ports.port(s)) notifications[p->value()].emplace_back(s.id, c);
        }
    }
};

// Fills the rows of every `stride`-th block of 64 links from `first` (rows are per link, so two
// threads filling different blocks never touch the same cell).
void fillLinks(const Store& store, const Fabric& fabric, const std::vector<int>& tiers, const PortSeries& series,
               const CapacityHistory& history, const AnalysisConfig& config, std::size_t first, std::size_t stride,
               const std::atomic<bool>* cancel, LinkTimeSeries& out) {
    constexpr std::size_t kBlock = 64;
    const Store::ReadTransaction read(store);
    auto tierOf = [&](PortId p) { return tiers[fabric.port(p).node.value()]; };
    auto maxOf = [](float a, float b) { return std::max(a, b); };
    auto sumOf = [](float a, float b) { return a + b; };
    for (std::size_t b = first * kBlock; b < fabric.links.size(); b += stride * kBlock) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return;
        for (std::size_t li = b; li < std::min(b + kBlock, fabric.links.size()); ++li) {
            const Link& l = fabric.links[li];
            const bool aLower = tierOf(l.a) <= tierOf(l.b);
            out.upIsAtoB[li] = aLower ? 1 : 0;
            const PortId lower = aLower ? l.a : l.b, upper = aLower ? l.b : l.a;
            const std::size_t base = li * out.bins;
            // One direction tx -> rx: xmit_bytes of tx when imported, else rcv_bytes of rx.
            // Without a capacity, the Gb/s go to the raw arrays (allocated when such links exist).
            auto direction = [&](PortId tx, PortId rx, std::vector<float>& util, std::vector<float>& gbps, std::vector<float>& capGbps) {
                const Port& txPort = fabric.port(tx);
                const double cap = static_cast<double>(txPort.capacityBps ? txPort.capacityBps : l.capacityBps);
                capGbps[li] = static_cast<float>(cap / 1e9);
                if (cap <= 0 && gbps.empty()) return;
                std::int64_t id = series.xmitBytes[tx.value()];
                std::string_view counter = "xmit_bytes";
                if (id == 0) {
                    id = series.rcvBytes[rx.value()];
                    counter = "rcv_bytes";
                }
                if (id == 0) return;
                RateSeries rates = deriveRates(store.loadSeries(id), counter);
                if (cap <= 0) {
                    fill(rates, 8.0 / 1e9, out.start, out.step, out.bins, gbps.data() + base, maxOf);
                    return;
                }
                history.rescale(rates, tx, cap);  // of the capacity in force at each time, not of `cap`
                fill(rates, 8.0 * 100.0 / cap, out.start, out.step, out.bins, util.data() + base, maxOf);
            };
            direction(lower, upper, out.utilUp, out.gbpsUp, out.capacityUpGbps);
            direction(upper, lower, out.utilDown, out.gbpsDown, out.capacityDownGbps);
            // The time tx -> rx was held paused, as pfc_pauses.cpp measures it: the pauses rx sent
            // (its tx counters), else the ones tx received (its rx counters); durations before
            // frame counts; per interval the worst priority.
            auto paused = [&](PortId tx, PortId rx, std::vector<float>& share) {
                if (share.empty()) return;
                auto find = [&](PortId p) {
                    const auto it = series.pauses.find(p.value());
                    return it == series.pauses.end() ? nullptr : &it->second;
                };
                const auto* counts = find(rx);
                PortId counting = rx;
                bool txCounters = true;
                if (!counts || !counts->any(true)) {
                    counts = find(tx);
                    counting = tx;
                    txCounters = false;
                }
                if (!counts || !counts->any(txCounters)) return;
                const bool frames = counts->byKind[txCounters][0].empty();
                const double bps = static_cast<double>(fabric.port(counting).capacityBps ? fabric.port(counting).capacityBps : l.capacityBps);
                const double perUnit = pauseSecondsPerUnit(frames, bps, config.pfcStorm);
                for (const auto& [id, prio] : counts->byKind[txCounters][frames]) {
                    RateSeries r = deriveRates(store.loadSeries(id), pfcPauseCounter(txCounters, frames, prio), config.gapFactor);
                    if (frames) history.rescale(r, counting, bps);  // as pfc_pauses.cpp: at the speed then
                    fillShare(r, perUnit, out.start, out.step, out.bins, share.data() + base, maxOf);
                }
            };
            paused(lower, upper, out.pfcUp);
            paused(upper, lower, out.pfcDown);
            for (PortId p : {l.a, l.b}) {
                if (const auto id = series.xmitWait[p.value()])  // the congestion_tree finding's share
                    fillShare(deriveRates(store.loadSeries(id), "xmit_wait", config.gapFactor),
                              xmitWaitSeconds(1.0, config.congestionTree), out.start, out.step, out.bins, out.xmitWait.data() + base, maxOf);
                for (std::size_t c = 0; c < std::size(kErrorCounters); ++c)
                    if (const auto id = series.errors[c][p.value()])
                        fill(deriveRates(store.loadSeries(id), kErrorCounters[c]), 1.0, out.start, out.step, out.bins,
                             out.errors.data() + base, sumOf);
                if (out.ecnCnp.empty()) continue;
                if (const auto it = series.notifications.find(p.value()); it != series.notifications.end())
                    for (const auto& [id, counter] : it->second)
                        fill(deriveRates(store.loadSeries(id), counter, config.gapFactor), 1.0, out.start, out.step, out.bins,
                             out.ecnCnp.data() + base, maxOf);
            }
        }
    }
}

} // namespace

LinkTimeSeries loadLinkTimeSeries(const Store& store, std::int64_t snapshotId, const Fabric& fabric,
                                  const std::vector<int>& tiers, const std::atomic<bool>* cancel, const AnalysisConfig& config) {
    LinkTimeSeries out;
    const StoreInfo info = store.info();
    if (!info.timeStart || !info.timeEnd || fabric.links.empty()) return out;
    const PortSeries series(store, snapshotId, fabric);

    // The grid: the median sampling interval of the first byte counter found, over the span; a
    // store without byte counters (PFC pauses only, say) takes it from the other counters drawn.
    out.start = *info.timeStart;
    double step = 0;
    auto stepOf = [&](std::int64_t id) {
        const SeriesData d = store.loadSeries(id);
        std::vector<std::int64_t> gaps;
        for (std::size_t i = 1; i < d.timesMs.size(); ++i) gaps.push_back(d.timesMs[i] - d.timesMs[i - 1]);
        if (gaps.empty()) return 0.0;
        std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
        return static_cast<double>(gaps[gaps.size() / 2]) / 1000.0;
    };
    std::vector<const std::vector<std::int64_t>*> columns{&series.xmitBytes, &series.rcvBytes, &series.xmitWait};
    for (const auto& column : series.errors) columns.push_back(&column);
    for (const auto* column : columns) {
        const auto found = std::find_if(column->begin(), column->end(), [](std::int64_t id) { return id != 0; });
        if (found != column->end() && (step = stepOf(*found)) > 0) break;
    }
    for (const auto& [port, pauses] : series.pauses)
        for (const auto& kinds : pauses.byKind)
            for (const auto& kind : kinds)
                for (const auto& [id, prio] : kind)
                    if (step <= 0) step = stepOf(id);
    for (const auto& [port, counters] : series.notifications)
        for (const auto& [id, name] : counters)
            if (step <= 0) step = stepOf(id);
    if (step <= 0) return out;
    out.step = step;
    out.bins = static_cast<std::size_t>(std::max(1.0, std::round((*info.timeEnd - *info.timeStart) / step)));
    out.links = fabric.links.size();
    const std::size_t cells = out.bins * out.links;
    out.utilUp.assign(cells, kNaN);
    out.utilDown.assign(cells, kNaN);
    out.xmitWait.assign(cells, kNaN);
    out.errors.assign(cells, kNaN);
    out.upIsAtoB.assign(out.links, 1);
    out.capacityUpGbps.assign(out.links, 0.0f);
    out.capacityDownGbps.assign(out.links, 0.0f);
    // RoCE captures often carry no port speed: those links get Gb/s arrays of their own. Which
    // metrics any link has counters for (the others are "no data" and their choices disabled).
    auto mark = [&](std::initializer_list<LinkMetric> ms) {
        for (LinkMetric m : ms) out.present[static_cast<std::size_t>(m)] = true;
    };
    for (const Link& l : fabric.links) {
        const std::uint32_t a = l.a.value(), b = l.b.value();
        const bool counted = series.xmitBytes[a] || series.xmitBytes[b] || series.rcvBytes[a] || series.rcvBytes[b];
        const bool known = l.capacityBps > 0 || (fabric.port(l.a).capacityBps > 0 && fabric.port(l.b).capacityBps > 0);
        if (counted) mark({LinkMetric::ThroughputMax, LinkMetric::ThroughputUp, LinkMetric::ThroughputDown});
        if (counted && known) mark({LinkMetric::UtilMax, LinkMetric::UtilUp, LinkMetric::UtilDown});
        if (counted && !known) ++out.withoutCapacity;
        if (series.xmitWait[a] || series.xmitWait[b]) mark({LinkMetric::XmitWait});
        for (const auto& column : series.errors)
            if (column[a] || column[b]) mark({LinkMetric::Errors});
        if (series.pauses.count(a) || series.pauses.count(b)) mark({LinkMetric::PfcPauseMax, LinkMetric::PfcPauseUp, LinkMetric::PfcPauseDown});
        if (series.notifications.count(a) || series.notifications.count(b)) mark({LinkMetric::EcnCnp});
    }
    const CapacityHistory history(store, fabric, snapshotId);
    if (!history.empty())
        for (std::size_t li = 0; li < fabric.links.size(); ++li) {
            const Link& l = fabric.links[li];
            if (!history.varies(l.a) && !history.varies(l.b)) continue;
            const bool aLower = tiers[fabric.port(l.a).node.value()] <= tiers[fabric.port(l.b).node.value()];  // as fillLinks
            const auto own = [&](PortId p) { return static_cast<double>(fabric.port(p).capacityBps ? fabric.port(p).capacityBps : l.capacityBps); };
            const PortId up = aLower ? l.a : l.b, down = aLower ? l.b : l.a;
            out.speedChanges[li] = {history.spans(up, own(up)), history.spans(down, own(down))};
        }
    if (out.withoutCapacity > 0) {
        out.gbpsUp.assign(cells, kNaN);
        out.gbpsDown.assign(cells, kNaN);
    }
    if (out.has(LinkMetric::PfcPauseMax)) {
        out.pfcUp.assign(cells, kNaN);
        out.pfcDown.assign(cells, kNaN);
    }
    if (out.has(LinkMetric::EcnCnp)) out.ecnCnp.assign(cells, kNaN);

    // A large read-only store loads on workerThreads() threads, each through its own connection.
    constexpr std::size_t kParallelLinks = 4096;
    if (fabric.links.size() < kParallelLinks || !store.splitsWork()) {
        fillLinks(store, fabric, tiers, series, history, config, 0, 1, cancel, out);
        return out;
    }
    onConnections(store, [&](const Store& via, std::size_t first, std::size_t stride) {
        fillLinks(via, fabric, tiers, series, history, config, first, stride, cancel, out);
    });
    return out;
}

} // namespace fabscope
