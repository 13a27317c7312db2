#include "app/cli_report.h"

#include "app/cli.h"
#include "core/diagnostics.h"
#include "core/report/report_writer.h"

#include <charconv>
#include <iostream>
#include <stdexcept>

namespace fabscope::cli {
namespace {

struct Usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ReportArgs {
    std::string db, out, config;
    ReportFormat format = ReportFormat::Html;
    AnalysisWindow window;
};

double seconds(const std::string& opt, const std::string& v) {
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc{} || p != v.data() + v.size()) throw Usage("--" + opt + " expects UNIX seconds, got '" + v + "'");
    return d;
}

ReportArgs parseArgs(const std::vector<std::string>& args) {
    ReportArgs a;
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string name = args[i], value;
        if (!name.starts_with("--")) throw Usage("unexpected argument '" + name + "'");
        name = name.substr(2);
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
        } else {
            if (name != "db" && name != "out" && name != "from" && name != "to" && name != "config")
                throw Usage("unknown option --" + name + " for 'report'");
            if (i + 1 >= args.size()) throw Usage("--" + name + " needs a value");
            value = args[++i];
        }
        if (name == "db") a.db = value;
        else if (name == "out") a.out = value;
        else if (name == "config") a.config = value;
        else if (name == "from") a.window.from = seconds(name, value);
        else if (name == "to") a.window.to = seconds(name, value);
        else throw Usage("unknown option --" + name + " for 'report'");
    }
    if (a.db.empty()) throw Usage("missing --db");
    if (a.out.empty()) throw Usage("missing --out");
    const auto format = reportFormatFor(a.out);
    if (!format) throw Usage("--out must end in .html, .pdf, .csv or .json, got '" + a.out + "'");
    a.format = *format;
    if (a.window.from && a.window.to && *a.window.to < *a.window.from) throw Usage("--to is before --from");
    return a;
}

} // namespace

int cmdReport(const std::vector<std::string>& args) {
    ReportArgs a;
    try {
        a = parseArgs(args);
    } catch (const Usage& e) {
        std::cerr << "fabscope report: " << e.what() << "\n\n" << usage();
        return kUsage;
    }
    try {
        ReportOptions options;
        options.window = a.window;
        if (!a.config.empty()) options.config = loadAnalysisConfig(a.config);
        const Store store(a.db, Store::Mode::ReadOnly);
        const ReportData data = buildReportData(store, options);
        writeReport(data, a.format, a.out);
        std::cerr << "wrote " << a.out << " (" << data.findings.findings.size() << " findings, window "
                  << static_cast<long long>(data.findings.windowStart) << " .. " << static_cast<long long>(data.findings.windowEnd)
                  << ")\n";
        return kOk;
    } catch (const ConfigError& e) {
        std::cerr << "fabscope report: " << e.what() << '\n';
        return kBadInput;
    } catch (const StoreError& e) {
        std::cerr << "fabscope: " << e.what() << '\n';
        return kStoreError;
    } catch (const std::runtime_error& e) {  // the output cannot be written
        std::cerr << "fabscope report: " << e.what() << '\n';
        return kBadInput;
    }
}

} // namespace fabscope::cli
