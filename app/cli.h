#pragma once
// The command-line interface of docs/CLI.md (everything except `gui`). No Qt: it runs headless.
#include <string>
#include <vector>

namespace fabscope::cli {

enum ExitCode { kOk = 0, kBadInput = 1, kUsage = 2, kStoreError = 3 };

// True when argv names a CLI sub-command (import, analyze, info, demo, ..., --help, --version).
bool isCliCommand(const std::vector<std::string>& args);
// True when the command needs Qt's widgets or PDF writer: the desktop view and PDF reports,
// which fabscope-gui runs (the fabscope executable hands them over).
bool needsQt(const std::vector<std::string>& args);
int run(const std::vector<std::string>& args);
std::string usage();

} // namespace fabscope::cli
