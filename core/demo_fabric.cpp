#include "core/demo_fabric.h"

#include "core/demo_topologies.h"
#include "core/fabric_builder.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace fabscope {
namespace {

std::string guidFor(std::uint64_t kind, std::uint64_t index) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(0x0c42a10300000000ULL | (kind << 24) | index));
    return buf;
}

std::string name(const char* prefix, int i, int digits = 2) {
    std::ostringstream s;
    s << prefix << std::setw(digits) << std::setfill('0') << i;
    return s.str();
}

struct Shape {
    // 2-tier (small): leaves x hostsPerLeaf, spines; 3-tier (large): k-ary fat tree.
    bool threeTier = false;
    int k = 0, spines = 4, leaves = 8, hostsPerLeaf = 8;
};

Shape shapeFor(DemoOptions::Scale s) {
    Shape sh;
    if (s == DemoOptions::Scale::Large) {
        sh.threeTier = true;
        sh.k = 48;
    }
    return sh;
}

// Known faults of the small demo (see docs/FORMATS.md "demo").
constexpr int kHotLeaf = 2, kHotUplink = 1;          // leaf02 -> spine01
constexpr int kDegradedLeaf = 3, kDegradedPort = 5;  // leaf03 p5 <-> its host at 1x
constexpr int kErrorLeaf = 5, kErrorPort = 3;        // leaf05 p3 symbol errors

NodeId addNode(FabricBuilder& b, NodeType type, std::string guid, std::string desc, int nports) {
    Node n;
    n.type = type;
    n.guid = std::move(guid);
    n.description = std::move(desc);
    n.numPorts = nports;
    return b.node(n);
}

void connect(FabricBuilder& b, NodeId x, int px, NodeId y, int py, int width) {
    const PortId a = b.port(x, std::to_string(px), px);
    const PortId c = b.port(y, std::to_string(py), py);
    b.link(a, c, width, "HDR");
    b.link(c, a, width, "HDR");
}

// The fabric to write and the ports of its planted faults.
DemoTopology demoTopology(const DemoOptions& o) {
    switch (o.topology) {
    case DemoOptions::Topology::Dragonfly: return dragonflyDemo();
    case DemoOptions::Topology::Rail: return railDemo();
    case DemoOptions::Topology::FatTree: break;
    }
    DemoTopology t;
    t.fabric = demoFabric(o.scale);
    t.hot = {name("leaf", kHotLeaf), 8 + kHotUplink};
    t.errors = {name("leaf", kErrorLeaf), kErrorPort};
    t.degraded = {name("leaf", kDegradedLeaf), kDegradedPort};
    return t;
}

// The other end of a node's port: its description and port name ("", "" when unlinked).
std::pair<std::string, std::string> peerOf(const Fabric& f, const DemoPortRef& r) {
    for (const auto& l : f.links)
        for (auto [x, y] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
            if (f.port(x).number == r.port && f.node(f.port(x).node).description == r.node)
                return {f.node(f.port(y).node).description, f.port(y).name};
    return {};
}

} // namespace

std::optional<DemoOptions::Topology> parseDemoTopology(const std::string& name) {
    if (name == "fat-tree") return DemoOptions::Topology::FatTree;
    if (name == "dragonfly") return DemoOptions::Topology::Dragonfly;
    if (name == "rail") return DemoOptions::Topology::Rail;
    return std::nullopt;
}

