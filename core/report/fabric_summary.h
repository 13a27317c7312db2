#pragma once
// The fabric half of a report: what is there (nodes, tiers, link generations) and how much each
// switch can send up against what it can receive from below (oversubscription).
#include "core/model.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace fabscope {

struct TierCount {
    int tier = 0;             // 0 hosts, 1 leaves, 2 spines, ...; -1 unconnected
    std::string role;         // "host", "leaf", "spine", "core", "tier 4", "unconnected"
    std::size_t switches = 0, cas = 0, routers = 0;
};

struct LinkGeneration {
    std::string linkClass;    // "host links", "leaf-spine links", ...
    std::string widthSpeed;   // "4xHDR", "1xHDR", "??x???"
    double gbps = 0;          // capacity of one such link, 0 when unknown
    std::size_t links = 0;
};

struct SwitchOversubscription {
    std::string node;         // description as the fabric reports it
    int tier = 0;
    std::size_t downLinks = 0, upLinks = 0;
    double downGbps = 0, upGbps = 0;     // capacity the links run at now
    double nominalDownGbps = 0, nominalUpGbps = 0;  // if every link ran at its class's usual rate
    [[nodiscard]] double ratio() const { return upGbps > 0 ? downGbps / upGbps : 0; }
    [[nodiscard]] double nominalRatio() const { return nominalUpGbps > 0 ? nominalDownGbps / nominalUpGbps : 0; }
};

struct FabricSummary {
    std::size_t switches = 0, cas = 0, routers = 0, ports = 0, links = 0;
    std::vector<int> tierOfNode;           // computeTiers(), same order as fabric.nodes
    std::vector<TierCount> tiers;          // by tier, ascending (-1 last)
    std::vector<LinkGeneration> generations;
    std::vector<SwitchOversubscription> oversubscription;  // switches with links both below and above
};

// Role name of a tier in a fat tree: 0 host, 1 leaf, 2 spine, 3 core.
std::string tierRole(int tier);
// "host links" or "leaf-spine links": the class a link is compared within.
std::string linkClassName(int tierA, int tierB, bool bothSwitches);

FabricSummary summariseFabric(const Fabric& fabric);

} // namespace fabscope
