#pragma once
// `fabscope diff --db STORE --snapshot A --snapshot B [--json]` (docs/CLI.md): the topology changes
// from snapshot A to snapshot B as topology_change findings (the findings JSON of docs/FINDINGS.md with
// --json, whose window runs from A's time to B's).
#include <string>
#include <vector>

namespace fabscope::cli {

// args[0] is "diff". Returns the exit code (0 ok, 1 unknown snapshot, 2 usage, 3 store error).
int cmdDiff(const std::vector<std::string>& args);

} // namespace fabscope::cli
