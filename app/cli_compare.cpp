#include "app/cli_compare.h"

#include "app/cli.h"
#include "app/cli_args.h"
#include "core/analysis/analysis_config.h"
#include "core/analysis/format.h"
#include "core/compare/compare.h"
#include "core/diagnostics.h"
#include "core/report/compare_document.h"
#include "core/report/report_writer.h"
#include "importers/user_time.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace fabscope::cli {
namespace {

struct CompareArgs {
    std::string goodDb, badDb, out, config;
    ReportFormat format = ReportFormat::Json;
    CompareWindow good, bad;
    bool json = false;
};

// "FROM:TO", each UNIX seconds or a UTC time (readUserTime); either end may be left empty
// ("1700000000:" runs to the end). Times hold colons of their own: the split is the one colon
// where both sides read as times.
CompareWindow window(const std::string& opt, const std::string& v) {
    CompareWindow w;
    int splits = 0;
    for (std::size_t colon = v.find(':'); colon != std::string::npos; colon = v.find(':', colon + 1)) {
        const std::string from = v.substr(0, colon), to = v.substr(colon + 1);
        const auto f = from.empty() ? std::nullopt : readUserTime(from), t = to.empty() ? std::nullopt : readUserTime(to);
        if ((from.empty() || f) && (to.empty() || t)) {
            ++splits;
            w.from = f, w.to = t;
        }
    }
    if (splits != 1)
        throw UsageError("--" + opt + " takes FROM:TO, each UNIX seconds or a UTC time (2023-11-14T22:13:20Z), got '" + v + "'");
    if (w.from && w.to && *w.to < *w.from) throw UsageError("--" + opt + " ends before it starts");
    return w;
}

CompareArgs parseArgs(const std::vector<std::string>& args) {
    const Args p = parse(args, {"db", "good-db", "bad-db", "good", "bad", "out", "config"}, {"json"});
    p.noPositional();
    CompareArgs a;
    const auto db = p.get("db"), goodDb = p.get("good-db"), badDb = p.get("bad-db");
    if (db && (goodDb || badDb)) throw UsageError("give --db STORE (two windows) or --good-db and --bad-db, not both");
    if (db) {
        a.goodDb = a.badDb = *db;
        if (!p.get("good") || !p.get("bad")) throw UsageError("one store needs --good FROM:TO and --bad FROM:TO");
    } else {
        if (!goodDb || !badDb) throw UsageError("missing --db STORE, or --good-db A and --bad-db B");
        a.goodDb = *goodDb;
        a.badDb = *badDb;
    }
    if (auto g = p.get("good")) a.good = window("good", *g);
    if (auto b = p.get("bad")) a.bad = window("bad", *b);
    a.out = p.get("out").value_or("");
    a.config = p.get("config").value_or("");
    a.json = p.flag("json");
    if (!a.out.empty()) {
        const auto format = reportFormatFor(a.out);
        if (!format || *format == ReportFormat::Csv) throw UsageError("--out must end in .html, .pdf or .json, got '" + a.out + "'");
        a.format = *format;
    }
    return a;
}

void printTable(const CompareReport& r) {
    const auto side = [](const char* name, const CompareSide& s) {
        std::cout << name << ' ' << s.store << "  " << numfmt::utc(s.start) << " .. " << numfmt::utc(s.end)
                  << (s.snapshot.empty() ? "" : "  topology " + s.snapshot) << '\n';
    };
    side("good", r.good);
    side("bad ", r.bad);
    if (r.changes.empty()) {
        std::cout << "no changes beyond noise\n";
        return;
    }
    std::printf("%5s  %-10s %s\n", "SCORE", "KIND", "WHAT CHANGED");
    for (const Change& c : r.changes) std::printf("%5.0f  %-10s %s\n", c.score, std::string(toString(c.kind)).c_str(), c.summary.c_str());
    std::cout << r.changes.size() << " change" << (r.changes.size() == 1 ? "" : "s") << '\n';
}

// The topology a side was read with (compareRuns names it by label and time), for the drawing.
std::optional<Fabric> sideFabric(const Store& store, const CompareSide& side) {
    if (side.snapshot.empty()) return std::nullopt;
    for (const SnapshotInfo& s : store.snapshots())
        if (s.label == side.snapshot && s.time == side.snapshotTime) return store.loadFabric(s.id);
    if (const auto s = store.snapshotByLabel(side.snapshot)) return store.loadFabric(s->id);
    return std::nullopt;
}

} // namespace

int cmdCompare(const std::vector<std::string>& args) {
    CompareArgs a;
    try {
        a = parseArgs(args);
    } catch (const UsageError& e) {
        std::cerr << "fabscope compare: " << e.what() << "\n\n" << usage();
        return kUsage;
    }
    try {
        const AnalysisConfig config = a.config.empty() ? loadUserConfig() : loadAnalysisConfig(a.config);
        const Store goodStore(a.goodDb, Store::Mode::ReadOnly);
        std::optional<Store> other;
        if (a.badDb != a.goodDb) other.emplace(a.badDb, Store::Mode::ReadOnly);
        const Store& badStore = other ? *other : goodStore;
        const CompareReport report = compareRuns(goodStore, a.goodDb, a.good, badStore, a.badDb, a.bad, config);
        if (!a.out.empty() && a.format != ReportFormat::Json) {  // the comparison report (docs/REPORTS.md)
            const std::optional<Fabric> goodFabric = sideFabric(goodStore, report.good), badFabric = sideFabric(badStore, report.bad);
            try {
                writeCompareReport(report, {goodFabric ? &*goodFabric : nullptr, badFabric ? &*badFabric : nullptr}, a.format, a.out);
            } catch (const std::runtime_error& e) {
                std::cerr << "fabscope compare: " << e.what() << '\n';
                return kStoreError;  // as an unwritable --out FILE.json
            }
            std::cerr << "wrote " << a.out << " (" << report.changes.size() << " change" << (report.changes.size() == 1 ? "" : "s") << ")\n";
        } else if (!a.out.empty()) {
            std::ofstream out(a.out);
            out << compareJson(report) << '\n';
            if (!out) {
                std::cerr << "fabscope compare: cannot write " << a.out << '\n';
                return kStoreError;
            }
        }
        if (a.json) std::cout << compareJson(report) << '\n';
        else if (a.out.empty()) printTable(report);
        return kOk;
    } catch (const ConfigError& e) {
        std::cerr << "fabscope compare: " << e.what() << '\n';
        return kBadInput;
    } catch (const StoreError& e) {
        std::cerr << "fabscope: " << e.what() << '\n';
        return kStoreError;
    }
}

} // namespace fabscope::cli
