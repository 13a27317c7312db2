// degraded_link: a link running narrower or slower than most links of its class, or than the
// width/speed the user expects. Judged on the latest topology snapshot, not on counters; the
// finding spans the analysis window and names the snapshot's time in its text and metrics.
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"
#include "core/linkrate.h"
#include "core/tiers.h"

#include <algorithm>
#include <map>

namespace fabscope {
namespace {

// Links are compared with their peers: host links together, switch links per pair of tiers
// (leaf-spine apart from spine-core), since each class may legitimately run differently.
// Links to a switch's internal aggregation node are a class of their own, never host links.
// A class is a pair of numbers while links are counted (83k links of a large fabric), named
// when reported. Switch links are (lower tier, upper tier); tiers are >= -1.
using LinkClass = std::pair<int, int>;
constexpr LinkClass kAggregationClass{-2, 0}, kHostClass{-2, 1};

LinkClass linkClass(const Fabric& f, const std::vector<int>& tiers, const std::vector<bool>& aggregation, const Link& l) {
    const auto na = f.port(l.a).node.value(), nb = f.port(l.b).node.value();
    if (aggregation[na] || aggregation[nb]) return kAggregationClass;
    if (f.nodes[na].type != NodeType::Switch || f.nodes[nb].type != NodeType::Switch) return kHostClass;
    return {std::min(tiers[na], tiers[nb]), std::max(tiers[na], tiers[nb])};
}

std::string className(LinkClass cls) {
    if (cls == kAggregationClass) return "aggregation node links";
    if (cls == kHostClass) return "host links";
    return "tier " + std::to_string(cls.first) + "-" + std::to_string(cls.second) + " switch links";
}

// The value held by more than half of the class, if any: "most links" must mean a majority,
// or a fabric split between two generations would flag half of itself.
template <typename T> std::optional<T> majority(const std::map<T, int>& counts) {
    int total = 0;
    for (const auto& [v, n] : counts) total += n;
    for (const auto& [v, n] : counts)
        if (2 * n > total) return v;
    return std::nullopt;
}

struct ClassStats {
    std::map<int, int> widths;
    std::map<double, int> laneRates;
    std::map<double, std::string> speedName;  // lane rate -> a speed name that has it
};

} // namespace

void detectDegradedLinks(const AnalysisContext& ctx, std::vector<Finding>& out) {
    const Fabric& f = ctx.fabric();
    const DegradedLinkConfig& cfg = ctx.config().degradedLink;
    const std::vector<int>& tiers = ctx.tiers();
    const std::vector<bool>& aggregation = ctx.aggregationNodes();

    // A fabric has a handful of speed names: each is parsed once.
    std::map<std::string, std::optional<double>, std::less<>> laneOfSpeed;
    auto laneOf = [&](const std::string& speed) {
        auto it = laneOfSpeed.find(speed);
        if (it == laneOfSpeed.end()) it = laneOfSpeed.emplace(speed, laneRateGbps(speed)).first;
        return it->second;
    };
    std::vector<LinkClass> classOf(f.links.size());
    std::map<LinkClass, ClassStats> stats;
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const Link& l = f.links[i];
        classOf[i] = linkClass(f, tiers, aggregation, l);
        ClassStats& s = stats[classOf[i]];
        if (l.width) ++s.widths[*l.width];
        if (auto r = laneOf(l.speed)) {
            ++s.laneRates[*r];
            s.speedName.emplace(*r, l.speed);
        }
    }

    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const Link& l = f.links[i];
        const auto lane = laneOf(l.speed);
        if (!l.width || !lane) continue;  // "??" / "???": nothing to compare
        const ClassStats& s = stats[classOf[i]];
        // A configured expectation wins over what the class does (ibdiagnet --lw / --ls).
        const std::optional<int> wantWidth = cfg.expectedWidth ? cfg.expectedWidth : majority(s.widths);
        const std::optional<double> wantLane = cfg.expectedSpeed ? laneRateGbps(*cfg.expectedSpeed) : majority(s.laneRates);
        const bool narrow = wantWidth && *l.width < *wantWidth;
        const bool slow = wantLane && *lane < *wantLane;
        if (!narrow && !slow) continue;

