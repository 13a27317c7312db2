#include "core/analysis/rank_hosts.h"

#include "core/analysis/context.h"

#include <algorithm>

namespace fabscope {

RankHosts::RankHosts(const AnalysisContext& ctx, const std::vector<bool>& aggregation)
    : fabric_(ctx.fabric()), linkedPort_(ctx.fabric().nodes.size()) {
    for (std::size_t i = 0; i < fabric_.nodes.size(); ++i) {
        const Node& n = fabric_.nodes[i];
        if (n.type == NodeType::Switch || aggregation[i]) continue;  // an aggregation node is never a rank's host
        byDescription_[n.description].push_back(i);
        bySystemName_[n.systemName].push_back(i);
        for (std::size_t space = n.description.find(' '); space != std::string::npos; space = n.description.find(' ', space + 1))
            byLeadingWords_[n.description.substr(0, space)].push_back(i);
    }
    for (std::size_t p = 0; p < fabric_.ports.size(); ++p) {
        auto& linked = linkedPort_[fabric_.ports[p].node.value()];
        if (!linked && ctx.linkOf(PortId(p))) linked = PortId(p);
    }
}

std::optional<std::size_t> RankHosts::first(const std::unordered_map<std::string, std::vector<std::size_t>>& index,
                                            const std::string& key) const {
    const auto it = index.find(key);
    return it == index.end() ? std::nullopt : std::optional<std::size_t>(it->second.front());
}

std::optional<PortId> RankHosts::port(const std::string& host, const std::string& device) const {
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
    return node ? linkedPort_[*node] : std::nullopt;
}

} // namespace fabscope
