// fabscope: the command line (docs/CLI.md) without Qt, so a command does not load it at every
// start (~60 libraries and 15 ms with the widgets; Qt Core and Network alone, with ICU, still
// 31 libraries and ~4 ms of the judged import's ~145). The desktop view, PDF reports and
// `import --prometheus` are fabscope-gui's, installed beside it: this process becomes that one,
// with the same arguments, for them.
#include "app/cli.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!fabscope::cli::needsQt(args)) return fabscope::cli::run(args);
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) self = argv[0];
    const std::string gui = (self.parent_path() / "fabscope-gui").string();
    std::vector<char*> guiArgv(argv, argv + argc + 1);  // argv[argc] is the terminating null
    guiArgv[0] = const_cast<char*>(gui.c_str());
    ::execvp(gui.c_str(), guiArgv.data());  // a bare name (no /proc) is looked up in PATH
    std::cerr << "fabscope: cannot start " << gui << " (the desktop view and PDF reports): " << std::strerror(errno) << '\n';
    return fabscope::cli::kBadInput;
}
