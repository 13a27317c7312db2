#include "core/report/fabric_summary.h"

#include "core/linkrate.h"
#include "core/tiers.h"

#include <algorithm>
#include <tuple>

namespace fabscope {

std::string tierRole(int tier) {
    switch (tier) {
    case -1: return "unconnected";
    case 0: return "host";
    case 1: return "leaf";
    case 2: return "spine";
    case 3: return "core";
    default: return "tier " + std::to_string(tier);
    }
}

std::string linkClassName(int tierA, int tierB, bool bothSwitches) {
    if (!bothSwitches) return "host links";
    const int lo = std::min(tierA, tierB), hi = std::max(tierA, tierB);
    if (lo == hi) return tierRole(lo) + "-" + tierRole(hi) + " links (same tier)";
    return tierRole(lo) + "-" + tierRole(hi) + " links";
}

namespace {

double gbps(const Link& l) { return static_cast<double>(l.capacityBps) / 1e9; }

// The capacity most links of each class run at: the nominal a degraded link falls short of.
std::map<std::string, double> usualCapacity(const std::vector<std::pair<std::string, double>>& linkCaps) {
    std::map<std::string, std::map<double, std::size_t>> counts;
    for (const auto& [cls, cap] : linkCaps)
        if (cap > 0) ++counts[cls][cap];
    std::map<std::string, double> usual;
    for (const auto& [cls, byCap] : counts)
        usual[cls] = std::max_element(byCap.begin(), byCap.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    return usual;
}

} // namespace

FabricSummary summariseFabric(const Fabric& f) {
    FabricSummary s;
    s.switches = f.count(NodeType::Switch);
    s.cas = f.count(NodeType::Ca);
    s.routers = f.count(NodeType::Router);
    s.links = f.links.size();
    s.ports = 2 * f.links.size();  // connected ports: both ends of every link
    s.tierOfNode = computeTiers(f);

    std::map<int, TierCount> tiers;
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        TierCount& t = tiers[s.tierOfNode[i]];
        t.tier = s.tierOfNode[i];
        t.role = tierRole(t.tier);
        switch (f.nodes[i].type) {
        case NodeType::Switch: ++t.switches; break;
        case NodeType::Ca: ++t.cas; break;
        case NodeType::Router: ++t.routers; break;
        }
    }
    for (const auto& [tier, t] : tiers)
        if (tier >= 0) s.tiers.push_back(t);
    if (auto it = tiers.find(-1); it != tiers.end()) s.tiers.push_back(it->second);

    // Class of every link, then generations and per-switch capacities.
    std::vector<std::pair<std::string, double>> linkCaps;
    std::map<std::tuple<std::string, std::string>, LinkGeneration> gens;
    for (const Link& l : f.links) {
        const auto a = f.port(l.a).node.value(), b = f.port(l.b).node.value();
        const bool sw = f.nodes[a].type == NodeType::Switch && f.nodes[b].type == NodeType::Switch;
        const std::string cls = linkClassName(s.tierOfNode[a], s.tierOfNode[b], sw);
        linkCaps.emplace_back(cls, gbps(l));
        LinkGeneration& g = gens[{cls, widthSpeedLabel(l.width, l.speed)}];
        g.linkClass = cls;
        g.widthSpeed = widthSpeedLabel(l.width, l.speed);
        g.gbps = gbps(l);
        ++g.links;
    }
    for (auto& [key, g] : gens) s.generations.push_back(g);
    std::stable_sort(s.generations.begin(), s.generations.end(), [](const LinkGeneration& x, const LinkGeneration& y) {
        return std::tie(x.linkClass, y.links) < std::tie(y.linkClass, x.links);  // most common first within a class
    });

    const auto usual = usualCapacity(linkCaps);
    std::map<std::uint32_t, SwitchOversubscription> perSwitch;
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const Link& l = f.links[i];
        const double cap = linkCaps[i].second;
        const double nominal = std::max(cap, usual.count(linkCaps[i].first) ? usual.at(linkCaps[i].first) : cap);
        const std::uint32_t ends[2] = {f.port(l.a).node.value(), f.port(l.b).node.value()};
        for (int e = 0; e < 2; ++e) {
            const std::uint32_t me = ends[e], other = ends[1 - e];
            if (f.nodes[me].type != NodeType::Switch || s.tierOfNode[me] == s.tierOfNode[other]) continue;
            SwitchOversubscription& o = perSwitch[me];
            o.node = f.nodes[me].description.empty() ? f.nodes[me].guid : f.nodes[me].description;
            o.tier = s.tierOfNode[me];
            if (s.tierOfNode[other] < s.tierOfNode[me]) {
                ++o.downLinks;
                o.downGbps += cap;
                o.nominalDownGbps += nominal;
            } else {
                ++o.upLinks;
                o.upGbps += cap;
                o.nominalUpGbps += nominal;
            }
        }
    }
    for (auto& [node, o] : perSwitch)
        if (o.downLinks > 0 && o.upLinks > 0) s.oversubscription.push_back(o);
    std::stable_sort(s.oversubscription.begin(), s.oversubscription.end(), [](const auto& x, const auto& y) {
        return std::tie(x.tier, x.node) < std::tie(y.tier, y.node);
    });
    return s;
}

} // namespace fabscope
