// The store's tool-reported events per snapshot (schema v13, fabric_events). See fabric_events.h.
#include "core/store/fabric_events.h"

#include "core/store/snapshot_devices.h"
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

namespace fabscope {

std::size_t writeFabricEvents(Store& store, std::int64_t snapshotId, const std::vector<FabricEvent>& events) {
    if (events.empty()) return 0;
    SnapshotDevices devices(store.handle(), snapshotId);
    sql::Stmt ins(store.handle(), "INSERT INTO fabric_events(snapshot_id, device_id, port, error, check_name, name, summary, line, tool) "
                                  "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
    std::size_t written = 0;
    for (const FabricEvent& e : events) {
        const auto device = devices.find(e.nodeGuid);
        if (!device) continue;
        ins.bind(1, snapshotId).bind(2, *device).bind(3, e.port).bind(4, e.error ? 1 : 0).bind(5, e.check).bind(6, e.name)
            .bind(7, e.summary).bind(8, e.line).bind(9, e.tool).run();
        ++written;
    }
    return written;
}

std::vector<FabricEvent> loadFabricEvents(const Store& store, std::int64_t snapshotId) {
    std::vector<FabricEvent> out;
    if (store.schemaVersion() < 13) return out;
    const bool hasTool = store.schemaVersion() >= 14;  // a v13 store opened read-only: all ibdiagnet's
    sql::Stmt s(store.handle(), std::string("SELECT d.guid, e.port, e.error, e.check_name, e.name, e.summary, e.line, ") +
                                    (hasTool ? "e.tool" : "'ibdiagnet'") +
                                    " FROM fabric_events e JOIN devices d ON d.id=e.device_id WHERE e.snapshot_id=?1 ORDER BY e.rowid");
    s.bind(1, snapshotId);
    while (s.step()) {
        FabricEvent e;
        e.nodeGuid = s.text(0);
        e.port = s.text(1);
        e.error = s.integer(2) != 0;
        e.check = s.text(3);
        e.name = s.text(4);
        e.summary = s.text(5);
        e.line = s.integer(6);
        e.tool = s.text(7);
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace fabscope
