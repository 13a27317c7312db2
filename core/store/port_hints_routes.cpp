// The store's per-snapshot port hints (iblinkinfo's supported widths and speeds) and forwarding
// tables (dump_fts, ibroute, ibdiagnet .fdbs).
#include "core/store/snapshot_devices.h"
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

#include <sqlite3.h>

namespace fabscope {

using sql::Stmt;

// Port hints (schema v3).


void Store::writePortHints(std::int64_t snapshotId, const std::vector<PortHint>& hints) {
    SnapshotDevices devices(db_, snapshotId);
    Stmt ins(db_, "INSERT OR REPLACE INTO port_hints VALUES(?1,?2,?3,?4,?5)");
    for (const PortHint& h : hints) {
        const auto dev = devices.find(h.nodeGuid);
        if (!dev) continue;
        ins.bind(1, snapshotId).bind(2, *dev).bind(3, h.port);
        if (h.width) ins.bind(4, *h.width);
        else ins.bindNull(4);
        ins.bind(5, h.speed).run();
    }
}

std::vector<PortHint> Store::portHints(std::int64_t snapshotId) const {
    std::vector<PortHint> out;
    Stmt s(db_, "SELECT d.guid, h.port, h.supported_width, h.supported_speed FROM port_hints h "
                "JOIN devices d ON d.id=h.device_id WHERE h.snapshot_id=?1 ORDER BY d.guid, h.port");
    s.bind(1, snapshotId);
    while (s.step()) {
        PortHint h{s.text(0), s.text(1), std::nullopt, s.text(3)};
        if (!s.isNull(2)) h.width = static_cast<int>(s.integer(2));
        out.push_back(std::move(h));
    }
    return out;
}


// Forwarding tables (schema v3).


std::size_t Store::writeRoutes(std::int64_t snapshotId, const std::vector<SwitchRoutes>& routes) {
    SnapshotDevices devices(db_, snapshotId);
    Stmt ins(db_, "INSERT OR REPLACE INTO routes VALUES(?1,?2,?3)");
    std::size_t written = 0;
    for (const SwitchRoutes& r : routes) {
        const auto dev = devices.find(r.nodeGuid);
        if (!dev) continue;
        const std::string_view bytes(reinterpret_cast<const char*>(r.egress.data()), r.egress.size());
        ins.bind(1, snapshotId).bind(2, *dev).bindBlob(3, bytes).run();
        ++written;
    }
    return written;
}

std::vector<SwitchRoutes> Store::routes(std::int64_t snapshotId) const {
    std::vector<SwitchRoutes> out;
    Stmt s(db_, "SELECT d.guid, r.egress FROM routes r JOIN devices d ON d.id=r.device_id "
                "WHERE r.snapshot_id=?1 ORDER BY d.guid");
    s.bind(1, snapshotId);
    while (s.step()) {
        const auto blob = s.blob(1);
        out.push_back({s.text(0), std::vector<std::uint8_t>(blob.begin(), blob.end())});
    }
    return out;
}

} // namespace fabscope
