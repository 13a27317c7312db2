#pragma once
// Thin RAII wrappers over the SQLite C API; every value goes through bound parameters.
#include "core/diagnostics.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace fabscope::sql {

class Stmt {
public:
    Stmt(sqlite3* db, std::string_view sql);
    ~Stmt();
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(int i, std::int64_t v);
    Stmt& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    Stmt& bind(int i, double v);
    Stmt& bind(int i, std::string_view text);
    Stmt& bindBlob(int i, std::string_view bytes);
    // Without SQLite's copy: `bytes` must stay unchanged until run() or reset() (an import's
    // chunk blobs, ~17 MB of copies for 2.5 M samples).
    Stmt& bindBorrowedBlob(int i, std::string_view bytes);
    // Text the same way: `text` must stay unchanged until run() or reset().
    Stmt& bindBorrowedText(int i, std::string_view text);
    Stmt& bindNull(int i);

    bool step();   // true while a row is available; throws StoreError on failure
    void run();    // step to completion, then reset
    void reset();

    [[nodiscard]] std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
    [[nodiscard]] double real(int col) const { return sqlite3_column_double(stmt_, col); }
    [[nodiscard]] std::string text(int col) const;
    // The column's text without a copy: valid until the next step() or reset().
    [[nodiscard]] std::string_view textView(int col) const;
    [[nodiscard]] std::string_view blob(int col) const;
    [[nodiscard]] int columnCount() const { return sqlite3_column_count(stmt_); }
    [[nodiscard]] bool isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

void exec(sqlite3* db, const char* sql);
[[noreturn]] void fail(sqlite3* db, std::string_view what);

} // namespace fabscope::sql
