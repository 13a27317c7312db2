#include "importers/importer.h"

namespace fabscope {

FabricIndex FabricIndex::from(const Fabric& f) {
    FabricIndex ix;
    for (const Node& n : f.nodes) {
        if (n.lid > 0 && !n.guid.empty()) ix.nodeGuidByLid.emplace(n.lid, n.guid);
        if (!n.guid.empty()) ix.nodeGuids.insert(n.guid);
    }
    for (const Port& p : f.ports) {
        const Node& n = f.node(p.node);
        if (n.guid.empty()) continue;
        // A switch's ports all answer on its port-0 LID, which the node already maps.
        if (p.lid > 0 && n.type != NodeType::Switch) ix.nodeGuidByLid.emplace(p.lid, n.guid);
        if (!p.portGuid.empty()) ix.byPortGuid.emplace(p.portGuid, std::make_pair(n.guid, p.number));
    }
    return ix;
}

} // namespace fabscope
