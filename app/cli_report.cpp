#include "app/cli_report.h"

#include "app/cli.h"
#include "app/cli_args.h"
#include "app/cli_progress.h"
#include "core/diagnostics.h"
#include "core/report/report_writer.h"

#include <iostream>
#include <stdexcept>

namespace fabscope::cli {
namespace {

struct ReportArgs {
    std::string db, out, config;
    ReportFormat format = ReportFormat::Html;
    AnalysisWindow window;
};

ReportArgs parseArgs(const std::vector<std::string>& args) {
    const Args parsed = parse(args, {"db", "out", "from", "to", "config"}, {});
    parsed.noPositional();
    ReportArgs a;
    a.db = parsed.require("db");
    a.out = parsed.require("out");
    a.config = parsed.get("config").value_or("");
    if (auto v = parsed.get("from")) a.window.from = parseTime("from", *v);
    if (auto v = parsed.get("to")) a.window.to = parseTime("to", *v);
    const auto format = reportFormatFor(a.out);
    if (!format) throw UsageError("--out must end in .html, .pdf, .csv or .json, got '" + a.out + "'");
    a.format = *format;
    if (a.window.from && a.window.to && *a.window.to < *a.window.from) throw UsageError("--to is before --from");
    return a;
}

} // namespace

int cmdReport(const std::vector<std::string>& args) {
    ReportArgs a;
    try {
        a = parseArgs(args);
    } catch (const UsageError& e) {
        std::cerr << "fabscope report: " << e.what() << "\n\n" << usage();
        return kUsage;
    }
    try {
        ReportOptions options;
        options.window = a.window;
        options.config = a.config.empty() ? loadUserConfig() : loadAnalysisConfig(a.config);  // the GUI's file by default
        const Store store(a.db, Store::Mode::ReadOnly);
        ReportData data;
        {
            // A large fabric's report takes a while (most of it the single points of stress):
            // the same stages the GUI's export shows, on a terminal.
            ProgressLine line("report", stderrIsTerminal());
            options.progress = [&line](double fraction, const std::string& stage) { line(0.9 * fraction, stage); };
            data = buildReportData(store, options);
            line(0.9, "Writing " + a.out + "…");
            writeReport(data, a.format, a.out);
        }
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
