#pragma once
// A snapshot's device id by node GUID, for the writers of per-snapshot rows that name nodes by
// GUID (port hints, forwarding tables, tool events): one prepared lookup.
#include "core/store/sqlite_stmt.h"

#include <optional>
#include <string>

namespace fabscope {

class SnapshotDevices {
public:
    SnapshotDevices(sqlite3* db, std::int64_t snapshotId)
        : snapshotId_(snapshotId),
          find_(db, "SELECT d.id FROM devices d JOIN snap_nodes s ON s.device_id=d.id WHERE s.snapshot_id=?1 AND d.guid=?2") {}

    // The device of node `guid` in the snapshot; nullopt when the snapshot does not hold it.
    std::optional<std::int64_t> find(const std::string& guid) {
        const bool found = find_.bind(1, snapshotId_).bind(2, guid).step();
        const std::optional<std::int64_t> id = found ? std::optional<std::int64_t>(find_.integer(0)) : std::nullopt;
        find_.reset();
        return id;
    }

private:
    std::int64_t snapshotId_;
    sql::Stmt find_;
};

// A snapshot's port named by a GUID and port number as ibdiagnet's per-port files name it: the
// node's GUID (a switch), or failing that the port's own GUID (an HCA port, whose number the
// snapshot gives). For the writers of per-port readings (module readings, bit error rates).
class SnapshotPorts {
public:
    struct Found {
        std::int64_t device = 0;
        std::string port;
    };
    SnapshotPorts(sqlite3* db, std::int64_t snapshotId)
        : snapshotId_(snapshotId), nodes_(db, snapshotId), byPortGuid_(db, "SELECT device_id, port FROM snap_ports WHERE snapshot_id=?1 AND port_guid=?2") {}

    std::optional<Found> find(const std::string& guid, const std::string& port) {
        if (const auto device = nodes_.find(guid)) return Found{*device, port};
        std::optional<Found> out;
        if (byPortGuid_.bind(1, snapshotId_).bind(2, guid).step()) out = Found{byPortGuid_.integer(0), byPortGuid_.text(1)};
        byPortGuid_.reset();
        return out;
    }

private:
    std::int64_t snapshotId_;
    SnapshotDevices nodes_;
    sql::Stmt byPortGuid_;
};

} // namespace fabscope
