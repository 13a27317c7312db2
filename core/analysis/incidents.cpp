// Incidents (incidents.h): findings joined when one explains the other (same link, or a port of
// a congestion/pause tree, at overlapping times), as components of a union-find.
#include "core/analysis/incidents.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <unordered_map>

namespace fabscope {

int causeRank(FindingKind kind) {
    using K = FindingKind;
    static constexpr K order[] = {K::DegradedLink, K::TopologyChange, K::LinkFlap,      K::ErrorLink, K::PfcStorm,
                                  K::CongestionTree, K::HotLink,      K::EcmpImbalance, K::LossyLink, K::SlowHost,
                                  K::SlowPair,     K::StragglerPath};
    for (int i = 0; i < static_cast<int>(std::size(order)); ++i)
        if (order[i] == kind) return kind == K::CongestionTree ? i - 1 : i;  // the two trees rank alike
    return static_cast<int>(std::size(order));
}

namespace {

class UnionFind {
public:
    explicit UnionFind(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), std::size_t{0}); }
    std::size_t root(std::size_t i) {
        while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
        return i;
    }
    void join(std::size_t a, std::size_t b) {
        a = root(a);
        b = root(b);
        if (a != b) parent_[std::max(a, b)] = std::min(a, b);  // the root is the group's first finding
    }

private:
    std::vector<std::size_t> parent_;
};

std::string portKey(const PortRef& p) { return p.node + '\x1f' + p.port; }

// The link a finding is about: its first two ports in either order (one port when it names one).
std::string linkKey(const Finding& f) {
    std::string a = portKey(f.ports[0]), b = f.ports.size() > 1 ? portKey(f.ports[1]) : std::string();
    if (!b.empty() && b < a) std::swap(a, b);
    return a + '\x1e' + b;
}

bool overlap(const Finding& a, const Finding& b) { return a.start <= b.end && b.start <= a.end; }
bool isTree(const Finding& f) { return f.kind == FindingKind::CongestionTree || f.kind == FindingKind::PfcStorm; }
bool isLinkFault(const Finding& f) { return f.kind == FindingKind::ErrorLink || f.kind == FindingKind::LinkFlap; }
// A state of the snapshot rather than an event: a degraded link spans the analysis window, a
// topology change the two snapshots' times.
bool isState(const Finding& f) { return f.kind == FindingKind::DegradedLink || f.kind == FindingKind::TopologyChange; }

// Whether `cause` explains `effect`, both about the same link.
bool explainsOnLink(const Finding& cause, const Finding& effect) {
    if (cause.kind == FindingKind::DegradedLink) return true;  // a link below its width: all that happens on it
    if (isLinkFault(cause))
        return (isLinkFault(effect) || effect.kind == FindingKind::LossyLink || effect.kind == FindingKind::StragglerPath) && overlap(cause, effect);
    if (cause.kind == FindingKind::HotLink) return effect.kind == FindingKind::StragglerPath && overlap(cause, effect);
    return false;
}

void joinOnLinks(const std::vector<Finding>& fs, UnionFind& groups) {
    std::unordered_map<std::string, std::vector<std::size_t>> byLink;
    for (std::size_t i = 0; i < fs.size(); ++i)
        if (!fs[i].ports.empty() && !isTree(fs[i])) byLink[linkKey(fs[i])].push_back(i);
    for (const auto& [link, members] : byLink)  // a handful per link: pairs are cheap
        for (std::size_t x : members)
            for (std::size_t y : members)
                if (x != y && explainsOnLink(fs[x], fs[y])) groups.join(x, y);
}

void joinTrees(const std::vector<Finding>& fs, UnionFind& groups) {
    std::unordered_map<std::string, std::vector<std::size_t>> treesAt, rootedAt;  // port -> trees
    for (std::size_t i = 0; i < fs.size(); ++i) {
        if (!isTree(fs[i])) continue;
        for (const PortRef& p : fs[i].ports) treesAt[portKey(p)].push_back(i);
        if (fs[i].origin) rootedAt[portKey(*fs[i].origin)].push_back(i);
    }
    for (std::size_t i = 0; i < fs.size(); ++i) {
        const Finding& f = fs[i];
        if (f.ports.empty()) continue;
        if (f.kind == FindingKind::HotLink || f.kind == FindingKind::EcmpImbalance || f.kind == FindingKind::StragglerPath) {
            // It transmits from a port of the tree (a victim's, or the root's) while the tree lasts.
            if (const auto it = treesAt.find(portKey(f.ports.front())); it != treesAt.end())
                for (std::size_t t : it->second)
                    if (overlap(fs[t], f)) groups.join(t, i);
        } else if (f.kind == FindingKind::DegradedLink) {
            for (const PortRef& p : f.ports)  // the tree's root is this slow link
                if (const auto it = rootedAt.find(portKey(p)); it != rootedAt.end())
                    for (std::size_t t : it->second) groups.join(i, t);
        }
    }
}

