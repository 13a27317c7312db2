#pragma once
// What a diagnostic tool itself reported about a node or port (ibdiagnet's WARNINGS_ and ERRORS_
// sections of ibdiagnet2.db_csv: a firmware older than its peers', a node that did not answer, a
// duplicated description; ibswinfo's power supplies and fans not OK), stored per topology
// snapshot (schema v13, table fabric_events; v14 adds the tool) and shown in the GUI's inspector
// beside the node or port.
#include <cstdint>
#include <string>
#include <vector>

namespace fabscope {

class Store;

struct FabricEvent {
    std::string tool = "ibdiagnet";  // who said so: "ibdiagnet", "ibswinfo"
    std::string nodeGuid;
    std::string port;    // "" when the event is about the node (ibdiagnet's port 0)
    bool error = false;  // an ERRORS_ row, a status not OK; else a warning
    std::string check;   // ibdiagnet's section without its prefix ("FW_CHECK"); ibswinfo's "PSU", "FANS"
    std::string name;    // "NODE_WRONG_FW_VERSION"
    std::string summary;
    std::int64_t line = 0;  // where the file said so
};

// Writes a snapshot's events inside the caller's transaction; events naming a node the snapshot
// does not hold are skipped. Returns how many were written.
std::size_t writeFabricEvents(Store& store, std::int64_t snapshotId, const std::vector<FabricEvent>& events);
// The events of a snapshot in the order they were written; empty for a store before schema 13.
std::vector<FabricEvent> loadFabricEvents(const Store& store, std::int64_t snapshotId);

} // namespace fabscope
