// What changed in the job and the benchmarks: the NCCL set-up of the job each side ran (rank ->
// host, rings and trees, transports, GDRDMA, NCCL version) and the pairwise benchmark classes'
// median bus bandwidth.
#include "core/analysis/format.h"
#include "core/analysis/host_places.h"
#include "core/analysis/pair_benchmarks.h"
#include "core/compare/compare_parts.h"
#include "core/job_summary.h"
#include "core/store/probes.h"

#include <cmath>
#include <map>

namespace fabscope::compare {
namespace {

// The jobs of a side: in one store with two windows, those that ran inside the window (a job
// without a time, from a store written before v7, belongs to both); in two stores, all of them.
std::vector<StoredJob> jobsOf(const Side& s) {
    std::vector<StoredJob> out;
    for (StoredJob& j : loadJobs(*s.store))
        if (!s.sameStoreAsOther || !j.details.time || (*j.details.time >= s.info.start && *j.details.time <= s.info.end))
            out.push_back(std::move(j));
    return out;
}

struct NetUse {
    std::size_t net = 0, gdr = 0;  // NET/... connections, and those with GPUDirect RDMA
};
NetUse netUse(const JobSummary& s) {
    NetUse u;
    for (const auto& [transport, n] : s.transports)
        if (transport.starts_with("NET")) {
            u.net += n;
            if (transport.find("GDRDMA") != std::string::npos) u.gdr += n;
        }
    return u;
}

std::string joined(const std::map<std::string, std::size_t>& m) {
    std::string s;
    for (const auto& [k, n] : m) s += (s.empty() ? "" : ", ") + k + " x" + std::to_string(n);
    return s.empty() ? "none" : s;
}

constexpr std::size_t kMovesNamed = 8;  // ranks that changed host named in a summary, the rest counted

// "rank 2 gpu-b -> gpu-c, rank 3 ...": the ranks both runs had, on another host (or adapter) in
// the bad one. The host behind a slow run is often the one a rank moved to.
struct Moves {
    std::string text;
    std::size_t count = 0;
};
Moves movedRanks(const StoredJob& g, const StoredJob& b) {
    const auto where = [](const JobRank& r) { return adapterName(r.host, r.device); };
    std::map<int, std::string> before;
    for (const JobRank& r : g.ranks) before[r.rank] = where(r);
    Moves m;
    for (const JobRank& r : b.ranks) {
        const auto it = before.find(r.rank);
        if (it == before.end() || it->second == where(r)) continue;
        if (++m.count <= kMovesNamed) m.text += (m.text.empty() ? "" : ", ") + ("rank " + std::to_string(r.rank) + " " + it->second + " -> " + where(r));
    }
    if (m.count > kMovesNamed) m.text += " and " + std::to_string(m.count - kMovesNamed) + " more";
    return m;
}

void compareJob(const StoredJob& gj, const StoredJob& bj, std::vector<Change>& out) {
    const JobSummary g = summarise(gj), b = summarise(bj);
    const std::string job = "job " + (g.name == b.name ? b.name : g.name + " -> " + b.name);
    const auto add = [&](ChangeValues gv, ChangeValues bv, std::string summary, double score) {
        Change c;
        c.kind = ChangeKind::Job;
        c.hosts = b.hosts;
        c.good = std::move(gv);
        c.bad = std::move(bv);
        c.good.insert(c.good.begin(), {"job", g.name});
        c.bad.insert(c.bad.begin(), {"job", b.name});
        c.summary = std::move(summary);
        c.score = score;
        out.push_back(std::move(c));
    };
    const NetUse gn = netUse(g), bn = netUse(b);
    const double gShare = gn.net ? static_cast<double>(gn.gdr) / static_cast<double>(gn.net) : 0;
    const double bShare = bn.net ? static_cast<double>(bn.gdr) / static_cast<double>(bn.net) : 0;
    if (g.transports != b.transports) {
        const bool lostGdr = gShare > 0 && bShare < gShare / 2;
        std::string s = job + ": transports " + joined(g.transports) + " -> " + joined(b.transports);
        if (lostGdr)
            s += "; GPUDirect RDMA on " + numfmt::num(gShare * 100) + "% -> " + numfmt::num(bShare * 100) +
                 "% of network connections (data staged through host memory)";
        add({{"transports", joined(g.transports)}, {"gdrdma_share", numfmt::round(gShare)}},
            {{"transports", joined(b.transports)}, {"gdrdma_share", numfmt::round(bShare)}}, s, lostGdr ? 85 : 45);
    }
    const Moves moves = movedRanks(gj, bj);
    if (g.hosts != b.hosts || g.nranks != b.nranks || moves.count > 0) {
        std::string hg, hb;
        for (const auto& h : g.hosts) hg += (hg.empty() ? "" : ",") + h;
        for (const auto& h : b.hosts) hb += (hb.empty() ? "" : ",") + h;
        add({{"ranks", static_cast<double>(g.nranks)}, {"hosts", hg}},
            {{"ranks", static_cast<double>(b.nranks)}, {"hosts", hb}, {"ranks_moved", static_cast<double>(moves.count)}},
            job + ": placement " + std::to_string(g.nranks) + " ranks on " + std::to_string(g.hosts.size()) +
                " hosts -> " + std::to_string(b.nranks) + " ranks on " + std::to_string(b.hosts.size()) + " hosts" +
                (moves.count ? "; moved: " + moves.text : std::string()),
            50);
    }
    if (g.ringChannels != b.ringChannels || g.treeChannels != b.treeChannels)
        add({{"ring_channels", static_cast<double>(g.ringChannels)}, {"tree_channels", static_cast<double>(g.treeChannels)}},
            {{"ring_channels", static_cast<double>(b.ringChannels)}, {"tree_channels", static_cast<double>(b.treeChannels)}},
            job + ": " + std::to_string(g.ringChannels) + " ring / " + std::to_string(g.treeChannels) +
                " tree channels -> " + std::to_string(b.ringChannels) + " / " + std::to_string(b.treeChannels),
            45);
    if (g.ncclVersion != b.ncclVersion)
        add({{"nccl_version", g.ncclVersion}}, {{"nccl_version", b.ncclVersion}},
            job + ": NCCL " + g.ncclVersion + " -> " + b.ncclVersion, 40);
}

} // namespace

void jobChanges(const Side& good, const Side& bad, std::vector<Change>& out) {
    const auto g = jobsOf(good), b = jobsOf(bad);
    if (g.empty() || b.empty()) return;
    // Jobs of the same name are the same job; one job a side is the same job whatever its name.
    std::vector<std::pair<const StoredJob*, const StoredJob*>> pairs;
    if (g.size() == 1 && b.size() == 1) pairs.emplace_back(&g.front(), &b.front());
    else
        for (const StoredJob& x : g)
            for (const StoredJob& y : b)
                if (x.name == y.name && x.id != y.id) pairs.emplace_back(&x, &y);
    for (const auto& [x, y] : pairs) compareJob(*x, *y, out);
}

void benchmarkChanges(const Side& good, const Side& bad, const AnalysisConfig& config, std::vector<Change>& out) {
    const auto inWindow = [&config](const Side& s) {
        std::vector<CollectiveRun> runs;
        for (CollectiveRun& r : loadCollectiveRuns(*s.store))
            if (!s.sameStoreAsOther || (r.time >= s.info.start && r.time <= s.info.end)) runs.push_back(std::move(r));
        return judgePairBenchmarks(runs, s.ctx->hostPlaces(), config.pairBenchmark);
    };
    const PairBenchmarks g = inWindow(good), b = inWindow(bad);
    std::map<std::string, const PairClass*> byLabel;
    for (const PairClass& c : g.classes) byLabel[c.label()] = &c;
    for (const PairClass& c : b.classes) {
        const auto it = byLabel.find(c.label());
        if (it == byLabel.end() || !it->second->medianGBs || !c.medianGBs) continue;
        const double before = *it->second->medianGBs, after = *c.medianGBs;
        const double rel = before > 0 ? (after - before) / before : 0;
        if (std::abs(rel) < config.compare.minBusbwChange) continue;
        Change ch;
        ch.kind = ChangeKind::Benchmark;
        ch.good = {{"class", c.label()}, {"median_busbw_gbs", numfmt::round(before)}, {"runs", static_cast<double>(it->second->runs.size())}};
        ch.bad = {{"class", c.label()}, {"median_busbw_gbs", numfmt::round(after)}, {"runs", static_cast<double>(c.runs.size())}};
        ch.summary = c.label() + ": median bus bandwidth " + numfmt::num(before) + " -> " + numfmt::num(after) + " GB/s (" +
                     (rel > 0 ? "+" : "") + numfmt::num(rel * 100) + "%)";
        ch.score = std::min(70.0, std::abs(rel) * 100);
        out.push_back(std::move(ch));
    }
}

} // namespace fabscope::compare
