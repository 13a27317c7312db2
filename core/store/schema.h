#pragma once
#include <string_view>

namespace fabscope {
// SQL that brings a store from version toVersion-1 to toVersion (1-based). Kept as data so a test
// can build a store of an older version and check the migration path.
std::string_view migrationScript(int toVersion);
} // namespace fabscope
