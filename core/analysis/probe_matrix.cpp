#include "core/analysis/probe_matrix.h"

#include "core/natural_order.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace fabscope {
namespace {

// The node at the other end of a host's cable: its leaf.
std::string leafName(const Fabric& fabric, PortId hostPort) {
    for (const Link& l : fabric.links)
        if (l.a == hostPort || l.b == hostPort) return fabric.node(fabric.port(l.a == hostPort ? l.b : l.a).node).description;
    return {};
}

} // namespace

ProbeMatrix buildProbeMatrix(const ProbePairs& all, const Fabric& fabric) {
    ProbeMatrix m;
    for (const ProbePair& p : all.pairs)
        if (!p.bandwidth() && p.p50 && (m.tool.empty() || p.tool == "pingmesh")) m.tool = p.tool;
    if (m.tool.empty()) return m;
    std::int64_t size = -1;
    for (const ProbePair& p : all.pairs) {
        if (p.tool != m.tool || p.bandwidth()) continue;
        if (size < 0) size = p.msgBytes;
        if (p.msgBytes == size) m.pairs.push_back(p);
    }
    // Hosts and their leaves; leaves whose hosts are not across spines share a pod (union-find).
    std::map<std::string, std::string> leaf;
    for (const ProbePair& p : m.pairs) {
        if (!leaf.count(p.src)) leaf[p.src] = leafName(fabric, p.srcPort);
        if (!leaf.count(p.dst)) leaf[p.dst] = leafName(fabric, p.dstPort);
    }
    std::map<std::string, std::string> parent;
    for (const auto& [h, l] : leaf) parent[l] = l;
    auto find = [&](std::string x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const ProbePair& p : m.pairs)
        if (p.distance != DistanceClass::AcrossSpines) {
            const auto a = find(leaf[p.src]), b = find(leaf[p.dst]);
            if (a != b) parent[naturalLess(a, b) ? b : a] = naturalLess(a, b) ? a : b;
        }
    // Pods numbered by their first leaf in natural order.
    std::vector<std::string> roots;
    for (const auto& [l, r] : parent)
        if (find(l) == l) roots.push_back(l);
    std::sort(roots.begin(), roots.end(), naturalLess);
    auto podIndex = [&](const std::string& l) {
        return static_cast<int>(std::find(roots.begin(), roots.end(), find(l)) - roots.begin());
    };
    for (const auto& [h, l] : leaf) m.hosts.push_back(h);
    std::sort(m.hosts.begin(), m.hosts.end(), [&](const std::string& a, const std::string& b) {
        const int pa = podIndex(leaf[a]), pb = podIndex(leaf[b]);
        if (pa != pb) return pa < pb;
        if (leaf[a] != leaf[b]) return naturalLess(leaf[a], leaf[b]);
        return naturalLess(a, b);
    });
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < m.hosts.size(); ++i) {
        index[m.hosts[i]] = i;
        m.leafOf.push_back(leaf[m.hosts[i]]);
        m.podOf.push_back(podIndex(leaf[m.hosts[i]]));
    }
    m.cell.assign(m.hosts.size() * m.hosts.size(), -1);
    for (std::size_t i = 0; i < m.pairs.size(); ++i)
        m.cell[index[m.pairs[i].src] * m.hosts.size() + index[m.pairs[i].dst]] = static_cast<int>(i);
    return m;
}

} // namespace fabscope
