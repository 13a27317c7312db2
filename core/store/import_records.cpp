// Reading the import records: what the runner asks before a file is imported ("already
// imported?") and what `info` and the GUI's Imports list show.
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

namespace fabscope {
namespace {

// The columns every query below selects, in this order.
constexpr const char* kColumns = "id, file, sha256, format, rows, imported_at, IFNULL(snapshot_id, 0)";

ImportRecord recordAt(const sql::Stmt& s) {
    return {s.integer(0), s.text(1), s.text(2), s.text(3), s.integer(4), s.real(5), s.integer(6),
            s.isNull(7) ? std::nullopt : std::optional<std::string>(s.text(7))};
}

} // namespace

std::vector<ImportRecord> Store::findImports(const std::string& sha256) const {
    std::vector<ImportRecord> out;
    sql::Stmt s(db_, std::string("SELECT ") + kColumns + ", name_key FROM imports WHERE sha256=?1 ORDER BY id");
    s.bind(1, sha256);
    while (s.step()) out.push_back(recordAt(s));
    return out;
}

std::optional<ImportRecord> Store::findImport(const std::string& sha256, const std::string& nameKey) const {
    for (ImportRecord& r : findImports(sha256))
        if (!r.nameKey || *r.nameKey == nameKey) return std::move(r);
    return std::nullopt;
}

std::vector<ImportRecord> Store::imports() const {
    std::vector<ImportRecord> out;
    // A store opened read-only and not migrated may predate the names (schema 17).
    sql::Stmt s(db_, std::string("SELECT ") + kColumns + (schemaVersion() >= 17 ? ", name_key" : ", NULL") + " FROM imports ORDER BY id");
    while (s.step()) out.push_back(recordAt(s));
    return out;
}

} // namespace fabscope