Fabric demoFabric(DemoOptions::Scale scale) {
    const Shape sh = shapeFor(scale);
    FabricBuilder b;
    int lid = 1;
    auto setLid = [&](NodeId id) { b.nodeRef(id).lid = lid++; };
    if (!sh.threeTier) {
        std::vector<NodeId> spines, leaves;
        for (int s = 1; s <= sh.spines; ++s) spines.push_back(addNode(b, NodeType::Switch, guidFor(1, s), name("spine", s), 40));
        for (int l = 1; l <= sh.leaves; ++l) leaves.push_back(addNode(b, NodeType::Switch, guidFor(2, l), name("leaf", l), 40));
        for (auto id : spines) setLid(id);
        for (auto id : leaves) setLid(id);
        for (int l = 1; l <= sh.leaves; ++l) {
            for (int h = 1; h <= sh.hostsPerLeaf; ++h) {
                const int hostIndex = (l - 1) * sh.hostsPerLeaf + h;
                const NodeId host = addNode(b, NodeType::Ca, guidFor(3, hostIndex), name("dgx", hostIndex, 3) + " mlx5_0", 1);
                const int width = (l == kDegradedLeaf && h == kDegradedPort) ? 1 : 4;
                connect(b, leaves[l - 1], h, host, 1, width);
                b.portRef(b.port(host, "1", 1)).portGuid = guidFor(4, hostIndex);
            }
            for (int s = 1; s <= sh.spines; ++s) connect(b, leaves[l - 1], sh.hostsPerLeaf + s, spines[s - 1], l, 4);
        }
    } else {
        const int k = sh.k, half = k / 2;
        std::vector<NodeId> cores;
        for (int c = 0; c < half * half; ++c) cores.push_back(addNode(b, NodeType::Switch, guidFor(1, c), name("core", c + 1, 3), k));
        int hostIndex = 0;
        for (int p = 0; p < k; ++p) {
            std::vector<NodeId> aggs, leaves;
            for (int a = 0; a < half; ++a)
                aggs.push_back(addNode(b, NodeType::Switch, guidFor(5, p * half + a), "pod" + std::to_string(p + 1) + "-agg" + std::to_string(a + 1), k));
            for (int l = 0; l < half; ++l)
                leaves.push_back(addNode(b, NodeType::Switch, guidFor(2, p * half + l), "pod" + std::to_string(p + 1) + "-leaf" + std::to_string(l + 1), k));
            for (int a = 0; a < half; ++a)
                for (int c = 0; c < half; ++c) connect(b, aggs[a], half + c + 1, cores[a * half + c], p + 1, 4);
            for (int l = 0; l < half; ++l) {
                for (int a = 0; a < half; ++a) connect(b, leaves[l], half + a + 1, aggs[a], l + 1, 4);
                for (int h = 0; h < half; ++h) {
                    ++hostIndex;
                    const NodeId host = addNode(b, NodeType::Ca, guidFor(3, hostIndex), name("gpu", hostIndex, 5) + " mlx5_0", 1);
                    connect(b, leaves[l], h + 1, host, 1, 4);
                    b.portRef(b.port(host, "1", 1)).portGuid = guidFor(4, static_cast<std::uint64_t>(hostIndex));
                }
            }
        }
        for (std::size_t i = 0; i < b.fabric().nodes.size(); ++i) setLid(NodeId(i));
    }
    Fabric f = b.take();
    for (auto& p : f.ports) {
        const Node& n = f.nodes[p.node.value()];
        p.lid = n.type == NodeType::Switch ? n.lid : 0;
    }
    // Host port LIDs continue after the switches'.
    int next = static_cast<int>(f.nodes.size()) + 1;
    for (auto& p : f.ports)
        if (f.nodes[p.node.value()].type == NodeType::Ca) p.lid = next++;
    return f;
}

