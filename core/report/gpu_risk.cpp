#include "core/report/gpu_risk.h"

#include "core/report/fabric_summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace fabscope {
namespace {

using Intervals = std::vector<std::pair<double, double>>;

double unionLength(Intervals v) {
    std::sort(v.begin(), v.end());
    double total = 0, curStart = 0, curEnd = 0;
    bool open = false;
    for (const auto& [s, e] : v) {
        if (!open || s > curEnd) {
            if (open) total += curEnd - curStart;
            curStart = s;
            curEnd = e;
            open = true;
        } else {
            curEnd = std::max(curEnd, e);
        }
    }
    if (open) total += curEnd - curStart;
    return total;
}

class FabricIndex {
public:
    FabricIndex(const Fabric& f, const std::vector<int>& tiers) : f_(f), tiers_(tiers), adj_(f.nodes.size()) {
        for (std::size_t i = 0; i < f.nodes.size(); ++i) {
            if (!f.nodes[i].guid.empty()) byName_.emplace(f.nodes[i].guid, i);
            if (!f.nodes[i].description.empty()) byName_.emplace(f.nodes[i].description, i);
        }
        for (const Link& l : f.links) {
            const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
            adj_[a].push_back(b);
            adj_[b].push_back(a);
        }
    }

    [[nodiscard]] std::optional<std::size_t> node(const PortRef& p) const {
        if (auto it = byName_.find(p.guid); !p.guid.empty() && it != byName_.end()) return it->second;
        if (auto it = byName_.find(p.node); it != byName_.end()) return it->second;
        return std::nullopt;
    }

    // Hosts reached from `n` by only stepping down in tier (n itself when it is a host).
    [[nodiscard]] std::set<std::size_t> hostsBelow(std::size_t n) const {
        std::set<std::size_t> hosts, seen{n};
        std::vector<std::size_t> stack{n};
        while (!stack.empty()) {
            const auto x = stack.back();
            stack.pop_back();
            if (f_.nodes[x].type != NodeType::Switch) {
                hosts.insert(x);
                continue;
            }
            for (auto y : adj_[x])
                if (tiers_[y] >= 0 && tiers_[y] < tiers_[x] && seen.insert(y).second) stack.push_back(y);
        }
        return hosts;
    }

    [[nodiscard]] const Fabric& fabric() const { return f_; }
    [[nodiscard]] int tier(std::size_t n) const { return tiers_[n]; }

private:
    const Fabric& f_;
    const std::vector<int>& tiers_;
    std::vector<std::vector<std::size_t>> adj_;
    std::unordered_multimap<std::string, std::size_t> byName_;
};

// The lowest-tier node a finding names; its hosts are the ones it reaches.
std::optional<std::size_t> lowestNode(const FabricIndex& idx, const Finding& f) {
    std::optional<std::size_t> best;
    auto consider = [&](const PortRef& p) {
        if (auto n = idx.node(p); n && (!best || idx.tier(*n) < idx.tier(*best))) best = n;
    };
    for (const auto& p : f.ports) consider(p);
    if (f.origin) consider(*f.origin);
    return best;
}

std::string nodeName(const Fabric& f, std::size_t n) {
    return f.nodes[n].description.empty() ? f.nodes[n].guid : f.nodes[n].description;
}

// Job name -> hosts of its ranks and the rank count; empty when the store holds no jobs.
struct JobHosts {
    std::vector<std::string> hosts;
    std::size_t ranks = 0;
};
std::map<std::string, JobHosts> jobHosts(const Store& store) {
    std::map<std::string, JobHosts> jobs;
    for (const StoredJob& sj : loadJobs(store)) {
        JobHosts& j = jobs[sj.name];
        for (const JobRank& r : sj.ranks) {
            ++j.ranks;
            j.hosts.push_back(adapterName(r.host, r.device));
            j.hosts.push_back(r.host);
        }
    }
    return jobs;
}

std::string metricString(const Finding& f, std::string_view key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return {};
}
double metricDouble(const Finding& f, std::string_view key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key && std::holds_alternative<double>(v)) return std::get<double>(v);
    return 0;
}

} // namespace

