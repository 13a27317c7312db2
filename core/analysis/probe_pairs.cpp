#include "core/analysis/probe_pairs.h"

#include "core/analysis/host_places.h"
#include "core/natural_order.h"
#include "core/store/probes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace fabscope {
namespace {

using Key = std::tuple<std::string, std::int64_t, std::string, std::string>;  // tool, size, src, dst

struct Gather {
    std::vector<const ProbeResult*> rows;
    std::map<std::vector<std::string>, int> paths;
};

bool endsWith(const std::string& s, std::string_view tail) { return s.size() >= tail.size() && s.ends_with(tail); }

void summarise(ProbePair& p, const std::vector<const ProbeResult*>& rows) {
    p.first = rows.front()->time;
    p.last = rows.back()->time;
    p.rows = static_cast<std::int64_t>(rows.size());
    if (endsWith(p.tool, "_bw")) {
        for (const ProbeResult* r : rows) {
            const auto bw = r->stat("bw_avg_gbps") ? r->stat("bw_avg_gbps") : r->stat("bw_peak_gbps");
            if (bw && (!p.bwGbps || *bw < *p.bwGbps)) p.bwGbps = bw;  // the worst run counts
        }
        return;
    }
    if (endsWith(p.tool, "_lat")) {  // perftest prints its own percentiles: keep the worst run
        for (const ProbeResult* r : rows) {
            if (!r->latencyUs) continue;
            const auto p99 = r->stat("p99_us") ? r->stat("p99_us") : r->stat("t_max_us");
            if (p.p99 && p99 && *p99 <= *p.p99) continue;
            p.p50 = r->latencyUs;
            p.p99 = p99 ? p99 : r->latencyUs;
            p.p999 = r->stat("p999_us") ? r->stat("p999_us") : p.p99;
            p.stdev = r->stat("t_stdev_us");
        }
        return;
    }
    std::vector<double> rtt;
    for (const ProbeResult* r : rows) {
        p.sent += r->sent;
        p.lost += r->lost;
        if (r->latencyUs) rtt.push_back(*r->latencyUs);
    }
    if (rtt.empty()) return;
    std::sort(rtt.begin(), rtt.end());
    p.p50 = percentile(rtt, 0.5);
    p.p99 = percentile(rtt, 0.99);
    p.p999 = percentile(rtt, 0.999);
    double mean = 0, var = 0;
    for (double v : rtt) mean += v / static_cast<double>(rtt.size());
    for (double v : rtt) var += (v - mean) * (v - mean) / static_cast<double>(rtt.size());
    p.stdev = std::sqrt(var);
}

} // namespace

std::string_view toString(DistanceClass c) {
    switch (c) {
    case DistanceClass::SameLeaf: return "same_leaf";
    case DistanceClass::SamePod: return "same_pod";
    case DistanceClass::AcrossSpines: return "across_spines";
    }
    return "across_spines";
}

std::string_view describe(DistanceClass c) {
    switch (c) {
    case DistanceClass::SameLeaf: return "same leaf";
    case DistanceClass::SamePod: return "same pod";
    case DistanceClass::AcrossSpines: return "across spines";
    }
    return "across spines";
}

std::optional<double> ProbePair::jitter() const {
    if (!p50 || !p99) return std::nullopt;
    return *p99 - *p50;
}

double percentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(at));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - static_cast<double>(lo));
}

namespace {

ProbePairs pairsOf(const std::vector<ProbeResult>& probes, const Store& store, const HostPlaces& places, std::size_t maxRoutes) {
    ProbePairs out;
    const Fabric& fabric = places.fabric();
    if (probes.empty() || fabric.nodes.empty()) return out;
    std::vector<SwitchRoutes> tables;
    if (auto snap = store.latestSnapshot()) tables = store.routes(snap->id);
    const ProbeRouter router(places, tables, maxRoutes);

    std::map<Key, Gather> groups;
    for (const ProbeResult& p : probes) {
        Gather& g = groups[Key{p.tool, p.msgBytes, p.src, p.dst}];
        g.rows.push_back(&p);
        if (!p.path.empty()) ++g.paths[p.path];
    }

    std::set<std::string> unknown;
    for (const auto& [key, g] : groups) {
        const auto& [tool, size, src, dst] = key;
        const auto s = router.hostPort(src), d = router.hostPort(dst);
        if (!s) unknown.insert(src);
        if (!d) unknown.insert(dst);
        if (!s || !d || *s == *d) continue;
        ProbePair p;
        p.tool = tool;
        p.msgBytes = size;
        p.src = src;
        p.dst = dst;
        p.srcPort = *s;
        p.dstPort = *d;
        switch (places.distance(fabric.port(*s).node, fabric.port(*d).node)) {
        case PairDistance::Unknown: continue;  // not connected
        case PairDistance::SameLeaf: p.distance = DistanceClass::SameLeaf; break;
        case PairDistance::SamePod: p.distance = DistanceClass::SamePod; break;
        case PairDistance::AcrossSpines: p.distance = DistanceClass::AcrossSpines; break;
        }
        summarise(p, g.rows);
        const auto back = groups.find(Key{tool, size, dst, src});
        p.forward = router.routes(*s, *d, g.paths);
        p.reply = router.routes(*d, *s, back == groups.end() ? std::map<std::vector<std::string>, int>{} : back->second.paths);
        out.pairs.push_back(std::move(p));
    }
    out.unknownHosts.assign(unknown.begin(), unknown.end());
    std::sort(out.unknownHosts.begin(), out.unknownHosts.end(), naturalLess);
    return out;
}

} // namespace

ProbePairs loadProbePairs(const Store& store, const HostPlaces& places, double from, double to, std::size_t maxRoutes) {
    return pairsOf(loadProbes(store, from, to), store, places, maxRoutes);
}

ProbePairs loadProbePairs(const Store& store, const Fabric& fabric, double from, double to, std::size_t maxRoutes) {
    const auto probes = loadProbes(store, from, to);
    if (probes.empty() || fabric.nodes.empty()) return {};  // no host index for a store without probes
    return pairsOf(probes, store, HostPlaces(fabric), maxRoutes);
}

} // namespace fabscope
