// The store's per-port FEC and bit error rates per snapshot (schema v16, port_ber). See port_ber.h.
#include "core/store/port_ber.h"

#include "core/store/snapshot_devices.h"
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

namespace fabscope {

std::size_t writePortBer(Store& store, std::int64_t snapshotId, const std::vector<PortBer>& readings) {
    if (readings.empty()) return 0;
    SnapshotPorts ports(store.handle(), snapshotId);
    sql::Stmt ins(store.handle(), "INSERT OR REPLACE INTO port_ber VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
    auto optReal = [&ins](int at, const std::optional<double>& v) {
        if (v) ins.bind(at, *v);
        else ins.bindNull(at);
    };
    auto optInt = [&ins](int at, const std::optional<std::int64_t>& v) {
        if (v) ins.bind(at, *v);
        else ins.bindNull(at);
    };
    std::size_t written = 0;
    for (const PortBer& b : readings) {
        const auto at = ports.find(b.nodeGuid, b.port);
        if (!at) continue;
        ins.bind(1, snapshotId).bind(2, at->device).bind(3, at->port).bind(4, b.fecMode);
        optReal(5, b.rawBer);
        optReal(6, b.effectiveBer);
        optReal(7, b.symbolBer);
        optInt(8, b.symbolErrors);
        optInt(9, b.effectiveErrors);
        ins.bind(10, b.line).run();
        ++written;
    }
    return written;
}

std::vector<PortBer> loadPortBer(const Store& store, std::int64_t snapshotId) {
    std::vector<PortBer> out;
    if (store.schemaVersion() < 16) return out;
    sql::Stmt s(store.handle(), "SELECT d.guid, b.port, b.fec_mode, b.raw_ber, b.effective_ber, b.symbol_ber, b.symbol_errors, "
                                "b.effective_errors, b.line FROM port_ber b JOIN devices d ON d.id=b.device_id "
                                "WHERE b.snapshot_id=?1 ORDER BY d.guid, b.port");
    s.bind(1, snapshotId);
    while (s.step()) {
        PortBer b;
        b.nodeGuid = s.text(0);
        b.port = s.text(1);
        b.fecMode = s.text(2);
        if (!s.isNull(3)) b.rawBer = s.real(3);
        if (!s.isNull(4)) b.effectiveBer = s.real(4);
        if (!s.isNull(5)) b.symbolBer = s.real(5);
        if (!s.isNull(6)) b.symbolErrors = s.integer(6);
        if (!s.isNull(7)) b.effectiveErrors = s.integer(7);
        b.line = s.integer(8);
        out.push_back(std::move(b));
    }
    return out;
}

bool hasPortBerRates(const Store& store, std::int64_t snapshotId) {
    if (store.schemaVersion() < 16) return false;
    sql::Stmt s(store.handle(), "SELECT EXISTS(SELECT 1 FROM port_ber WHERE snapshot_id=?1 AND "
                                "(raw_ber IS NOT NULL OR effective_ber IS NOT NULL OR symbol_ber IS NOT NULL))");
    s.bind(1, snapshotId);
    return s.step() && s.integer(0) != 0;
}

} // namespace fabscope
