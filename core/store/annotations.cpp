#include "core/store/annotations.h"

#include "core/store/sqlite_stmt.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <limits>
#include <stdexcept>

namespace fabscope {
namespace {

std::string portsJson(const std::vector<PortRef>& ports) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& p : ports) a.push_back({{"node", p.node}, {"guid", p.guid}, {"port", p.port}});
    return a.dump();
}

std::vector<PortRef> portsFromJson(const std::string& text) {
    std::vector<PortRef> out;
    const auto a = nlohmann::json::parse(text, nullptr, false);
    if (!a.is_array()) return out;  // a hand-edited row should not break reports
    for (const auto& p : a)
        if (p.is_object())
            out.push_back({p.value("node", std::string()), p.value("guid", std::string()), p.value("port", std::string())});
    return out;
}

double now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

} // namespace

std::int64_t addAnnotation(Store& store, const Annotation& a) {
    if (a.note.empty()) throw std::invalid_argument("an annotation needs a note");
    if (a.end < a.start) throw std::invalid_argument("annotation ends before it starts");
    sql::Stmt ins(store.handle(), "INSERT INTO annotations(start, end, note, author, created_at, ports) VALUES(?,?,?,?,?,?)");
    ins.bind(1, a.start).bind(2, a.end).bind(3, a.note).bind(4, a.author).bind(5, a.createdAt > 0 ? a.createdAt : now());
    ins.bind(6, portsJson(a.ports));
    ins.run();
    return sqlite3_last_insert_rowid(store.handle());
}

bool removeAnnotation(Store& store, std::int64_t id) {
    sql::Stmt del(store.handle(), "DELETE FROM annotations WHERE id = ?");
    del.bind(1, id).run();
    return sqlite3_changes(store.handle()) > 0;
}

std::vector<Annotation> annotations(const Store& store, std::optional<double> from, std::optional<double> to) {
    std::vector<Annotation> out;
    sql::Stmt q(store.handle(),
                "SELECT id, start, end, note, author, created_at, ports FROM annotations "
                "WHERE end >= ? AND start <= ? ORDER BY start, id");
    q.bind(1, from.value_or(-std::numeric_limits<double>::max())).bind(2, to.value_or(std::numeric_limits<double>::max()));
    while (q.step())
        out.push_back({q.integer(0), q.real(1), q.real(2), q.text(3), q.text(4), q.real(5), portsFromJson(q.text(6))});
    return out;
}

} // namespace fabscope
