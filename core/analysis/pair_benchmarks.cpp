#include "core/analysis/pair_benchmarks.h"

#include "core/analysis/host_places.h"
#include "core/byte_size.h"
#include "core/natural_order.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace fabscope {
namespace {

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct HostInfo {
    std::optional<NodeId> nic;   // the first NIC, for distances
    std::string leaf;            // its switch's description, for the matrix order
    int nics = 0;
    std::optional<double> nicGbps;  // the slowest NIC
};

double logChoose(std::size_t n, std::size_t k) {
    return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(k) + 1) -
           std::lgamma(static_cast<double>(n - k) + 1);
}

// Names slow hosts one at a time, most significant first, each judged against the runs of the
// hosts not yet named: one bad NIC makes every pair with its host slow, and those pairs must not
// make its partners look bad too.
void nameSlowHosts(PairBenchmarks& pb, const PairBenchmarkConfig& c, const std::map<std::string, std::string>& leafOf) {
    std::vector<bool> named(pb.hosts.size(), false);
    std::map<std::string, std::size_t> indexOf;
    for (std::size_t i = 0; i < pb.hosts.size(); ++i) indexOf[pb.hosts[i]] = i;
    const double tested = static_cast<double>(std::max<std::size_t>(1, pb.hosts.size()));
    for (;;) {
        std::size_t allRuns = 0, allBad = 0;
        std::vector<HostVerdict> v(pb.hosts.size());
        std::vector<std::set<std::string>> peers(pb.hosts.size()), badPeers(pb.hosts.size());
        for (const PairRun& r : pb.runs) {
            const std::size_t a = indexOf[r.hostA], b = indexOf[r.hostB];
            if (named[a] || named[b] || !pb.classes[r.classIndex].judged) continue;
            ++allRuns;
            allBad += r.bad() ? 1 : 0;
            for (auto [me, other] : {std::pair{a, r.hostB}, std::pair{b, r.hostA}}) {
                ++v[me].runs;
                v[me].slowRuns += r.slow ? 1 : 0;
                v[me].failedRuns += r.failed() ? 1 : 0;
                peers[me].insert(other);
                if (r.bad()) badPeers[me].insert(other);
            }
            if (!leafOf.at(r.hostA).empty() && leafOf.at(r.hostA) == leafOf.at(r.hostB))
                for (std::size_t me : {a, b}) {
                    ++v[me].sameLeafRuns;
                    v[me].sameLeafBad += r.bad() ? 1 : 0;
                }
        }
        std::optional<std::size_t> worst;
        for (std::size_t h = 0; h < v.size(); ++h) {
            if (named[h]) continue;
            HostVerdict& hv = v[h];
            hv.host = pb.hosts[h];
            hv.peers = peers[h].size();
            hv.badPeers = badPeers[h].size();
            // The rate of the other runs, with one pseudo-run each way so a clean rest is not p = 0.
            const double others = static_cast<double>(allRuns - hv.runs), othersBad = static_cast<double>(allBad - hv.badRuns());
            hv.expectedShare = (othersBad + 1) / (others + 2);
            hv.pValue = binomialTail(hv.runs, hv.badRuns(), hv.expectedShare);
            pb.verdicts[h] = hv;
            const bool qualifies = hv.runs > 0 && hv.pValue < c.hostAlpha / tested &&
                                   static_cast<double>(hv.badRuns()) >= c.hostMinShare * static_cast<double>(hv.runs) &&
                                   (hv.sameLeafRuns == 0 ||
                                    static_cast<double>(hv.sameLeafBad) >= c.hostMinShare * static_cast<double>(hv.sameLeafRuns));
            if (qualifies && (!worst || hv.pValue < v[*worst].pValue)) worst = h;
        }
        if (!worst) return;
        named[*worst] = true;
        pb.verdicts[*worst].slow = true;
    }
}

} // namespace

