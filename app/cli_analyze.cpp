#include "app/cli_analyze.h"

#include "app/cli.h"
#include "core/analysis/analyze.h"
#include "core/diagnostics.h"

#include <charconv>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <stdexcept>

namespace fabscope::cli {
namespace {

struct Usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct AnalyzeArgs {
    std::string db, config;
    AnalysisWindow window;
    bool json = false;
};

double seconds(const std::string& opt, const std::string& v) {
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc{} || p != v.data() + v.size()) throw Usage("--" + opt + " expects UNIX seconds, got '" + v + "'");
    return d;
}

AnalyzeArgs parseArgs(const std::vector<std::string>& args) {
    AnalyzeArgs a;
    bool haveDb = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string name = args[i], value;
        if (!name.starts_with("--")) throw Usage("unexpected argument '" + name + "'");
        name = name.substr(2);
        const auto eq = name.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        if (name == "json" && !inlineValue) {
            a.json = true;
            continue;
        }
        if (name != "db" && name != "from" && name != "to" && name != "config") throw Usage("unknown option --" + name + " for 'analyze'");
        if (!inlineValue) {
            if (i + 1 >= args.size()) throw Usage("--" + name + " needs a value");
            value = args[++i];
        }
        if (name == "db") {
            a.db = value;
            haveDb = true;
        } else if (name == "config") {
            a.config = value;
        } else if (name == "from") {
            a.window.from = seconds(name, value);
        } else {
            a.window.to = seconds(name, value);
        }
    }
    if (!haveDb || a.db.empty()) throw Usage("missing --db");
    if (a.window.from && a.window.to && *a.window.to < *a.window.from) throw Usage("--to is before --from");
    return a;
}

std::string utc(double t) {
    const auto s = static_cast<std::time_t>(t);
    char buf[32];
    std::tm tm{};
    gmtime_r(&s, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

void printTable(const FindingsReport& r) {
    std::cout << "window " << utc(r.windowStart) << " .. " << utc(r.windowEnd) << " UTC ("
              << static_cast<long long>(r.windowEnd - r.windowStart) << " s)\n";
    if (r.findings.empty()) {
        std::cout << "no findings\n";
        return;
    }
    char header[80];
    std::snprintf(header, sizeof header, "%-9s %-14s %-20s %s", "SEVERITY", "KIND", "START (UTC)", "SUMMARY");
    std::cout << header << '\n';
    for (const auto& f : r.findings) {
        char line[64];
        std::snprintf(line, sizeof line, "%-9s %-14s %-20s ", std::string(toString(f.severity)).c_str(), f.kind.c_str(),
                      utc(f.start).c_str());
        std::cout << line << f.summary << '\n';
    }
    std::cout << r.findings.size() << " finding" << (r.findings.size() == 1 ? "" : "s") << '\n';
}

} // namespace

int cmdAnalyze(const std::vector<std::string>& args) {
    AnalyzeArgs a;
    try {
        a = parseArgs(args);
    } catch (const Usage& e) {
        std::cerr << "fabscope analyze: " << e.what() << "\n\n" << usage();
        return kUsage;
    }
    try {
        const AnalysisConfig config = a.config.empty() ? AnalysisConfig{} : loadAnalysisConfig(a.config);
        const Store store(a.db, Store::Mode::ReadOnly);
        const FindingsReport report = analyze(store, a.window, config);
        if (a.json) std::cout << findingsJson(report) << '\n';
        else printTable(report);
        return kOk;
    } catch (const ConfigError& e) {
        std::cerr << "fabscope analyze: " << e.what() << '\n';
        return kBadInput;
    } catch (const StoreError& e) {
        std::cerr << "fabscope: " << e.what() << '\n';
        return kStoreError;
    }
}

} // namespace fabscope::cli
