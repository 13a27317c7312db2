#include "core/model.h"

#include <algorithm>
#include <cctype>

namespace fabscope {

std::string_view toString(NodeType t) {
    switch (t) {
    case NodeType::Switch: return "switch";
    case NodeType::Ca: return "ca";
    case NodeType::Router: return "router";
    }
    return "ca";
}

std::optional<NodeType> nodeTypeFromString(std::string_view s) {
    if (s == "switch") return NodeType::Switch;
    if (s == "ca") return NodeType::Ca;
    if (s == "router") return NodeType::Router;
    return std::nullopt;
}

std::size_t Fabric::count(NodeType t) const {
    return static_cast<std::size_t>(
        std::count_if(nodes.begin(), nodes.end(), [t](const Node& n) { return n.type == t; }));
}

namespace {

bool describedAsAggregationNode(const std::string& d) {
    std::string lower(d);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("aggregation node") != std::string::npos;
}

} // namespace

std::vector<bool> findAggregationNodes(const Fabric& f) {
    std::vector<bool> byName(f.nodes.size(), false), byPlace(f.nodes.size(), false), elsewhere(f.nodes.size(), false);
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        byName[i] = f.nodes[i].type == NodeType::Ca && describedAsAggregationNode(f.nodes[i].description);
    // Renamed by a node-name map: still recognisable by where it sits, the last port of a
    // 41-port (QM8700) or 65-port (QM9700/9701) switch, the port the ASIC keeps for it.
    for (const Link& l : f.links) {
        for (const auto& [mine, other] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
            const auto me = f.port(mine).node.value();
            if (f.nodes[me].type != NodeType::Ca) continue;
            const Port& p = f.port(other);
            const Node& sw = f.node(p.node);
            const bool internal = sw.type == NodeType::Switch && (sw.numPorts == 41 || sw.numPorts == 65) && p.number == sw.numPorts;
            (internal ? byPlace : elsewhere)[me] = true;
        }
    }
    std::vector<bool> out(f.nodes.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = byName[i] || (byPlace[i] && !elsewhere[i]);
    return out;
}

std::size_t countHosts(const Fabric& f) {
    const auto agg = findAggregationNodes(f);
    std::size_t n = 0;
    for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (f.nodes[i].type == NodeType::Ca && !agg[i]) ++n;
    return n;
}

} // namespace fabscope