std::string_view toString(PairDistance d) {
    switch (d) {
    case PairDistance::SameLeaf: return "same_leaf";
    case PairDistance::SamePod: return "same_pod";
    case PairDistance::AcrossSpines: return "across_spines";
    case PairDistance::Unknown: break;
    }
    return "";
}

std::string PairRun::label() const { return tool + " G" + std::to_string(gpusPerNode); }

std::string PairClass::label() const {
    std::string s = tool + ", 2 nodes x " + std::to_string(gpusPerNode) + (gpusPerNode == 1 ? " GPU" : " GPUs");
    if (maxBytes > 0) s += ", " + binarySize(minBytes) + "-" + binarySize(maxBytes);
    if (distance != PairDistance::Unknown) {
        std::string d(toString(distance));
        std::replace(d.begin(), d.end(), '_', ' ');
        s += ", " + d;
    }
    return s;
}

double binomialTail(std::size_t n, std::size_t k, double p) {
    if (k == 0) return 1;
    if (k > n) return 0;
    if (p <= 0) return 0;
    if (p >= 1) return 1;
    double sum = 0;
    for (std::size_t i = k; i <= n; ++i)
        sum += std::exp(logChoose(n, i) + static_cast<double>(i) * std::log(p) + static_cast<double>(n - i) * std::log1p(-p));
    return std::min(1.0, sum);
}

std::optional<double> runFigureGBs(const CollectiveRun& run, double minSizeBytes) {
    std::int64_t largest = 0;
    for (const CollectiveRow& r : run.rows) largest = std::max(largest, r.sizeBytes);
    const double from = std::min(minSizeBytes, static_cast<double>(largest));
    double sum = 0;
    int n = 0;
    for (const CollectiveRow& r : run.rows) {
        const auto v = r.busbwGBs ? r.busbwGBs : r.inPlaceBusbwGBs;
        if (v && static_cast<double>(r.sizeBytes) >= from) {
            sum += *v;
            ++n;
        }
    }
    if (n == 0) return std::nullopt;
    return sum / n;
}

std::optional<double> expectedBusbw(std::string_view tool, int g, int nics, double nicGbps, double efficiency) {
    if (g < 1 || nics < 1 || nicGbps <= 0) return std::nullopt;
    const double perNic = nicGbps / 8 * efficiency;  // GB/s
    const double host = std::min(g, nics) * perNic;
    if (tool.starts_with("sendrecv")) return perNic;
    if (tool.starts_with("alltoall")) {
        const double offHost = static_cast<double>(g) / (2.0 * g - 1);  // share of a rank's bytes to the other host
        return host / (g * offHost);
    }
    if (tool.starts_with("all_reduce") || tool.starts_with("all_gather") || tool.starts_with("reduce_scatter") ||
        tool.starts_with("broadcast") || tool.starts_with("reduce"))
        return host;
    return std::nullopt;  // gather, scatter, hypercube: no model stated
}

PairBenchmarks judgePairBenchmarks(const std::vector<CollectiveRun>& runs, const Fabric& fabric, const PairBenchmarkConfig& c) {
    return judgePairBenchmarks(runs, HostPlaces(fabric), c);
}

