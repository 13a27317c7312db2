#pragma once
// `fabscope analyze --db STORE [--from UNIX_S] [--to UNIX_S] [--json] [--config FILE]` (docs/CLI.md).
#include <string>
#include <vector>

namespace fabscope::cli {

// args[0] is "analyze". Returns the exit code (0 ok, 1 bad config, 2 usage, 3 store error).
int cmdAnalyze(const std::vector<std::string>& args);

} // namespace fabscope::cli
