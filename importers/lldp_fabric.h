#pragma once
// What every lldpctl output form (-f json, json0, keyvalue) says about one device, and the fabric
// built from it: the local system, its neighbours and one link per neighbour. The forms differ only
// in syntax, so they share this step and build the same fabric for the same neighbours.
#include "importers/importer.h"

#include <string>
#include <vector>

namespace fabscope {

struct LldpChassis {
    std::string name;  // sysname; empty when not sent
    std::string id;    // chassis id value (MAC, IP, local string)
    bool bridge = false, router = false, station = false;  // enabled capabilities
};

struct LldpNeighbour {
    std::string localPort;  // the local interface the neighbour was seen on
    std::int64_t line = 0;  // where it starts in the file, for diagnostics
    bool hasChassis = false, hasPort = false;
    LldpChassis chassis;
    std::string portIdType;  // "ifname", "mac", "local", ...
    std::string portId;
    std::string portDescr;
    std::string portMau;  // auto-negotiation "current": the operational MAU type ("400GbaseR - ...")
};

// The neighbour's port name: the id when it is an interface name, else the description when
// given (lldpd on hosts sends the MAC as id and the interface name as description), else the id.
std::string lldpRemotePortName(const LldpNeighbour& n);

// Builds the fabric of one lldpctl capture. `local.name` must be set (from the file or its name).
Fabric buildLldpFabric(const LldpChassis& local, const std::vector<LldpNeighbour>& neighbours, DiagnosticSink& diag,
                       const ProgressFn& progress);

// "dir/leaf03.json" -> "leaf03" (the extensions .json, .json0, .txt, .out, .lldp, .kv, .keyvalue are dropped).
std::string systemNameFromFileName(std::string_view path);

} // namespace fabscope
