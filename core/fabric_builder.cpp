#include "core/fabric_builder.h"

#include "core/linkrate.h"

#include <cctype>

namespace fabscope {

std::string normaliseGuid(std::string_view g) {
    if (g.starts_with("0x") || g.starts_with("0X")) g.remove_prefix(2);
    if (g.empty() || g.size() > 16) return {};
    std::string out = "0x";
    bool leading = true;
    for (char c : g) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) return {};
        if (leading && c == '0') continue;
        leading = false;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (leading) out += '0';
    return out;
}

std::string FabricBuilder::nodeKey(const Node& n) {
    if (!n.guid.empty()) return "g:" + n.guid;
    return "n:" + (n.systemName.empty() ? n.description : n.systemName);
}

NodeId FabricBuilder::node(const Node& n) {
    const std::string key = nodeKey(n);
    if (auto it = nodes_.find(key); it != nodes_.end()) {
        Node& have = fabric_.nodes[it->second.value()];
        if (have.description.empty()) have.description = n.description;
        if (have.systemName.empty()) have.systemName = n.systemName;
        if (have.numPorts == 0) have.numPorts = n.numPorts;
        if (have.lid == 0) have.lid = n.lid;
        // An Ethernet node first met as an LLDP neighbour is assumed a host; a later report that
        // it is a switch (its own capture, capabilities) wins. GUID-identified nodes keep their type.
        if (have.guid.empty() && have.type == NodeType::Ca && n.type == NodeType::Switch) have.type = NodeType::Switch;
        return it->second;
    }
    const NodeId id(fabric_.nodes.size());
    fabric_.nodes.push_back(n);
    nodes_.emplace(key, id);
    return id;
}

PortId FabricBuilder::port(NodeId node, const std::string& name, int number) {
    std::string key = std::to_string(node.value());
    key += '/';
    key += name;
    if (auto it = ports_.find(key); it != ports_.end()) return it->second;
    const PortId id(fabric_.ports.size());
    Port p;
    p.node = node;
    p.name = name;
    p.number = number;
    fabric_.ports.push_back(std::move(p));
    ports_.emplace(std::move(key), id);
    return id;
}

namespace {
// "b8:ce:f6:00:00:11": the MAC an LLDP agent sends as port id when it does not send the ifname.
bool isMac(std::string_view s) {
    if (s.size() != 17) return false;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (i % 3 == 2 ? s[i] != ':' && s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}
} // namespace

PortId FabricBuilder::resolve(PortId p) const {
    const auto it = foldedInto_.find(p.value());
    return it == foldedInto_.end() ? p : it->second;
}

bool FabricBuilder::foldAlias(PortId kept, PortId dup) {
    Port& k = fabric_.ports[kept.value()];
    const Port& d = fabric_.ports[dup.value()];
    if (k.node != d.node || !fabric_.nodes[k.node.value()].guid.empty() || linkByPort_.count(dup.value())) return false;
    if (isMac(k.name) == isMac(d.name)) return false;  // two interface names: a real conflict
    if (isMac(k.name)) {
        std::string key = std::to_string(k.node.value()) + '/' + d.name;
        ports_[key] = kept;
        k.name = d.name;
    }
    foldedInto_.emplace(dup.value(), kept);
    return true;
}

FabricBuilder::LinkReport FabricBuilder::link(PortId local, PortId remote, std::optional<int> width,
                                              const std::string& speed) {
    local = resolve(local);
    remote = resolve(remote);
    if (local == remote) return LinkReport::Loop;
    const auto cap = capacityBps(width, speed);
    for (PortId p : {local, remote}) {
        Port& port = fabric_.ports[p.value()];
        if (!port.width) port.width = width;
        if (port.speed.empty() || port.speed == "???") port.speed = speed;
        if (port.capacityBps == 0) port.capacityBps = cap;
    }
    if (auto it = linkByPort_.find(local.value()); it != linkByPort_.end()) {
        Link& l = fabric_.links[it->second.value()];
        const PortId other = l.a == local ? l.b : l.a;
        if (other != remote) return foldAlias(other, remote) ? link(local, other, width, speed) : LinkReport::Conflict;
        if (reportedBy_[it->second.value()] == local.value() + 1) return LinkReport::Repeated;
        l.seenFromBothEnds = true;
        if (l.width == width && l.speed == speed) return LinkReport::Confirmed;
        // Keep the slower view: a degraded link must not hide behind the other end's report.
        if (cap > 0 && (l.capacityBps == 0 || cap < l.capacityBps)) {
            l.width = width;
            l.speed = speed;
            l.capacityBps = cap;
            for (PortId p : {l.a, l.b}) {
                Port& port = fabric_.ports[p.value()];
                port.width = width;
                port.speed = speed;
                port.capacityBps = cap;
            }
        }
        return LinkReport::WidthMismatch;
    }
    if (auto it = linkByPort_.find(remote.value()); it != linkByPort_.end()) {
        const Link& l = fabric_.links[it->second.value()];
        const PortId other = l.a == remote ? l.b : l.a;
        return foldAlias(other, local) ? link(other, remote, width, speed) : LinkReport::Conflict;
    }
    const LinkId id(fabric_.links.size());
    Link l;
    l.a = local;
    l.b = remote;
    l.width = width;
    l.speed = speed;
    l.capacityBps = cap;
    l.seenFromBothEnds = false;
    fabric_.links.push_back(std::move(l));
    linkByPort_.emplace(local.value(), id);
    linkByPort_.emplace(remote.value(), id);
    reportedBy_.emplace(id.value(), local.value() + 1);
    return LinkReport::Added;
}

void FabricBuilder::merge(const Fabric& other) {
    std::vector<NodeId> nodeMap;
    nodeMap.reserve(other.nodes.size());
    for (const Node& n : other.nodes) nodeMap.push_back(node(n));
    std::vector<PortId> portMap;
    portMap.reserve(other.ports.size());
    for (const Port& p : other.ports) {
        const PortId id = port(nodeMap[p.node.value()], p.name, p.number);
        Port& have = fabric_.ports[id.value()];
        if (have.portGuid.empty()) have.portGuid = p.portGuid;
        if (have.lid == 0) have.lid = p.lid;
        have.state = p.state;
        portMap.push_back(id);
    }
    for (const Link& l : other.links) {
        link(portMap[l.a.value()], portMap[l.b.value()], l.width, l.speed);
        if (l.seenFromBothEnds) link(portMap[l.b.value()], portMap[l.a.value()], l.width, l.speed);
    }
}

Fabric FabricBuilder::take() {
    if (!foldedInto_.empty()) {  // drop the folded duplicates; no link refers to them
        std::vector<std::uint32_t> newIndex(fabric_.ports.size());
        std::vector<Port> kept;
        kept.reserve(fabric_.ports.size() - foldedInto_.size());
        for (std::size_t i = 0; i < fabric_.ports.size(); ++i) {
            newIndex[i] = static_cast<std::uint32_t>(kept.size());
            if (!foldedInto_.count(i)) kept.push_back(std::move(fabric_.ports[i]));
        }
        fabric_.ports = std::move(kept);
        for (Link& l : fabric_.links) {
            l.a = PortId(newIndex[l.a.value()]);
            l.b = PortId(newIndex[l.b.value()]);
        }
    }
    foldedInto_.clear();
    nodes_.clear();
    ports_.clear();
    linkByPort_.clear();
    reportedBy_.clear();
    return std::move(fabric_);
}

} // namespace fabscope
