// The stored topology read back: snapshots, the fabric of one (its blob, else its tables), and
// the names its devices go by. Writing a snapshot stays in store.cpp with the store's statements.
#include "core/store/store.h"

#include "core/fabric_codec.h"
#include "core/store/sqlite_stmt.h"

#include <sqlite3.h>

#include <string>
#include <vector>

namespace fabscope {

using sql::Stmt;

namespace {
SnapshotInfo snapshotRow(const Stmt& s) { return {s.integer(0), s.text(1), s.real(2), s.integer(3) != 0}; }
// "SELECT id, label, time, planned FROM snapshots " + rest; a store before v15 opened read-only has no plans.
std::string selectSnapshots(int schemaVersion, const char* rest) {
    return std::string("SELECT id, label, time, ") + (schemaVersion >= 15 ? "planned" : "0 AS planned") + " FROM snapshots " + rest;
}
} // namespace

// The discovered fabrics; the plans where there is none (ordered plans last, then kept while unplanned).
std::vector<SnapshotInfo> Store::snapshots() const {
    std::vector<SnapshotInfo> out;
    Stmt s(db_, selectSnapshots(schemaVersion(), "ORDER BY planned, time, id"));
    while (s.step()) {
        SnapshotInfo row = snapshotRow(s);
        if (row.planned && !out.empty() && !out.front().planned) break;
        out.push_back(std::move(row));
    }
    return out;
}

std::optional<SnapshotInfo> Store::latestSnapshot() const {
    Stmt s(db_, selectSnapshots(schemaVersion(), "ORDER BY planned, time DESC, id DESC LIMIT 1"));
    if (!s.step()) return std::nullopt;
    return snapshotRow(s);
}

std::vector<SnapshotInfo> Store::plans() const {
    std::vector<SnapshotInfo> out;
    Stmt s(db_, selectSnapshots(schemaVersion(), "WHERE planned=1 ORDER BY time, id"));
    while (s.step()) out.push_back(snapshotRow(s));
    return out;
}

std::optional<SnapshotInfo> Store::snapshotByLabel(const std::string& label) const {
    Stmt s(db_, selectSnapshots(schemaVersion(), "WHERE label=?1 ORDER BY planned, id DESC LIMIT 1"));
    s.bind(1, label);
    if (!s.step()) return std::nullopt;
    return snapshotRow(s);
}

namespace {
// Rows are read in primary-key order and placed by their `ord` column: asking SQLite for
// ORDER BY ord would sort every row of a 166k-port fabric in a temporary B-tree first.
template <typename T>
T& slotAt(std::vector<T>& items, std::vector<bool>& filled, std::int64_t ord, const char* what) {
    if (ord < 0 || static_cast<std::size_t>(ord) >= items.size() || filled[static_cast<std::size_t>(ord)])
        throw StoreError(std::string("store: ") + what + " with a bad position");
    filled[static_cast<std::size_t>(ord)] = true;
    return items[static_cast<std::size_t>(ord)];
}

std::size_t rowCount(sqlite3* db, const char* table, std::int64_t snapshotId) {
    Stmt c(db, std::string("SELECT count(*) FROM ") + table + " WHERE snapshot_id=?1");
    c.bind(1, snapshotId);
    c.step();
    return static_cast<std::size_t>(c.integer(0));
}
} // namespace

Fabric Store::loadFabric(std::int64_t snapshotId) const {
    if (auto f = decodeFabric(fabricBlob(snapshotId))) return std::move(*f);
    return loadFabricFromTables(snapshotId);  // no blob (written before v5) or a damaged one
}

std::string Store::fabricBlob(std::int64_t snapshotId) const {
    Stmt b(db_, "SELECT data FROM snapshot_fabric WHERE snapshot_id=?1 AND format=?2");
    b.bind(1, snapshotId).bind(2, kFabricBlobFormat);
    return b.step() ? std::string(b.blob(0)) : std::string();
}

Fabric Store::loadFabricFromTables(std::int64_t snapshotId) const {
    Fabric f;
    std::vector<std::pair<std::int64_t, std::uint32_t>> devToNode;  // device id -> node index
    f.nodes.resize(rowCount(db_, "snap_nodes", snapshotId));
    std::vector<bool> filled(f.nodes.size());
    Stmt n(db_, "SELECT s.ord, s.device_id, s.type, s.description, s.system_name, s.num_ports, s.lid, d.guid "
                "FROM snap_nodes s JOIN devices d ON d.id=s.device_id WHERE s.snapshot_id=?1");
    n.bind(1, snapshotId);
    while (n.step()) {
        Node& node = slotAt(f.nodes, filled, n.integer(0), "node");
        node.type = static_cast<NodeType>(n.integer(2));
        node.description = n.text(3);
        node.systemName = n.text(4);
        node.numPorts = static_cast<int>(n.integer(5));
        node.lid = static_cast<int>(n.integer(6));
        node.guid = n.text(7);
        devToNode.emplace_back(n.integer(1), static_cast<std::uint32_t>(n.integer(0)));
    }
    if (std::find(filled.begin(), filled.end(), false) != filled.end()) throw StoreError("store: node without a device");
    std::sort(devToNode.begin(), devToNode.end());

    f.ports.resize(rowCount(db_, "snap_ports", snapshotId));
    filled.assign(f.ports.size(), false);
    Stmt p(db_, "SELECT ord, device_id, port, number, port_guid, lid, width, speed, capacity_bps, state FROM snap_ports "
                "WHERE snapshot_id=?1");
    p.bind(1, snapshotId);
    while (p.step()) {
        Port& port = slotAt(f.ports, filled, p.integer(0), "port");
        auto it = std::lower_bound(devToNode.begin(), devToNode.end(), std::pair{p.integer(1), std::uint32_t{0}});
        if (it == devToNode.end() || it->first != p.integer(1)) throw StoreError("store: port of an unknown node");
        port.node = NodeId(it->second);
        port.name = p.text(2);
        port.number = static_cast<int>(p.integer(3));
        port.portGuid = p.text(4);
        port.lid = static_cast<int>(p.integer(5));
        if (!p.isNull(6)) port.width = static_cast<int>(p.integer(6));
        port.speed = p.text(7);
        port.capacityBps = static_cast<std::uint64_t>(p.integer(8));
        port.state = static_cast<PortState>(p.integer(9));
    }
    if (std::find(filled.begin(), filled.end(), false) != filled.end()) throw StoreError("store: missing port row");
    Stmt l(db_, "SELECT a_port_ord, b_port_ord, width, speed, capacity_bps, both_ends FROM snap_links "
                "WHERE snapshot_id=?1 ORDER BY rowid");
    l.bind(1, snapshotId);
    while (l.step()) {
        Link link;
        link.a = PortId(static_cast<std::uint32_t>(l.integer(0)));
        link.b = PortId(static_cast<std::uint32_t>(l.integer(1)));
        if (link.a.value() >= f.ports.size() || link.b.value() >= f.ports.size())
            throw StoreError("store: link to an unknown port");
        if (!l.isNull(2)) link.width = static_cast<int>(l.integer(2));
        link.speed = l.text(3);
        link.capacityBps = static_cast<std::uint64_t>(l.integer(4));
        link.seenFromBothEnds = l.integer(5) != 0;
        f.links.push_back(std::move(link));
    }
    return f;
}

std::vector<std::int64_t> Store::deviceIds(std::int64_t snapshotId) const {
    std::vector<std::int64_t> out(rowCount(db_, "snap_nodes", snapshotId));
    std::vector<bool> filled(out.size());
    Stmt s(db_, "SELECT ord, device_id FROM snap_nodes WHERE snapshot_id=?1");  // key order, placed by ord
    s.bind(1, snapshotId);
    while (s.step()) slotAt(out, filled, s.integer(0), "node") = s.integer(1);
    return out;
}

std::vector<std::pair<std::string, std::int64_t>> Store::deviceNames() const {
    std::vector<std::pair<std::string, std::int64_t>> out;
    const auto latest = latestSnapshot();
    if (!latest) return out;
    Stmt s(db_, "SELECT d.guid, d.name, s.description, s.system_name, d.id FROM snap_nodes s "
                "JOIN devices d ON d.id=s.device_id WHERE s.snapshot_id=?1");
    s.bind(1, latest->id);
    while (s.step()) {
        const auto id = s.integer(4);
        for (int c = 0; c < 4; ++c) {
            std::string name = s.text(c);
            if (!name.empty()) out.emplace_back(std::move(name), id);
        }
    }
    return out;
}

} // namespace fabscope
