#include "core/model.h"

#include <algorithm>

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

} // namespace fabscope
