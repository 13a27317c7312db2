#include "core/store/sqlite_stmt.h"

namespace fabscope::sql {

void fail(sqlite3* db, std::string_view what) {
    std::string msg(what);
    msg += ": ";
    msg += sqlite3_errmsg(db);
    throw StoreError(msg);
}

void exec(sqlite3* db, const char* sqlText) {
    char* err = nullptr;
    if (sqlite3_exec(db, sqlText, nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw StoreError("store: " + msg);
    }
}

Stmt::Stmt(sqlite3* db, std::string_view sqlText) : db_(db) {
    if (sqlite3_prepare_v2(db, sqlText.data(), static_cast<int>(sqlText.size()), &stmt_, nullptr) != SQLITE_OK)
        fail(db, "store: cannot prepare statement");
}

Stmt::~Stmt() { sqlite3_finalize(stmt_); }

Stmt& Stmt::bind(int i, std::int64_t v) {
    if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK) fail(db_, "store: bind");
    return *this;
}
Stmt& Stmt::bind(int i, double v) {
    if (sqlite3_bind_double(stmt_, i, v) != SQLITE_OK) fail(db_, "store: bind");
    return *this;
}
Stmt& Stmt::bind(int i, std::string_view t) {
    if (sqlite3_bind_text64(stmt_, i, t.data(), t.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
        fail(db_, "store: bind");
    return *this;
}
namespace {
// An empty view may have a null data pointer, which SQLite would store as NULL, not as X''.
int bindBytes(sqlite3_stmt* stmt, int i, std::string_view b, sqlite3_destructor_type lifetime) {
    return b.empty() ? sqlite3_bind_zeroblob(stmt, i, 0) : sqlite3_bind_blob64(stmt, i, b.data(), b.size(), lifetime);
}
} // namespace

Stmt& Stmt::bindBlob(int i, std::string_view b) {
    if (bindBytes(stmt_, i, b, SQLITE_TRANSIENT) != SQLITE_OK) fail(db_, "store: bind");
    return *this;
}
Stmt& Stmt::bindBorrowedBlob(int i, std::string_view b) {
    if (bindBytes(stmt_, i, b, SQLITE_STATIC) != SQLITE_OK) fail(db_, "store: bind");
    return *this;
}
Stmt& Stmt::bindBorrowedText(int i, std::string_view t) {
    // An empty view may have a null data pointer, which SQLite would store as NULL, not as ''.
    if (sqlite3_bind_text64(stmt_, i, t.empty() ? "" : t.data(), t.size(), SQLITE_STATIC, SQLITE_UTF8) != SQLITE_OK)
        fail(db_, "store: bind");
    return *this;
}
Stmt& Stmt::bindNull(int i) {
    if (sqlite3_bind_null(stmt_, i) != SQLITE_OK) fail(db_, "store: bind");
    return *this;
}

bool Stmt::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    sqlite3_reset(stmt_);
    fail(db_, "store");
}

void Stmt::run() {
    while (step()) {
    }
    reset();
}

void Stmt::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::string_view Stmt::textView(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string_view(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string_view();
}

std::string Stmt::text(int col) const { return std::string(textView(col)); }

std::string_view Stmt::blob(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    return p ? std::string_view(static_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string_view();
}

} // namespace fabscope::sql
