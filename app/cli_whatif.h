#pragma once
// `fabscope whatif` (docs/CLI.md): predicted link load and job slowdown when links or switches
// fail or a link runs at another width/speed:
//   fabscope whatif --db STORE [--from T0 --to T1] (--fail NODE[:PORT] | --degrade NODE:PORT=WIDTHxSPEED)...
//                   [--json] [--out FILE.(html|pdf|json)] [--config FILE]
#include <string>
#include <vector>

namespace fabscope::cli {

// args[0] is "whatif". Returns the exit code (0 ok, 1 unknown node or bad config, 2 usage, 3 store error).
int cmdWhatIf(const std::vector<std::string>& args);

} // namespace fabscope::cli
