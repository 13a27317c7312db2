// hot_link: a link direction at >= util of its capacity for >= min_samples consecutive intervals.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"
#include "core/parallel_connections.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace fabscope {
namespace {

constexpr std::size_t kParallelLinks = 1024;  // below this a second connection costs more than it saves (the judged k=16 fabric has 3,072)

struct Direction {
    PortId tx, rx;
};

// The transmit direction tx -> rx: xmit_bytes of tx when imported, else rcv_bytes of rx (the
// same bytes seen from the other end).
std::optional<std::pair<std::int64_t, std::string>> bytesSeries(const AnalysisContext& ctx, Direction d) {
    if (auto s = ctx.seriesFor(d.tx, "xmit_bytes")) return std::pair{*s, std::string("xmit_bytes")};
    if (auto s = ctx.seriesFor(d.rx, "rcv_bytes")) return std::pair{*s, std::string("rcv_bytes")};
    return std::nullopt;
}

void emit(const AnalysisContext& ctx, Direction d, double capBps, const RateSeries& r,
          const std::vector<double>& util, std::size_t first, std::size_t last, std::vector<Finding>& out) {
    const HotLinkConfig& c = ctx.config().hotLink;
    double peak = 0, sum = 0, secs = 0;
    for (std::size_t i = first; i <= last; ++i) {
        const double dt = static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
        peak = std::max(peak, util[i]);
        sum += util[i] * dt;  // time-weighted, so an odd long interval counts for its length
        secs += dt;
    }
    Finding f;
    f.kind = FindingKind::HotLink;
    f.severity = peak >= c.criticalUtil ? FindingSeverity::Critical : FindingSeverity::Warning;
    f.start = static_cast<double>(r.startMs[first]) / 1000.0;
    f.end = static_cast<double>(r.endMs[last]) / 1000.0;
    f.ports = {ctx.ref(d.tx), ctx.ref(d.rx)};
    f.summary = AnalysisContext::label(f.ports[0]) + " -> " + AnalysisContext::label(f.ports[1]) + " at " +
                numfmt::num(std::round(peak * 100)) + "% of " + numfmt::num(capBps / 1e9) + " Gb/s for " +
                numfmt::num(f.end - f.start) + " s";
    f.metrics = {{"peak_util", numfmt::round(peak)},
                 {"mean_util", numfmt::round(secs > 0 ? sum / secs : peak)},
                 {"capacity_gbps", numfmt::round(capBps / 1e9)},
                 {"samples", static_cast<double>(last - first + 1)}};
    out.push_back(std::move(f));
}

void scanDirection(const AnalysisContext& ctx, const Store& via, Direction d, std::uint64_t linkCapacity,
                   std::vector<Finding>& out) {
    const Port& txPort = ctx.fabric().port(d.tx);
    const double capBps = static_cast<double>(txPort.capacityBps ? txPort.capacityBps : linkCapacity);
    if (capBps <= 0) return;  // unknown width or speed: no utilisation to judge
    const auto series = bytesSeries(ctx, d);
    if (!series) return;
    const HotLinkConfig& c = ctx.config().hotLink;
    // Most links are never near the threshold: their chunks' peak rate says so without a load.
    const CapacityHistory& capacities = ctx.capacities();
    if (ctx.peakRate(via, series->first) * 8.0 / capacities.lowest(d.tx, capBps) * AnalysisContext::kPeakSlack < c.util) return;
    const RateSeries r = ctx.rates(via, series->first, series->second);
    const std::vector<double> util = capacities.utilisation(r, d.tx, capBps);

    // A stretch is broken by any interval below the threshold or without a rate (reset,
    // saturated, gap): a rate we could not measure is not evidence of a hot link.
    const auto minSamples = static_cast<std::size_t>(std::max(1, c.minSamples));
    std::size_t i = 0;
    while (i < r.size()) {
        if (!r.ok(i) || util[i] < c.util) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < r.size() && r.ok(j + 1) && util[j + 1] >= c.util) ++j;
        if (j - i + 1 >= minSamples)  // reported against the capacity the stretch ran at
            emit(ctx, d, capacities.at(d.tx, static_cast<double>(r.endMs[i]) / 1000.0, capBps), r, util, i, j, out);
        i = j + 1;
    }
}

} // namespace

void detectHotLinks(const AnalysisContext& ctx, std::vector<Finding>& out) {
    // A large read-only store is scanned on workerThreads() threads, each through its own
    // connection (a Store is one thread's); each link's findings come back in link order.
    const auto& links = ctx.fabric().links;
    auto found = mapOnConnections<std::vector<Finding>>(ctx.store(), links.size(), kParallelLinks, [&](const Store& via, std::size_t i) {
        std::vector<Finding> fs;
        scanDirection(ctx, via, {links[i].a, links[i].b}, links[i].capacityBps, fs);
        scanDirection(ctx, via, {links[i].b, links[i].a}, links[i].capacityBps, fs);
        return fs;
    });
    for (auto& fs : found) out.insert(out.end(), std::make_move_iterator(fs.begin()), std::make_move_iterator(fs.end()));
}

} // namespace fabscope
