#include "app/cli_whatif.h"

#include "app/cli.h"
#include "app/cli_args.h"
#include "core/analysis/format.h"
#include "core/diagnostics.h"
#include "core/report/whatif_document.h"
#include "core/whatif/whatif.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace fabscope::cli {
namespace {

struct WhatIfArgs {
    std::string db, out, config;
    ReportFormat format = ReportFormat::Json;
    std::optional<double> from, to;
    std::vector<WhatIfChange> changes;
    bool json = false;
};

WhatIfArgs parseArgs(const std::vector<std::string>& args) {
    const Args p = parse(args, {"db", "from", "to", "fail", "degrade", "out", "config"}, {"json"});
    p.noPositional();
    WhatIfArgs a;
    a.db = p.require("db");
    if (auto v = p.get("from")) a.from = parseTime("from", *v);
    if (auto v = p.get("to")) a.to = parseTime("to", *v);
    if (a.from && a.to && *a.to < *a.from) throw UsageError("--to is before --from");
    try {
        for (const auto& f : p.all("fail")) a.changes.push_back(parseFail(f));
        for (const auto& d : p.all("degrade")) a.changes.push_back(parseDegrade(d));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (a.changes.empty()) throw UsageError("name what fails: --fail NODE[:PORT] or --degrade NODE:PORT=WIDTHxSPEED");
    a.out = p.get("out").value_or("");
    if (!a.out.empty()) {
        const auto format = reportFormatFor(a.out);
        if (!format || *format == ReportFormat::Csv) throw UsageError("--out must end in .html, .pdf or .json, got '" + a.out + "'");
        a.format = *format;
    }
    a.config = p.get("config").value_or("");
    a.json = p.flag("json");
    return a;
}

std::string pct(double u) { return numfmt::num(u * 100) + "%"; }

void printTable(const WhatIfReport& r, double hot) {
    std::cout << "what if:";
    for (const auto& c : r.changes) std::cout << ' ' << c.label();
    std::cout << "\nwindow " << numfmt::utc(r.windowStart) << " .. " << numfmt::utc(r.windowEnd) << " (p95 and peak load)\n";
    std::cout << "routing: " << (r.routing == "lft" ? "forwarding tables (lft)" : "ECMP (no forwarding table for every switch)") << '\n';
    std::cout << "p95 load on the links it touches: " << numfmt::num(r.totalBeforeGbps) << " -> " << numfmt::num(r.totalAfterGbps)
              << " Gb/s\n";
    std::printf("%-44s %9s %9s %s\n", "LINK (tx -> rx)", "P95 NOW", "P95 THEN", "");
    for (const WhatIfLink& l : r.links) {
        const std::string where = l.ports[0].node + " p" + l.ports[0].port + " -> " + l.ports[1].node + " p" + l.ports[1].port;
        std::printf("%-44s %9s %9s %s\n", where.c_str(), pct(l.before.p95Util()).c_str(), l.failed ? "failed" : pct(l.after.p95Util()).c_str(),
                    l.turnsHot ? ("turns hot (>= " + pct(hot) + ")").c_str() : "");
    }
    for (const auto& h : r.disconnected) std::cout << "disconnected: " << h << '\n';
    for (const JobImpact& j : r.jobs)
        std::cout << "job " << j.name << ": worst link on its routes " << pct(j.worstBefore) << " -> " << pct(j.worstAfter)
                  << ", predicted slowdown x" << numfmt::num(j.slowdown) << ", " << numfmt::num(j.gpuHoursAtRisk)
                  << " GPU-hours at risk over the window" << (j.disconnected ? "; a host of it is cut off" : "") << '\n';
}

} // namespace

int cmdWhatIf(const std::vector<std::string>& args) {
    WhatIfArgs a;
    try {
        a = parseArgs(args);
    } catch (const UsageError& e) {
        std::cerr << "fabscope whatif: " << e.what() << "\n\n" << usage();
        return kUsage;
    }
    try {
        const AnalysisConfig config = a.config.empty() ? loadUserConfig() : loadAnalysisConfig(a.config);
        const Store store(a.db, Store::Mode::ReadOnly);
        const WhatIfReport report = whatIf(store, a.from, a.to, a.changes, config);
        if (!a.out.empty()) {  // JSON, or the prediction as a document (docs/REPORTS.md)
            try {
                if (a.format != ReportFormat::Json)
                    writeWhatIfReport(report, {a.db, config.hotLink.util, config.hotLink.criticalUtil, 0}, a.format, a.out);
                else  // temp-then-rename as every report file: a reader of the old file never sees half of the new one
                    writeAtomically(a.out, [&report](const std::string& tmp) {
                        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
                        out << whatIfJson(report) << '\n';
                        out.close();
                        if (!out) throw std::runtime_error(tmp + ": cannot write");
                    });
            } catch (const std::runtime_error& e) {
                std::cerr << "fabscope whatif: " << e.what() << '\n';
                return kStoreError;
            }
            std::cerr << "wrote " << a.out << " (" << report.links.size() << " link directions touched)\n";
        }
        if (a.json) std::cout << whatIfJson(report) << '\n';
        else if (a.out.empty()) printTable(report, config.hotLink.util);
        return kOk;
    } catch (const WhatIfError& e) {
        std::cerr << "fabscope whatif: " << e.what() << '\n';
        return kBadInput;
    } catch (const ConfigError& e) {
        std::cerr << "fabscope whatif: " << e.what() << '\n';
        return kBadInput;
    } catch (const StoreError& e) {
        std::cerr << "fabscope: " << e.what() << '\n';
        return kStoreError;
    }
}

} // namespace fabscope::cli
