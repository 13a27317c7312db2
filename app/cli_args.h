#pragma once
// The option parsing every sub-command shares: "--name value", "--name=value", "--flag" and
// positional arguments; a usage error names the option and the sub-command.
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fabscope::cli {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Args {
    std::multimap<std::string, std::string> options;
    std::set<std::string> flags;
    std::vector<std::string> positional;

    [[nodiscard]] std::optional<std::string> get(const std::string& name) const;
    [[nodiscard]] std::vector<std::string> all(const std::string& name) const;
    [[nodiscard]] std::string require(const std::string& name) const;  // throws UsageError "missing --name"
    [[nodiscard]] bool flag(const std::string& name) const { return flags.count(name) > 0; }
    void noPositional() const;  // throws UsageError "unexpected argument '...'"
};

// args[0] is the sub-command. `valued` options take a value, `flags` take none.
Args parse(const std::vector<std::string>& args, const std::set<std::string>& valued, const std::set<std::string>& flags);

// A number (a --step, --samples); throws UsageError naming the option.
double parseSeconds(const std::string& opt, const std::string& v);

// A time: UNIX seconds or a UTC time (readUserTime, importers/user_time.h, shared with the GUI),
// or a UsageError naming the option.
double parseTime(const std::string& opt, const std::string& v);

} // namespace fabscope::cli