void writeIbnetdiscover(const Fabric& fabric, std::ostream& out, std::int64_t generatedAt) {
    std::vector<std::vector<std::pair<PortId, PortId>>> byNode(fabric.nodes.size());
    for (const auto& l : fabric.links) {
        byNode[fabric.port(l.a).node.value()].emplace_back(l.a, l.b);
        byNode[fabric.port(l.b).node.value()].emplace_back(l.b, l.a);
    }
    auto bare = [](const std::string& g) {  // "0x8f1..." -> zero-padded 16 digits
        std::string h = g.substr(2);
        return std::string(16 - std::min<std::size_t>(16, h.size()), '0') + h;
    };
    const std::time_t t = generatedAt;
    char when[64];
    std::strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", std::gmtime(&t));
    out << "#\n# Topology file: generated on " << when << "\n#\n";
    out << "# Initiated from node " << bare(fabric.nodes.back().guid) << " port " << bare(fabric.nodes.back().guid) << "\n";
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
            const Node& n = fabric.nodes[i];
            const bool sw = n.type == NodeType::Switch;
            if (sw != (pass == 0)) continue;
            out << "\nvendid=0x2c9\ndevid=" << (sw ? "0xd2f0" : "0x101b") << "\nsysimgguid=" << n.guid << "\n";
            if (sw) {
                out << "switchguid=" << n.guid << "(" << n.guid.substr(2) << ")\n";
                out << "Switch\t" << n.numPorts << " \"S-" << bare(n.guid) << "\"\t\t# \"" << n.description
                    << "\" enhanced port 0 lid " << n.lid << " lmc 0\n";
            } else {
                out << "caguid=" << n.guid << "\n";
                out << "Ca\t" << n.numPorts << " \"H-" << bare(n.guid) << "\"\t\t# \"" << n.description << "\"\n";
            }
            auto ports = byNode[i];
            std::sort(ports.begin(), ports.end(),
                      [&](auto x, auto y) { return fabric.port(x.first).number < fabric.port(y.first).number; });
            for (auto [local, remote] : ports) {
                const Port& lp = fabric.port(local);
                const Port& rp = fabric.port(remote);
                const Node& rn = fabric.node(rp.node);
                const bool rsw = rn.type == NodeType::Switch;
                const std::string ws = std::to_string(lp.width.value_or(4)) + "x" + lp.speed;
                const int rlid = rsw ? rn.lid : rp.lid;
                if (sw) {
                    out << "[" << lp.number << "]\t\"" << (rsw ? "S-" : "H-") << bare(rn.guid) << "\"[" << rp.number << "]";
                    if (!rsw) out << "(" << rp.portGuid.substr(2) << ")";
                    out << " \t\t# \"" << rn.description << "\" lid " << rlid << " " << ws << "\n";
                } else {
                    out << "[" << lp.number << "](" << lp.portGuid.substr(2) << ") \t\"S-" << bare(rn.guid) << "\"["
                        << rp.number << "]\t\t# lid " << lp.lid << " lmc 0 \"" << rn.description << "\" lid " << rlid
                        << " " << ws << "\n";
                }
            }
        }
    }
}