GpuRisk estimateGpuRisk(const Store& store, const Fabric& fabric, const std::vector<int>& tiers, const FindingsReport& report) {
    GpuRisk risk;
    risk.windowSeconds = report.windowEnd - report.windowStart;
    const FabricIndex idx(fabric, tiers);

    std::vector<std::pair<std::set<std::size_t>, std::pair<double, double>>> reach;  // hosts, interval
    for (const Finding& f : report.findings) {
        if (f.severity != FindingSeverity::Critical) continue;
        // Benchmark sweeps are tests run on idle hosts, not time a job lost.
        const bool fromBenchmarks = std::any_of(f.metrics.begin(), f.metrics.end(), [](const auto& m) {
            return m.first == "source" && std::holds_alternative<std::string>(m.second) && std::get<std::string>(m.second) == "benchmarks";
        });
        if (fromBenchmarks) continue;
        FindingRisk fr{f.id, std::string(kindName(f.kind)), f.summary, 0, std::max(0.0, f.end - f.start), "not on the fabric"};
        if (auto low = lowestNode(idx, f)) {
            std::set<std::size_t> hosts = idx.hostsBelow(*low);
            fr.gpus = hosts.size();
            fr.scope = fabric.nodes[*low].type == NodeType::Switch ? "hosts below " + nodeName(fabric, *low)
                                                                   : nodeName(fabric, *low);
            reach.push_back({std::move(hosts), {f.start, std::max(f.start, f.end)}});
        }
        risk.findings.push_back(std::move(fr));
    }

    const auto jobs = jobHosts(store);
    if (jobs.empty()) {
        std::map<std::size_t, Intervals> perHost;
        for (const auto& [hosts, iv] : reach)
            for (auto h : hosts) perHost[h].push_back(iv);
        for (auto& [h, ivs] : perHost) risk.totalGpuSeconds += unionLength(std::move(ivs));
        risk.gpusCounted = fabric.count(NodeType::Ca);
        return risk;
    }

    risk.fromJobs = true;
    // A rank's host as the fabric names it: "dgx021 mlx5_0" (host + device) or the host alone.
    std::unordered_map<std::string, std::size_t> caByName;
    for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
        if (fabric.nodes[i].type == NodeType::Switch) continue;
        const std::string& d = fabric.nodes[i].description;
        caByName.emplace(d, i);
        caByName.emplace(d.substr(0, d.find(' ')), i);
        if (!fabric.nodes[i].systemName.empty()) caByName.emplace(fabric.nodes[i].systemName, i);
    }
    for (const auto& [name, jh] : jobs) {
        JobRisk jr;
        jr.job = name;
        jr.gpus = jh.ranks;
        std::set<std::size_t> cas;
        for (std::size_t i = 0; i + 1 < jh.hosts.size(); i += 2) {
            auto it = caByName.find(jh.hosts[i]);
            if (it == caByName.end()) it = caByName.find(jh.hosts[i + 1]);
            if (it == caByName.end()) ++jr.ranksUnmapped;
            else cas.insert(it->second);
        }
        jr.hostsMapped = cas.size();
        Intervals ivs;
        for (const auto& [hosts, iv] : reach)
            if (std::any_of(cas.begin(), cas.end(), [&](std::size_t c) { return hosts.count(c) > 0; })) ivs.push_back(iv);
        for (const Finding& f : report.findings)
            if (f.kind == FindingKind::StragglerPath && metricString(f, "job") == name) {
                ivs.emplace_back(f.start, std::max(f.start, f.end));
                jr.straggler = f.id;
                jr.boundGbps = metricDouble(f, "job_bound_gbps");
                jr.boundWithoutGbps = metricDouble(f, "job_bound_without_gbps");
                jr.slowdown = metricDouble(f, "predicted_slowdown");
            }
        jr.seconds = unionLength(std::move(ivs));
        risk.gpusCounted += jr.gpus;
        risk.totalGpuSeconds += jr.gpuSeconds();
        risk.jobs.push_back(std::move(jr));
    }
    return risk;
}

} // namespace fabscope