std::string textMetric(const Finding& f, std::string_view key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return {};
}

// A slow host explains the slow pairs it is in, a link blamed by benchmark pairs the pairs it
// explains (the pair finding names them in metrics.slow_host and metrics.blamed_link).
void joinPairCauses(const std::vector<Finding>& fs, UnionFind& groups) {
    std::unordered_map<std::string, std::size_t> hostFinding, linkFinding;
    for (std::size_t i = 0; i < fs.size(); ++i) {
        if (fs[i].kind == FindingKind::SlowHost) hostFinding.emplace(textMetric(fs[i], "host"), i);
        if (fs[i].kind == FindingKind::LossyLink && !textMetric(fs[i], "link").empty()) linkFinding.emplace(textMetric(fs[i], "link"), i);
    }
    for (std::size_t i = 0; i < fs.size(); ++i) {
        if (fs[i].kind != FindingKind::SlowPair) continue;
        if (const auto it = hostFinding.find(textMetric(fs[i], "slow_host")); it != hostFinding.end()) groups.join(it->second, i);
        if (const auto it = linkFinding.find(textMetric(fs[i], "blamed_link")); it != linkFinding.end()) groups.join(it->second, i);
    }
}

Incident incidentOf(const std::vector<Finding>& fs, std::vector<std::size_t> members) {
    auto order = [&](std::size_t i) { return std::make_tuple(causeRank(fs[i].kind), fs[i].start, fs[i].severity, i); };
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) { return order(a) < order(b); });
    Incident inc;
    inc.severity = FindingSeverity::Info;
    constexpr double inf = std::numeric_limits<double>::infinity();
    double eventStart = inf, anyStart = inf, eventEnd = -inf, anyEnd = -inf;
    for (std::size_t i : members) {
        const Finding& f = fs[i];
        inc.severity = std::min(inc.severity, f.severity);
        anyStart = std::min(anyStart, f.start);
        anyEnd = std::max(anyEnd, f.end);
        if (!isState(f)) {
            eventStart = std::min(eventStart, f.start);
            eventEnd = std::max(eventEnd, f.end);
        }
    }
    // When it happened: a state (a degraded link spans the window) counts only without events.
    const bool events = eventStart < inf;
    inc.start = events ? eventStart : anyStart;
    inc.end = events ? eventEnd : anyEnd;
    inc.members = std::move(members);
    return inc;
}

} // namespace

void groupIncidents(FindingsReport& report) {
    std::vector<Finding>& fs = report.findings;
    UnionFind groups(fs.size());
    joinOnLinks(fs, groups);
    joinTrees(fs, groups);
    joinPairCauses(fs, groups);

    std::map<std::size_t, std::vector<std::size_t>> byRoot;  // the root is the group's first finding
    for (std::size_t i = 0; i < fs.size(); ++i) byRoot[groups.root(i)].push_back(i);
    std::vector<std::pair<std::size_t, Incident>> found;
    for (auto& [root, members] : byRoot) found.emplace_back(root, incidentOf(fs, std::move(members)));
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return std::tie(a.second.severity, a.second.start, a.first) < std::tie(b.second.severity, b.second.start, b.first);
    });

    std::vector<Finding> ordered;
    ordered.reserve(fs.size());
    report.incidents.clear();
    for (auto& [root, inc] : found) {
        inc.id = static_cast<int>(report.incidents.size()) + 1;
        for (std::size_t& m : inc.members) {
            fs[m].incident = inc.id;
            ordered.push_back(std::move(fs[m]));
            m = ordered.size() - 1;
        }
        report.incidents.push_back(std::move(inc));
    }
    fs = std::move(ordered);
}

} // namespace fabscope
