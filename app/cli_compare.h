#pragma once
// `fabscope compare` (docs/CLI.md): what changed between a good run and a bad run, in one store
//   fabscope compare --db STORE --good FROM:TO --bad FROM:TO [--json] [--out FILE.json] [--config FILE]
// or two stores
//   fabscope compare --good-db A --bad-db B [--good FROM:TO] [--bad FROM:TO] [--json] [--out ...]
// as a ranked list, or the compare JSON of docs/FINDINGS.md.
#include <string>
#include <vector>

namespace fabscope::cli {

// args[0] is "compare". Returns the exit code (0 ok, 1 bad config, 2 usage, 3 store error).
int cmdCompare(const std::vector<std::string>& args);

} // namespace fabscope::cli
