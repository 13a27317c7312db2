#pragma once
// A snapshot's device id by node GUID, for the writers of per-snapshot rows that name nodes by
// GUID (port hints, forwarding tables, module readings, tool events): one prepared lookup.
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

} // namespace fabscope
