#pragma once
// Every row of every table of a store, as text: "the store is exactly as it was" made checkable.
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

#include <string>
#include <vector>

inline std::string dumpStore(const std::string& path) {
    fabscope::Store s(path, fabscope::Store::Mode::ReadOnly);
    std::string out;
    fabscope::sql::Stmt tables(s.handle(), "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name");
    std::vector<std::string> names;
    while (tables.step()) names.push_back(tables.text(0));
    for (const auto& t : names) {
        fabscope::sql::Stmt rows(s.handle(), "SELECT * FROM \"" + t + "\" ORDER BY 1,2,3");
        out += "[" + t + "]\n";
        while (rows.step()) {
            for (int c = 0; c < rows.columnCount(); ++c) out += rows.text(c) + "|";
            out += "\n";
        }
    }
    return out;
}
