#pragma once
// The command-line interface of docs/CLI.md (everything except `gui`). No Qt: it runs headless.
#include "importers/remote/prometheus_pull.h"  // declarations only: no Qt

#include <string>
#include <vector>

namespace fabscope::cli {

enum ExitCode { kOk = 0, kBadInput = 1, kUsage = 2, kStoreError = 3 };

// True when argv names a CLI sub-command (import, analyze, info, demo, ..., --help, --version).
bool isCliCommand(const std::vector<std::string>& args);
// True when the command needs Qt: the desktop view, PDF reports and `import --prometheus` (Qt
// Network), which fabscope-gui runs (the fabscope executable hands them over, so it loads 9
// libraries at start instead of 31).
bool needsQt(const std::vector<std::string>& args);
int run(const std::vector<std::string>& args);
std::string usage();

// `import --prometheus`'s pull (fabscope::pullPrometheus, Qt Network): set by fabscope-gui at
// start-up; without it the command says it is fabscope-gui's.
using PrometheusPull = ImportSummary (*)(Store&, const PullOptions&, const ProgressFn&);
void setPrometheusPull(PrometheusPull pull);

} // namespace fabscope::cli