        const int expW = std::max(*l.width, wantWidth.value_or(*l.width));
        const double expLane = std::max(*lane, wantLane.value_or(*lane));
        const std::string expSpeed = cfg.expectedSpeed && slow ? *cfg.expectedSpeed
                                     : slow                    ? s.speedName.at(expLane)
                                                               : l.speed;
        const double actualGbps = *l.width * *lane, expectedGbps = expW * expLane;

        // Switch end first on host links; otherwise the lower tier first (leaf before spine).
        PortId first = l.a, second = l.b;
        const std::string cls = className(classOf[i]);
        const auto na = f.port(l.a).node.value(), nb = f.port(l.b).node.value();
        if ((f.nodes[na].type != NodeType::Switch && f.nodes[nb].type == NodeType::Switch) ||
            (f.nodes[na].type == f.nodes[nb].type && tiers[nb] < tiers[na]))
            std::swap(first, second);

        Finding fd;
        fd.kind = FindingKind::DegradedLink;
        fd.severity = FindingSeverity::Warning;
        // A state of the topology with no time of its own: it holds over the whole window, so the
        // finding spans the window (a click seeks into the counters, the report lists it inside),
        // and the snapshot's capture time, which may lie far outside, is told in its text.
        fd.start = ctx.windowStart();
        fd.end = ctx.windowEnd();
        // Unless other snapshots of the store saw the link faster: then it holds only while the
        // analysed snapshot's speed was in force, and a window outside that has nothing to find.
        std::string since;
        if (ctx.capacities().varies(first)) {
            const auto spans = ctx.capacities().spans(first, actualGbps * 1e9);
            std::size_t k = 0;  // the span the analysed snapshot is in
            while (k + 1 < spans.size() && spans[k + 1].from <= ctx.snapshotTime()) ++k;
            if (k > 0 && spans[k - 1].bps > spans[k].bps) {
                fd.start = std::max(fd.start, spans[k].from);
                since = "since " + numfmt::utc(spans[k].from) + ", " + numfmt::num(spans[k - 1].bps / 1e9) + " Gb/s before; ";
            }
            if (k + 1 < spans.size() && spans[k + 1].bps > spans[k].bps) fd.end = std::min(fd.end, spans[k + 1].from);
            if (fd.start > fd.end || (fd.start == fd.end && ctx.windowEnd() > ctx.windowStart())) continue;  // not degraded in the window
        }
        fd.ports = {ctx.ref(first), ctx.ref(second)};
        const std::string want = widthSpeedLabel(expW, expSpeed) + " (" + numfmt::num(expectedGbps) + " Gb/s)";
        fd.summary = AnalysisContext::label(fd.ports[0]) + " <-> " + AnalysisContext::label(fd.ports[1]) + " runs " +
                     widthSpeedLabel(l.width, l.speed) + " (" + numfmt::num(actualGbps) + " Gb/s)" +
                     (cfg.expectedWidth || cfg.expectedSpeed ? ", expected " + want : ", most " + cls + " run " + want) +
                     ": " + numfmt::num(expectedGbps - actualGbps) + " Gb/s lost (" + since + "seen in the topology captured " +
                     numfmt::utc(ctx.snapshotTime()) + ")";
        fd.metrics = {{"capacity_lost_gbps", numfmt::round(expectedGbps - actualGbps)},
                      {"expected_width", static_cast<double>(expW)},
                      {"actual_width", static_cast<double>(*l.width)},
                      {"expected_speed", expSpeed},
                      {"actual_speed", l.speed},
                      {"expected_gbps", numfmt::round(expectedGbps)},
                      {"actual_gbps", numfmt::round(actualGbps)},
                      {"link_class", cls},
                      {"snapshot_time", ctx.snapshotTime()}};
        out.push_back(std::move(fd));
    }
}

} // namespace fabscope
