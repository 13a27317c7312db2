#include "importers/lldp_fabric.h"

#include "core/fabric_builder.h"
#include "core/linkrate.h"

#include <filesystem>

namespace fabscope {
namespace {

// Host NIC names (eth0, ens1f0np0, enp3s0, eno1, ib0, mlx5_0, bond0) as opposed to switch ports.
bool hostInterfaceName(std::string_view n) {
    for (std::string_view p : {"eth", "en", "ib", "mlx", "bond", "hsn"})
        if (n.starts_with(p) && n.size() > p.size() && !n.starts_with("Ethernet")) return true;
    return false;
}

} // namespace

std::string lldpRemotePortName(const LldpNeighbour& n) {
    if (n.portIdType == "ifname" && !n.portId.empty()) return n.portId;
    if (!n.portDescr.empty()) return n.portDescr;
    return n.portId;
}

std::string systemNameFromFileName(std::string_view path) {
    std::string name = std::filesystem::path(std::string(path)).filename().string();
    for (bool again = true; again;) {
        again = false;
        for (std::string_view ext : {".json", ".json0", ".txt", ".out", ".lldp", ".kv", ".keyvalue"})
            if (name.size() > ext.size() && std::string_view(name).ends_with(ext)) {
                name.resize(name.size() - ext.size());
                again = true;
            }
    }
    return name;
}

Fabric buildLldpFabric(const LldpChassis& local, const std::vector<LldpNeighbour>& neighbours, DiagnosticSink& diag,
                       const ProgressFn& progress) {
    if (neighbours.empty()) diag.warn(0, "no LLDP neighbours in the file: " + local.name + " is kept with no links");

    bool anyStation = false, allHostNames = !neighbours.empty();
    for (const auto& nb : neighbours) {
        if (nb.hasChassis && nb.chassis.station) anyStation = true;
        if (!hostInterfaceName(nb.localPort)) allHostNames = false;
    }
    Node localNode;
    localNode.systemName = local.name;
    localNode.description = local.name;
    if (local.bridge || local.router)
        localNode.type = NodeType::Switch;
    else if (local.station)
        localNode.type = NodeType::Ca;
    else  // not said: a host when every local interface is a NIC name and no neighbour is a plain station
        localNode.type = allHostNames && !anyStation ? NodeType::Ca : NodeType::Switch;

    FabricBuilder b;
    const NodeId localId = b.node(localNode);
    std::size_t done = 0;
    for (const auto& nb : neighbours) {
        const auto& ifname = nb.localPort;
        if (ifname.empty()) diag.fail(nb.line, "interface without a name");
        if (!nb.hasChassis || !nb.hasPort) {
            diag.warn(nb.line, "interface " + ifname + ": neighbour without chassis or port: skipped");
            continue;
        }
        const LldpChassis& c = nb.chassis;
        Node n;
        n.type = c.bridge || c.router ? NodeType::Switch : NodeType::Ca;
        n.systemName = c.name.empty() ? c.id : c.name;
        n.description = n.systemName;
        if (n.systemName.empty()) {
            diag.warn(nb.line, "interface " + ifname + ": neighbour chassis has neither a name nor an id: skipped");
            continue;
        }
        if (c.name.empty())
            diag.warn(nb.line, "interface " + ifname + ": neighbour sends no system name; named by its chassis id " + c.id);
        const std::string remotePort = lldpRemotePortName(nb);
        if (remotePort.empty()) {
            diag.warn(nb.line, "interface " + ifname + ": neighbour port has no id: skipped");
            continue;
        }
        const NodeId rid = b.node(n);
        if (rid == localId) {
            diag.warn(nb.line, "interface " + ifname + ": the neighbour is the local system itself: skipped");
            continue;
        }
        const PortId lp = b.port(localId, ifname, 0);
        const PortId rp = b.port(rid, remotePort, 0);
        // The neighbour's MAU type is the link's speed (both ends of a link run at one speed).
        const bool stated = !nb.portMau.empty() && nb.portMau != "unknown";  // lldpd: MAU type 0
        const auto speed = stated ? ethernetSpeed(nb.portMau) : std::nullopt;
        if (stated && !speed)
            diag.warn(nb.line, "interface " + ifname + ": MAU type '" + nb.portMau.substr(0, 40) + "' names no speed");
        if (b.link(lp, rp, speed ? std::optional<int>(1) : std::nullopt, speed.value_or("")) == FabricBuilder::LinkReport::Conflict)
            diag.warn(nb.line, "interface " + ifname + ": second neighbour " + n.systemName + " " + remotePort +
                                   " (a port has one link); the first is kept");
        if (progress && ++done % 256 == 0 && !progress(static_cast<double>(done) / static_cast<double>(neighbours.size())))
            throw ImportCancelled();
    }
    return b.take();
}

} // namespace fabscope
