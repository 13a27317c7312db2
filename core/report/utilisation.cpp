#include "core/report/utilisation.h"

#include "core/report/fabric_summary.h"
#include "core/report/util_histogram.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace fabscope {
namespace {

struct Direction {
    PortId tx, rx;
    double capBps = 0;
    std::int64_t series = 0;
    std::string counter;
    std::pair<int, int> group;
    UtilStats stats;
};

// Bytes sent tx -> rx: tx's xmit_bytes, else rx's rcv_bytes (as the hot_link detector reads them).
std::optional<std::pair<std::int64_t, std::string>> bytesSeries(const AnalysisContext& ctx, PortId tx, PortId rx) {
    if (auto s = ctx.seriesFor(tx, "xmit_bytes")) return std::pair{*s, std::string("xmit_bytes")};
    if (auto s = ctx.seriesFor(rx, "rcv_bytes")) return std::pair{*s, std::string("rcv_bytes")};
    return std::nullopt;
}

std::string groupLabel(int from, int to) {
    const char* dir = to > from ? " (up)" : to < from ? " (down)" : " (same tier)";
    return tierRole(from) + " \u2192 " + tierRole(to) + dir;
}

// Exact time-weighted percentiles of one direction (a few hundred samples).
UtilStats exactStats(std::vector<std::pair<double, double>> samples, double threshold) {
    UtilStats s;
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    double total = 0, sum = 0;
    for (const auto& [u, w] : samples) {
        total += w;
        sum += u * w;
        if (u >= threshold) s.secondsAbove += w;
    }
    s.secondsMeasured = total;
    s.mean = total > 0 ? sum / total : 0;
    s.max = samples.back().first;
    auto percentile = [&](double p) {
        double acc = 0;
        for (const auto& [u, w] : samples) {
            acc += w;
            if (acc >= p * total - 1e-9) return u;
        }
        return samples.back().first;
    };
    s.p50 = percentile(0.50);
    s.p95 = percentile(0.95);
    s.p99 = percentile(0.99);
    return s;
}

struct TimeBucket {
    double sum = 0, max = 0;
    std::size_t n = 0;
};

} // namespace

UtilisationReport measureUtilisation(const AnalysisContext& ctx, const std::vector<int>& tiers, std::size_t topN,
                                     std::size_t charted) {
    UtilisationReport out;
    out.threshold = ctx.config().hotLink.util;
    const Fabric& f = ctx.fabric();

    std::map<std::pair<int, int>, UtilHistogram> hist;
    std::map<std::pair<int, int>, std::map<std::int64_t, TimeBucket>> overTime;
    std::map<std::pair<int, int>, TierDirection> groups;
    std::vector<Direction> measured;

    for (const Link& l : f.links) {
        for (const auto& [tx, rx] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
            const std::pair<int, int> g{tiers[f.port(tx).node.value()], tiers[f.port(rx).node.value()]};
            TierDirection& td = groups[g];
            td.fromTier = g.first;
            td.toTier = g.second;
            const double cap = static_cast<double>(f.port(tx).capacityBps ? f.port(tx).capacityBps : l.capacityBps);
            const auto series = bytesSeries(ctx, tx, rx);
            if (!series || cap <= 0) {
                ++td.unmeasured;
                continue;
            }
            const RateSeries r = ctx.rates(series->first, series->second);
            const std::vector<double> util = ctx.capacities().utilisation(r, tx, cap);  // of the speed then
            std::vector<std::pair<double, double>> samples;
            for (std::size_t i = 0; i < r.size(); ++i) {
                if (!r.ok(i)) continue;
                const double u = util[i];
                const double dt = static_cast<double>(r.endMs[i] - r.startMs[i]) / 1000.0;
                samples.emplace_back(u, dt);
                hist[g].add(u, dt, out.threshold);
                TimeBucket& b = overTime[g][r.endMs[i]];
                b.sum += u;
                b.max = std::max(b.max, u);
                ++b.n;
            }
            if (samples.empty()) {
                ++td.unmeasured;
                continue;
            }
            ++td.directions;
            measured.push_back({tx, rx, cap, series->first, series->second, g, exactStats(std::move(samples), out.threshold)});
        }
    }

    for (auto& [g, td] : groups) {
        td.label = groupLabel(g.first, g.second);
        td.stats = hist[g].stats();
        for (const auto& [ms, b] : overTime[g]) {
            td.t.push_back(static_cast<double>(ms) / 1000.0);
            td.mean.push_back(b.sum / static_cast<double>(b.n));
            td.max.push_back(b.max);
        }
        out.groups.push_back(std::move(td));
    }

    // Sustained load matters to a capacity review more than one spike: rank by p95, then max.
    const std::size_t n = std::min(topN, measured.size());
    std::partial_sort(measured.begin(), measured.begin() + static_cast<std::ptrdiff_t>(n), measured.end(),
                      [](const Direction& a, const Direction& b) {
                          return std::tie(a.stats.p95, a.stats.max) > std::tie(b.stats.p95, b.stats.max);
                      });
    for (std::size_t i = 0; i < n; ++i) {
        const Direction& d = measured[i];
        LinkDirectionUtil u;
        u.tx = ctx.ref(d.tx);
        u.rx = ctx.ref(d.rx);
        u.group = groupLabel(d.group.first, d.group.second);
        u.capacityGbps = d.capBps / 1e9;
        u.stats = d.stats;
        if (i < charted) {
            const RateSeries r = ctx.rates(d.series, d.counter);
            const std::vector<double> util = ctx.capacities().utilisation(r, d.tx, d.capBps);
            for (std::size_t k = 0; k < r.size(); ++k) {
                u.t.push_back(static_cast<double>(r.endMs[k]) / 1000.0);
                u.u.push_back(r.ok(k) ? util[k] : std::nan(""));  // NaN: a gap in the chart
            }
        }
        out.top.push_back(std::move(u));
    }
    return out;
}

} // namespace fabscope
