#include "app/cli_args.h"

#include "importers/user_time.h"

#include <charconv>

namespace fabscope::cli {

std::optional<std::string> Args::get(const std::string& name) const {
    auto it = options.find(name);
    return it == options.end() ? std::nullopt : std::optional(it->second);
}

std::vector<std::string> Args::all(const std::string& name) const {
    std::vector<std::string> out;
    for (auto [b, e] = options.equal_range(name); b != e; ++b) out.push_back(b->second);
    return out;
}

std::string Args::require(const std::string& name) const {
    auto v = get(name);
    if (!v || v->empty()) throw UsageError("missing --" + name);
    return *v;
}

void Args::noPositional() const {
    if (!positional.empty()) throw UsageError("unexpected argument '" + positional.front() + "'");
}

Args parse(const std::vector<std::string>& args, const std::set<std::string>& valued, const std::set<std::string>& flags) {
    Args a;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& s = args[i];
        if (!s.starts_with("--")) {
            a.positional.push_back(s);
            continue;
        }
        std::string name = s.substr(2), value;
        const auto eq = name.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        if (valued.count(name)) {
            if (!inlineValue) {
                if (i + 1 >= args.size()) throw UsageError("--" + name + " needs a value");
                value = args[++i];
            }
            a.options.emplace(name, value);
        } else if (flags.count(name) && !inlineValue) {
            a.flags.insert(name);
        } else {
            throw UsageError("unknown option --" + name + " for '" + args[0] + "'");
        }
    }
    return a;
}

double parseSeconds(const std::string& opt, const std::string& v) {
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc{} || p != v.data() + v.size()) throw UsageError("--" + opt + " expects a number, got '" + v + "'");
    return d;
}

double parseTime(const std::string& opt, const std::string& v) {
    if (const auto t = readUserTime(v)) return *t;
    throw UsageError("--" + opt + " expects UNIX seconds or a UTC time (2023-11-14T22:13:20Z), got '" + v + "'");
}

} // namespace fabscope::cli