PairBenchmarks judgePairBenchmarks(const std::vector<CollectiveRun>& runs, const HostPlaces& places, const PairBenchmarkConfig& c) {
    PairBenchmarks pb;
    const Fabric& fabric = places.fabric();
    std::map<std::string, HostInfo> hostInfo;
    const auto infoOf = [&](const std::string& host) -> const HostInfo& {
        auto it = hostInfo.find(host);
        if (it != hostInfo.end()) return it->second;
        HostInfo hi;
        for (NodeId nic : places.nics(host)) {
            const auto up = places.uplink(nic);
            if (!up) continue;
            if (!hi.nic) {
                hi.nic = nic;
                hi.leaf = fabric.node(up->first).description;
            }
            ++hi.nics;
            if (up->second > 0 && (!hi.nicGbps || up->second < *hi.nicGbps)) hi.nicGbps = up->second;
        }
        return hostInfo.emplace(host, hi).first->second;
    };

    // Runs between exactly two hosts.
    std::map<std::pair<std::string, std::string>, PairDistance> distanceOf;
    for (const CollectiveRun& run : runs) {
        std::vector<std::string> distinct;
        for (const auto& h : run.hosts)
            if (std::find(distinct.begin(), distinct.end(), h) == distinct.end()) distinct.push_back(h);
        if (distinct.size() != 2) {
            ++pb.otherRuns;
            continue;
        }
        PairRun r;
        r.runId = run.id;
        r.tool = run.tool;
        r.time = run.time;
        r.hostA = distinct[0];
        r.hostB = distinct[1];
        r.gpusPerNode = static_cast<int>(run.hosts.size() / 2);
        for (const CollectiveRow& row : run.rows) {
            r.minBytes = r.minBytes == 0 ? row.sizeBytes : std::min(r.minBytes, row.sizeBytes);
            r.maxBytes = std::max(r.maxBytes, row.sizeBytes);
        }
        r.failure = run.failure;
        if (r.failure.empty()) {
            r.figureGBs = runFigureGBs(run, c.minSizeBytes);
            if (!r.figureGBs) r.failure = "no bus bandwidth in its table";
        }
        pb.runs.push_back(std::move(r));
    }
    std::sort(pb.runs.begin(), pb.runs.end(), [](const PairRun& a, const PairRun& b) {
        return std::tie(a.tool, a.gpusPerNode, a.hostA, a.hostB, a.runId) < std::tie(b.tool, b.gpusPerNode, b.hostA, b.hostB, b.runId);
    });

    // Classes: tool, GPUs per node, distance, then the size sweep. A failed run without a table
    // joins the largest class of its tool, GPU count and distance.
    using Key = std::tuple<std::string, int, PairDistance, std::int64_t, std::int64_t>;
    std::map<Key, std::size_t> classOf;
    std::vector<std::size_t> noTable;
    for (std::size_t i = 0; i < pb.runs.size(); ++i) {
        PairRun& r = pb.runs[i];
        const HostInfo &a = infoOf(r.hostA), &b = infoOf(r.hostB);
        PairDistance d = PairDistance::Unknown;
        if (a.nic && b.nic) {
            auto key = std::minmax(r.hostA, r.hostB);
            auto it = distanceOf.find({key.first, key.second});
            if (it == distanceOf.end()) it = distanceOf.emplace(std::pair{key.first, key.second}, places.distance(*a.nic, *b.nic)).first;
            d = it->second;
        }
        if (r.maxBytes == 0) {
            noTable.push_back(i);
            classOf.try_emplace(Key{r.tool, r.gpusPerNode, d, 0, 0}, 0);  // a placeholder, resolved below
            continue;
        }
        classOf.try_emplace(Key{r.tool, r.gpusPerNode, d, r.minBytes, r.maxBytes}, 0);
    }
    for (auto& [key, index] : classOf) {
        index = pb.classes.size();
        PairClass pc;
        std::tie(pc.tool, pc.gpusPerNode, pc.distance, pc.minBytes, pc.maxBytes) = key;
        pb.classes.push_back(std::move(pc));
    }
    for (std::size_t i = 0; i < pb.runs.size(); ++i) {
        PairRun& r = pb.runs[i];
        const HostInfo &a = infoOf(r.hostA), &b = infoOf(r.hostB);
        PairDistance d = PairDistance::Unknown;
        if (a.nic && b.nic) d = distanceOf.at({std::min(r.hostA, r.hostB), std::max(r.hostA, r.hostB)});
        r.classIndex = classOf.at(Key{r.tool, r.gpusPerNode, d, r.minBytes, r.maxBytes});
        pb.classes[r.classIndex].runs.push_back(i);
    }
    for (std::size_t i : noTable) {  // move to the biggest sibling class with a table
        PairRun& r = pb.runs[i];
        const PairClass& own = pb.classes[r.classIndex];
        std::optional<std::size_t> best;
        for (std::size_t k = 0; k < pb.classes.size(); ++k) {
            const PairClass& pc = pb.classes[k];
            if (pc.maxBytes > 0 && pc.tool == own.tool && pc.gpusPerNode == own.gpusPerNode && pc.distance == own.distance &&
                (!best || pc.runs.size() > pb.classes[*best].runs.size()))
                best = k;
        }
        if (!best) continue;
        auto& from = pb.classes[r.classIndex].runs;
        from.erase(std::remove(from.begin(), from.end(), i), from.end());
        r.classIndex = *best;
        pb.classes[*best].runs.push_back(i);
    }

    // Drop the placeholders the failed runs left.
    std::vector<PairClass> kept;
    for (PairClass& pc : pb.classes) {
        if (pc.runs.empty()) continue;
        for (std::size_t i : pc.runs) pb.runs[i].classIndex = kept.size();
        kept.push_back(std::move(pc));
    }
    pb.classes = std::move(kept);

    // Judge each class: median and MAD of its good runs.
    for (PairClass& pc : pb.classes) {
        std::vector<double> figures;
        std::optional<double> nic;
        int nics = 0;
        for (std::size_t i : pc.runs) {
            const PairRun& r = pb.runs[i];
            if (r.figureGBs) figures.push_back(*r.figureGBs);
            for (const std::string* h : {&r.hostA, &r.hostB}) {
                const HostInfo& hi = infoOf(*h);
                if (hi.nicGbps && (!nic || *hi.nicGbps < *nic)) nic = hi.nicGbps;
                if (hi.nics > 0) nics = nics == 0 ? hi.nics : std::min(nics, hi.nics);
            }
        }
        pc.goodRuns = figures.size();
        if (!figures.empty()) {
            pc.medianGBs = medianOf(figures);
            std::vector<double> dev;
            for (double f : figures) dev.push_back(std::abs(f - *pc.medianGBs));
            pc.madGBs = 1.4826 * medianOf(dev);
        }
        pc.judged = static_cast<int>(figures.size()) >= c.minRuns;
        pc.nicGbps = nic;
        pc.nicsPerHost = nics;
        if (nic) pc.expectedGBs = expectedBusbw(pc.tool, pc.gpusPerNode, nics, *nic, c.protocolEfficiency);
        for (std::size_t i : pc.runs) {
            PairRun& r = pb.runs[i];
            if (r.figureGBs && pc.medianGBs && *pc.medianGBs > 0) r.ratio = *r.figureGBs / *pc.medianGBs;
            if (r.failed()) ++pc.failedRuns;
            if (!pc.judged || !r.figureGBs) continue;
            const double gap = *pc.medianGBs - *r.figureGBs;
            r.slow = *r.figureGBs <= (1 - c.minDrop) * *pc.medianGBs && (*pc.madGBs == 0 || gap >= c.madFactor * *pc.madGBs);
            if (r.slow) ++pc.slowRuns;
        }
    }

    // Hosts: by leaf switch when the fabric knows them, then by name.
    std::set<std::string> names;
    for (const PairRun& r : pb.runs) names.insert({r.hostA, r.hostB});
    pb.hosts.assign(names.begin(), names.end());
    std::sort(pb.hosts.begin(), pb.hosts.end(), [&](const std::string& a, const std::string& b) {
        const std::string &la = infoOf(a).leaf, &lb = infoOf(b).leaf;
        if (la != lb) return la.empty() != lb.empty() ? !la.empty() : naturalLess(la, lb);
        return naturalLess(a, b);
    });
    pb.verdicts.resize(pb.hosts.size());
    std::map<std::string, std::string> leafOf;
    for (const auto& h : pb.hosts) leafOf[h] = infoOf(h).leaf;
    nameSlowHosts(pb, c, leafOf);
    return pb;
}

} // namespace fabscope
