#pragma once
// Many rows into one table through INSERTs of 64 rows each (the rest in one shorter one):
// SQLite's work per statement (step, reset, the bindings' checks) is paid once per 64 rows. A
// topology's 6,144 ports and 3,072 links took a statement each (docs/PERFORMANCE.md).
#include "core/store/sqlite_stmt.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace fabscope::sql {

// `bind(stmt, at, i)` binds row i's `columns` values at parameters at+1 .. at+columns.
template <class Bind>
void insertRows(sqlite3* db, std::string_view intoValues, int columns, std::size_t rows, Bind&& bind) {
    constexpr std::size_t kRows = 64;
    auto statement = [&](std::size_t n) {
        std::string row = "(?";
        for (int c = 1; c < columns; ++c) row += ",?";
        row += ")";
        std::string text(intoValues);
        for (std::size_t r = 0; r < n; ++r) text += (r ? "," : " ") + row;
        return std::make_unique<Stmt>(db, text);
    };
    std::unique_ptr<Stmt> full, rest;
    for (std::size_t from = 0; from < rows; from += kRows) {
        const std::size_t n = std::min(kRows, rows - from);
        auto& ins = n == kRows ? full : rest;
        if (!ins) ins = statement(n);
        for (std::size_t r = 0; r < n; ++r) bind(*ins, static_cast<int>(r) * columns, from + r);
        ins->run();
    }
}

} // namespace fabscope::sql