DemoManifest writeDemo(const std::string& dir, const DemoOptions& options) {
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    const DemoTopology topo = demoTopology(options);
    const Fabric& f = topo.fabric;
    const bool large = options.scale == DemoOptions::Scale::Large && options.topology == DemoOptions::Topology::FatTree;
    const int samples = options.samples > 0 ? options.samples : (large ? 360 : 60);
    const std::int64_t t0 = options.startTime;
    const int dt = options.intervalSeconds;

    DemoManifest m;
    m.switches = f.count(NodeType::Switch);
    m.cas = f.count(NodeType::Ca);
    m.links = f.links.size();
    m.groups = topo.groups;

    const std::string topoPath = (fs::path(dir) / "topology.ibnetdiscover").string();
    {
        std::ofstream out(topoPath);
        writeIbnetdiscover(f, out, t0);
        if (!out) throw std::runtime_error("cannot write " + topoPath);
    }
    m.files.push_back(topoPath);

    // Which switch port carries which fault (small scale only; the large demo is for benchmarks).
    auto isPort = [&](const Port& p, const std::string& node, int num) {
        return f.node(p.node).description == node && p.number == num;
    };
    const std::string& hotLeaf = topo.hot.node;
    const std::string& errorLeaf = topo.errors.node;
    const int hotPort = topo.hot.port;
    const int hotFrom = samples / 3, hotTo = hotFrom + std::max(5, samples / 4);  // sample indices

    const std::string csvPath = (fs::path(dir) / "counters.csv").string();
    {
        std::ofstream out(csvPath);
        out << "timestamp,node,port,counter,value\n";
        std::vector<const Port*> switchPorts;
        for (const auto& l : f.links)
            for (PortId p : {l.a, l.b})
                if (f.node(f.port(p).node).type == NodeType::Switch) switchPorts.push_back(&f.port(p));
        std::vector<double> tx(switchPorts.size(), 0), rx(switchPorts.size(), 0), wait(switchPorts.size(), 0),
            errs(switchPorts.size(), 0);
        std::uint64_t rng = 0x9e3779b97f4a7c15ULL;
        auto noise = [&rng] {  // deterministic xorshift in [0,1)
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            return static_cast<double>(rng >> 11) / 9007199254740992.0;
        };
        char buf[256];
        for (int s = 0; s < samples; ++s) {
            const std::int64_t ts = t0 + static_cast<std::int64_t>(s) * dt;
            for (std::size_t i = 0; i < switchPorts.size(); ++i) {
                const Port& p = *switchPorts[i];
                const std::string& node = f.node(p.node).description;
                if (s > 0) {
                    const double capBytes = static_cast<double>(p.capacityBps) / 8.0 * dt;
                    double utx = 0.15 + 0.25 * noise(), urx = 0.15 + 0.25 * noise();
                    if (!large && isPort(p, hotLeaf, hotPort) && s > hotFrom && s <= hotTo) utx = 0.93 + 0.05 * noise();
                    tx[i] += std::floor(utx * capBytes);
                    rx[i] += std::floor(urx * capBytes);
                    wait[i] += std::floor(noise() * 1000);
                    if (!large && isPort(p, errorLeaf, topo.errors.port)) errs[i] += 40 + std::floor(noise() * 20);
                }
                const int n = std::snprintf(buf, sizeof buf, "%lld,%s,%d,", static_cast<long long>(ts), node.c_str(), p.number);
                const std::string_view prefix(buf, static_cast<std::size_t>(n));
                out << prefix << "xmit_bytes," << static_cast<std::uint64_t>(tx[i]) << '\n';
                out << prefix << "rcv_bytes," << static_cast<std::uint64_t>(rx[i]) << '\n';
                out << prefix << "xmit_wait," << static_cast<std::uint64_t>(wait[i]) << '\n';
                out << prefix << "symbol_errors," << static_cast<std::uint64_t>(errs[i]) << '\n';
                m.rows += 4;
            }
        }
        if (!out) throw std::runtime_error("cannot write " + csvPath);
    }
    m.files.push_back(csvPath);

    if (!large) {
        const auto hotPeer = peerOf(f, topo.hot), degradedPeer = peerOf(f, topo.degraded), errorPeer = peerOf(f, topo.errors);
        m.faults.push_back({FindingKind::HotLink, hotLeaf, std::to_string(hotPort), hotPeer.first, hotPeer.second,
                            t0 + static_cast<std::int64_t>(hotFrom) * dt, t0 + static_cast<std::int64_t>(hotTo) * dt});
        m.faults.push_back({FindingKind::DegradedLink, topo.degraded.node, std::to_string(topo.degraded.port), degradedPeer.first,
                            degradedPeer.second, t0, t0});
        m.faults.push_back({FindingKind::ErrorLink, errorLeaf, std::to_string(topo.errors.port), errorPeer.first, errorPeer.second, t0,
                            t0 + static_cast<std::int64_t>(samples - 1) * dt});
    }
    nlohmann::json j;
    j["switches"] = m.switches;
    j["cas"] = m.cas;
    j["links"] = m.links;
    j["rows"] = m.rows;
    if (!m.groups.empty()) j["groups"] = m.groups;
    j["faults"] = nlohmann::json::array();
    for (const auto& fl : m.faults)
        j["faults"].push_back({{"kind", std::string(kindName(fl.kind))}, {"node", fl.node}, {"port", fl.port}, {"peer_node", fl.peerNode},
                               {"peer_port", fl.peerPort}, {"start", fl.start}, {"end", fl.end}});
    std::ofstream(fs::path(dir) / ".expected-findings.json") << j.dump(2) << '\n';
    return m;
}

} // namespace fabscope
