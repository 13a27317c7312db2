#include "core/analysis/rank_hosts.h"

#include <algorithm>

namespace fabscope {

RankHosts::RankHosts(const Fabric& fabric, const std::vector<bool>& aggregation)
    : fabric_(fabric), linkedPort_(fabric.nodes.size()) {
    for (const Link& l : fabric_.links)
        for (const PortId p : {l.a, l.b})
            if (auto& linked = linkedPort_[fabric_.port(p).node.value()]; !linked || p < *linked) linked = p;
    for (std::size_t i = 0; i < fabric_.nodes.size(); ++i) {
        const Node& n = fabric_.nodes[i];
        if (n.type == NodeType::Switch || (i < aggregation.size() && aggregation[i])) continue;  // never a rank's host
        byDescription_[n.description].push_back(i);
        bySystemName_[n.systemName].push_back(i);
        for (std::size_t space = n.description.find(' '); space != std::string::npos; space = n.description.find(' ', space + 1))
            byLeadingWords_[n.description.substr(0, space)].push_back(i);
    }
}

std::optional<std::size_t> RankHosts::first(const Index& index, const std::string& key) {
    const auto it = index.find(key);
    return it == index.end() ? std::nullopt : std::optional<std::size_t>(it->second.front());
}

std::optional<NodeId> RankHosts::node(const std::string& host, const std::string& device) const {
    if (host.empty()) return std::nullopt;
    // The first node named exactly, whichever way; else the first whose description leads with the host.
    std::optional<std::size_t> node;
    for (const auto found : {device.empty() ? std::nullopt : first(byDescription_, host + " " + device), first(byDescription_, host),
                             first(bySystemName_, host)})
        if (found && (!node || *found < *node)) node = found;
    if (!node)
        if (const auto it = byLeadingWords_.find(host); it != byLeadingWords_.end()) {
            const auto holdsDevice = [&](std::size_t i) { return device.empty() || fabric_.nodes[i].description.find(device) != std::string::npos; };
            if (const auto k = std::find_if(it->second.begin(), it->second.end(), holdsDevice); k != it->second.end()) node = *k;
        }
    return node ? std::optional<NodeId>(NodeId(static_cast<std::uint32_t>(*node))) : std::nullopt;
}

std::optional<PortId> RankHosts::port(const std::string& host, const std::string& device) const {
    const auto n = node(host, device);
    return n ? linkedPort_[n->value()] : std::nullopt;
}

std::vector<NodeId> RankHosts::nodesLedBy(const std::string& host) const {
    std::vector<NodeId> out;
    if (const auto it = byLeadingWords_.find(host); it != byLeadingWords_.end())
        for (const std::size_t i : it->second) out.emplace_back(static_cast<std::uint32_t>(i));
    return out;
}

} // namespace fabscope
