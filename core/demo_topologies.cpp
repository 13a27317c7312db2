#include "core/demo_topologies.h"

#include "core/fabric_builder.h"

#include <cstdio>
#include <string_view>

namespace fabscope {
namespace {

std::string guidFor(std::uint64_t kind, std::uint64_t index) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(0x0c42a10300000000ULL | (kind << 24) | index));
    return buf;
}

// "leaf" + 7 with 2 digits -> "leaf07"; no format strings built at run time.
std::string numbered(std::string_view prefix, int i, std::size_t digits, std::string_view suffix = {}) {
    std::string n = std::to_string(i);
    if (n.size() < digits) n.insert(0, digits - n.size(), '0');
    return std::string(prefix) + n + std::string(suffix);
}

NodeId addNode(FabricBuilder& b, NodeType type, std::string guid, std::string desc, int nports) {
    Node n;
    n.type = type;
    n.guid = std::move(guid);
    n.description = std::move(desc);
    n.numPorts = nports;
    return b.node(n);
}

void connect(FabricBuilder& b, NodeId x, int px, NodeId y, int py, int width = 4) {
    const PortId a = b.port(x, std::to_string(px), px);
    const PortId c = b.port(y, std::to_string(py), py);
    b.link(a, c, width, "HDR");
    b.link(c, a, width, "HDR");
}

NodeId addHost(FabricBuilder& b, std::uint64_t index, std::string desc) {
    const NodeId host = addNode(b, NodeType::Ca, guidFor(8, index), std::move(desc), 1);
    return host;
}

// LIDs as a subnet manager hands them out: switches first, then every host port.
Fabric finish(FabricBuilder& b) {
    Fabric f = b.take();
    int lid = 1;
    for (auto& n : f.nodes)
        if (n.type == NodeType::Switch) n.lid = lid++;
    for (std::size_t i = 0; i < f.ports.size(); ++i) {
        auto& p = f.ports[i];
        const Node& n = f.nodes[p.node.value()];
        if (n.type == NodeType::Switch) {
            p.lid = n.lid;
        } else {
            p.lid = lid++;
            p.portGuid = guidFor(9, i);
        }
    }
    return f;
}

} // namespace

DemoTopology dragonflyDemo() {
    constexpr int kGroups = 5, kSwitches = 4, kHosts = 4;  // kGroups - 1 == kSwitches: one global port each
    constexpr int kLocalPort = kHosts + 1, kGlobalPort = kHosts + kSwitches;
    DemoTopology t;
    FabricBuilder b;
    // Switch k of group g is "sw<k*kGroups+g+1>": neighbours by name sit in different groups.
    auto swName = [](int g, int k) { return numbered("sw", k * kGroups + g + 1, 2); };
    std::vector<std::vector<NodeId>> sw(kGroups);
    t.groups.resize(kGroups);
    for (int k = 0; k < kSwitches; ++k)
        for (int g = 0; g < kGroups; ++g) {
            sw[g].push_back(addNode(b, NodeType::Switch, guidFor(6, static_cast<std::uint64_t>(k * kGroups + g)), swName(g, k), 16));
        }
    for (int g = 0; g < kGroups; ++g)
        for (int k = 0; k < kSwitches; ++k) t.groups[g].push_back(swName(g, k));
    const int degradedGroup = 3, degradedSwitch = 2;
    int host = 0;
    for (int g = 0; g < kGroups; ++g)
        for (int k = 0; k < kSwitches; ++k) {
            for (int h = 1; h <= kHosts; ++h) {
                ++host;
                connect(b, sw[g][k], h, addHost(b, static_cast<std::uint64_t>(host), numbered("cn", host, 3, " mlx5_0")), 1);
            }
            // Local all-to-all: port kLocalPort + (index of the peer among the others).
            for (int m = k + 1; m < kSwitches; ++m) {
                const int width = g == degradedGroup && k == 0 && m == degradedSwitch ? 1 : 4;
                connect(b, sw[g][k], kLocalPort + m - 1, sw[g][m], kLocalPort + k, width);
            }
        }
    // One global link per pair of groups: group i's switch j-1 to group j's switch i (i < j).
    for (int i = 0; i < kGroups; ++i)
        for (int j = i + 1; j < kGroups; ++j) connect(b, sw[i][j - 1], kGlobalPort, sw[j][i], kGlobalPort);
    t.fabric = finish(b);
    t.hot = {swName(0, 0), kGlobalPort};
    t.errors = {swName(2, 1), 3};
    t.degraded = {swName(degradedGroup, 0), kLocalPort + degradedSwitch - 1};
    return t;
}

DemoTopology railDemo() {
    constexpr int kUnits = 2, kHostsPerUnit = 8, kRails = 8, kSpines = 4;
    DemoTopology t;
    FabricBuilder b;
    std::vector<NodeId> spines, leaves;
    for (int s = 1; s <= kSpines; ++s) spines.push_back(addNode(b, NodeType::Switch, guidFor(6, static_cast<std::uint64_t>(s)), numbered("spine", s, 2), 32));
    for (int l = 1; l <= kUnits * kRails; ++l)
        leaves.push_back(addNode(b, NodeType::Switch, guidFor(7, static_cast<std::uint64_t>(l)), numbered("leaf", l, 2), 16));
    t.groups.resize(kRails);
    const int degradedLeaf = 6, degradedPort = 2;
    for (int u = 0; u < kUnits; ++u)
        for (int h = 1; h <= kHostsPerUnit; ++h) {
            const int host = u * kHostsPerUnit + h;
            for (int r = 0; r < kRails; ++r) {
                const std::string nic = numbered("gpu", host, 3) + " mlx5_" + std::to_string(r);
                const int leaf = u * kRails + r;
                const int width = leaf + 1 == degradedLeaf && h == degradedPort ? 1 : 4;
                connect(b, leaves[static_cast<std::size_t>(leaf)], h, addHost(b, static_cast<std::uint64_t>(host * 16 + r), nic), 1, width);
                t.groups[static_cast<std::size_t>(r)].push_back(nic);
            }
        }
    for (std::size_t l = 0; l < leaves.size(); ++l)
        for (int s = 0; s < kSpines; ++s) connect(b, leaves[l], kHostsPerUnit + s + 1, spines[static_cast<std::size_t>(s)], static_cast<int>(l) + 1);
    t.fabric = finish(b);
    t.hot = {"leaf03", kHostsPerUnit + 1};
    t.errors = {"leaf10", 4};
    t.degraded = {numbered("leaf", degradedLeaf, 2), degradedPort};
    return t;
}

} // namespace fabscope
