#include "app/cli_analyze.h"

#include "app/cli.h"
#include "app/cli_args.h"
#include "core/analysis/analyze.h"
#include "core/diagnostics.h"

#include <cstdio>
#include <ctime>
#include <iostream>
#include <stdexcept>

namespace fabscope::cli {
namespace {

struct AnalyzeArgs {
    std::string db, config;
    AnalysisWindow window;
    bool json = false;
};

AnalyzeArgs parseArgs(const std::vector<std::string>& args) {
    const Args parsed = parse(args, {"db", "from", "to", "config"}, {"json"});
    parsed.noPositional();
    AnalyzeArgs a;
    a.db = parsed.require("db");
    a.config = parsed.get("config").value_or("");
    a.json = parsed.flag("json");
    if (auto v = parsed.get("from")) a.window.from = parseTime("from", *v);
    if (auto v = parsed.get("to")) a.window.to = parseTime("to", *v);
    if (a.window.from && a.window.to && *a.window.to < *a.window.from) throw UsageError("--to is before --from");
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
    if (r.windowStart == 0 && r.windowEnd == 0)  // nothing in the store has a time: no 1970 window
        std::cout << "window none: the store holds no counters, probes, benchmark runs or topology\n";
    else
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
        std::snprintf(line, sizeof line, "%-9s %-14s %-20s ", std::string(toString(f.severity)).c_str(), std::string(kindName(f.kind)).c_str(),
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
    } catch (const UsageError& e) {
        std::cerr << "fabscope analyze: " << e.what() << "\n\n" << usage();
        return kUsage;
    }
    try {
        const AnalysisConfig config = a.config.empty() ? loadUserConfig() : loadAnalysisConfig(a.config);  // the GUI's file by default
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
