#include "app/cli.h"

#include "app/cli_args.h"
#include "app/cli_analyze.h"
#include "app/cli_progress.h"
#include "core/job_summary.h"
#include "app/cli_compare.h"
#include "app/cli_diff.h"
#include "app/cli_whatif.h"
#include "core/analysis/format.h"
#include "app/cli_report.h"

#include "core/demo_fabric.h"
#include "core/report/report_writer.h"
#include "core/store/fabric_events.h"
#include "core/store/port_optics.h"
#include "core/store/store.h"
#include "core/unmapped_series.h"
#include "core/version.h"
#include "importers/import_runner.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>

namespace fabscope::cli {
namespace {

// Diagnostics, what was imported and the counts, on stderr; the exit code.
int reportImport(const ImportSummary& summary) {
    for (const auto& d : summary.diagnostics) std::cerr << d.format() << '\n';
    for (const auto& f : summary.files)
        if (f.status == FileStatus::Imported)
            std::cerr << "imported " << f.file << " (" << f.format << ", " << f.rows << " rows)\n";
    std::cerr << summary.count(FileStatus::Imported) << " imported, " << summary.count(FileStatus::AlreadyImported)
              << " already in the store, ";
    if (const auto skipped = summary.count(FileStatus::Skipped)) std::cerr << skipped << " skipped (not needed), ";
    std::cerr << summary.count(FileStatus::Failed) << " failed\n";
    return summary.anyFailed() || summary.cancelled ? kBadInput : kOk;
}

PrometheusPull gPull = nullptr;  // fabscope-gui's (setPrometheusPull)

// import --prometheus URL --from --to [--step] [--match...]: the pull lives in importers/remote.
int cmdPull(const Args& a) {
    if (!a.positional.empty() || a.get("format") || a.get("snapshot") || a.get("time"))
        throw UsageError("--prometheus takes --from, --to, --step and --match, no files");
    PullOptions opt;
    opt.url = a.require("prometheus");
    opt.from = parseTime("from", a.require("from"));
    opt.to = parseTime("to", a.require("to"));
    if (auto s = a.get("step")) opt.step = parseSeconds("step", *s);
    opt.selectors = a.all("match");
    Store store(a.require("db"));
    ImportSummary summary;
    {
        std::cerr << "pulling from " << opt.url << " (" << (opt.selectors.empty() ? "fabric metrics" : "--match selectors") << ")\n";
        ProgressLine bar("pulling", stderrIsTerminal());
        if (!gPull) throw UsageError("--prometheus is fabscope-gui's (Qt Network): run fabscope-gui import ...");
        summary = gPull(store, opt, [&bar](double f) { return bar(f); });
    }
    return reportImport(summary);
}

int cmdImport(const std::vector<std::string>& argv) {
    const Args a = parse(argv, {"db", "format", "snapshot", "time", "prometheus", "from", "to", "step", "match"}, {});
    const std::string db = a.require("db");
    if (a.get("prometheus")) return cmdPull(a);
    if (a.positional.empty()) throw UsageError("import needs at least one FILE or DIR");
    ImportOptions opt;
    opt.format = a.get("format").value_or("");
    opt.snapshotLabel = a.get("snapshot").value_or("");
    if (auto t = a.get("time")) opt.snapshotTime = parseTime("time", *t);
    ImporterRegistry registry;
    if (!opt.format.empty() && !registry.byName(opt.format)) {
        std::string known;
        for (auto n : registry.names()) known += (known.empty() ? "" : ", ") + std::string(n);
        throw UsageError("unknown --format '" + opt.format + "' (known: " + known + ")");
    }
    Store store(db);
    ImportRunner runner(store, registry);
    ImportSummary summary;
    {
        ProgressLine bar("importing", stderrIsTerminal());
        opt.onFile = [&bar](std::size_t number, std::size_t count, const std::string& path) {
            bar.stage("file " + std::to_string(number) + " of " + std::to_string(count) + ": " + std::filesystem::path(path).filename().string());
        };
        summary = runner.run(a.positional, opt, [&bar](double f) { return bar(f); });
    }
    return reportImport(summary);
}

nlohmann::ordered_json infoJson(const StoreInfo& i) {
    nlohmann::ordered_json j;
    j["nodes"] = {{"switch", i.switches}, {"ca", i.cas}, {"router", i.routers}};
    j["ports"] = i.ports;
    j["links"] = i.links;
    j["series"] = i.series;
    j["samples"] = i.samples;
    j["unmapped_series"] = i.unmappedSeries;
    j["jobs"] = i.jobs;
    auto secs = [](std::optional<double> t) -> nlohmann::ordered_json {
        if (!t) return nullptr;
        const double r = std::round(*t);
        if (r == *t) return static_cast<std::int64_t>(r);
        return *t;
    };
    j["time"] = {{"start", secs(i.timeStart)}, {"end", secs(i.timeEnd)}};
    j["snapshots"] = i.snapshots;
    j["plans"] = i.plans;
    j["imports"] = nlohmann::ordered_json::array();
    for (const auto& r : i.imports)
        j["imports"].push_back({{"file", r.file}, {"sha256", r.sha256}, {"format", r.format}, {"rows", r.rows}});
    return j;
}

nlohmann::ordered_json jobsJson(const std::vector<JobSummary>& jobs) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& j : jobs) {
        nlohmann::ordered_json t = nlohmann::ordered_json::object();
        for (const auto& [name, n] : j.transports) t[name] = n;
        out.push_back({{"name", j.name}, {"file", j.file}, {"nccl_version", j.ncclVersion}, {"nranks", j.nranks},
                       {"ranks", j.ranksSeen}, {"hosts", j.hosts}, {"ring_channels", j.ringChannels},
                       {"tree_channels", j.treeChannels}, {"transports", t}});
    }
    return out;
}

void printJobs(const std::vector<JobSummary>& jobs) {
    for (const auto& j : jobs) {
        std::cout << "  " << j.name << "\t" << j.ranksSeen << (j.nranks > 0 ? " of " + std::to_string(j.nranks) : std::string())
                  << " ranks on " << j.hosts.size() << " hosts";
        if (!j.ncclVersion.empty()) std::cout << ", NCCL " << j.ncclVersion;
        if (j.ringChannels + j.treeChannels > 0) std::cout << ", " << j.ringChannels << " ring / " << j.treeChannels << " tree channels";
        for (const auto& [name, n] : j.transports) std::cout << ", " << n << " x " << name;
        std::cout << "\n";
    }
}

int cmdInfo(const std::vector<std::string>& argv) {
    const Args a = parse(argv, {"db"}, {"json"});
    if (!a.positional.empty()) throw UsageError("info takes no positional arguments");
    Store store(a.require("db"), Store::Mode::ReadOnly);
    const StoreInfo i = store.info();
    const auto unmapped = unmappedSeries(store);
    std::vector<JobSummary> jobs;
    for (const auto& sj : loadJobs(store)) jobs.push_back(summarise(sj));
    // What ibdiagnet read from the latest snapshot's port modules, and what each tool said about its nodes.
    std::size_t modules = 0, flagged = 0;
    std::map<std::string, std::pair<std::size_t, std::size_t>> byTool{{"ibdiagnet", {0, 0}}};  // tool -> warnings, errors
    if (const auto latest = store.latestSnapshot()) {
        for (const PortOptics& o : loadPortOptics(store, latest->id)) {
            ++modules;
            flagged += !o.alarms.empty();
        }
        for (const FabricEvent& e : loadFabricEvents(store, latest->id)) {
            auto& [warnings, errors] = byTool[e.tool];
            ++(e.error ? errors : warnings);
        }
    }
    if (a.flag("json")) {
        auto j = infoJson(i);
        j["job_list"] = jobsJson(jobs);
        j["modules"] = {{"read", modules}, {"flagged", flagged}};
        for (const auto& [tool, counts] : byTool)
            if (tool == "ibdiagnet" || counts.first + counts.second > 0) j[tool] = {{"warnings", counts.first}, {"errors", counts.second}};
        j["unmapped"] = nlohmann::ordered_json::array();
        for (const auto& u : unmapped)
            j["unmapped"].push_back({{"node", u.node}, {"port", u.port}, {"counter", u.counter}, {"reason", u.reason}});
        std::cout << j.dump(2) << '\n';
        return kOk;
    }
    std::cout << "store      " << store.path() << " (schema " << store.schemaVersion() << ")\n"
              << "nodes      " << i.switches << " switches, " << i.cas << " CAs, " << i.routers << " routers\n"
              << "ports      " << i.ports << " connected\n"
              << "links      " << i.links << "\n"
              << "series     " << i.series << " (" << i.unmappedSeries << " not mapped to the fabric)\n"
              << "samples    " << i.samples << "\n"
              << "jobs       " << i.jobs << "\n";
    printJobs(jobs);
    if (modules > 0) std::cout << "modules    " << modules << " read by ibdiagnet (" << flagged << " with flags set)\n";
    for (const auto& [tool, counts] : byTool) {
        const auto [warnings, errors] = counts;
        if (warnings + errors > 0)
            std::cout << (tool + "          ").substr(0, std::max<std::size_t>(tool.size() + 1, 11)) << warnings
                      << (warnings == 1 ? " warning, " : " warnings, ") << errors << (errors == 1 ? " error\n" : " errors\n");
    }
    if (i.timeStart)
        std::cout << "time       " << numfmt::utc(*i.timeStart) << " .. " << numfmt::utc(*i.timeEnd) << " ("
                  << static_cast<std::int64_t>(*i.timeEnd - *i.timeStart) << " s; UNIX " << static_cast<std::int64_t>(*i.timeStart)
                  << " .. " << static_cast<std::int64_t>(*i.timeEnd) << ")\n";
    std::cout << "snapshots ";
    for (const auto& s : i.snapshots) std::cout << " " << s;
    if (!i.plans.empty()) std::cout << "\nplans     ";
    for (const auto& p : i.plans) std::cout << " " << p << " (cabling plan)";
    std::cout << "\nimports    " << i.imports.size() << "\n";
    // When and under which names: two imports of the same bytes differ by the host or job their paths named.
    for (const auto& r : i.imports) {
        std::cout << "  " << r.format << "\t" << r.rows << " rows\t" << r.file << "\t" << numfmt::utc(r.importedAt);
        if (!r.nameKey) std::cout << "\t(names from its path not recorded: imported before schema 17)";
        else if (!r.nameKey->empty()) std::cout << "\t(named by its path: " << *r.nameKey << ")";
        std::cout << "\n";
    }
    if (!unmapped.empty()) std::cout << "unmapped   " << unmapped.size() << " series not on a fabric port\n";
    for (const auto& u : unmapped)
        std::cout << "  " << u.node << " " << u.port << " " << u.counter << "\t(" << (u.reason == "node" ? "node not in the fabric" : "no such port on the node") << ")\n";
    return kOk;
}

int cmdDemo(const std::vector<std::string>& argv) {
    const Args a = parse(argv, {"out", "scale", "samples", "topology"}, {});
    DemoOptions opt;
    const auto topology = parseDemoTopology(a.get("topology").value_or("fat-tree"));
    if (!topology) throw UsageError("--topology must be fat-tree, dragonfly or rail");
    opt.topology = *topology;
    const std::string scale = a.get("scale").value_or("small");
    if (scale == "large") opt.scale = DemoOptions::Scale::Large;
    else if (scale != "small") throw UsageError("--scale must be small or large");
    if (auto s = a.get("samples")) opt.samples = static_cast<int>(parseSeconds("samples", *s));
    const auto m = writeDemo(a.require("out"), opt);
    std::cerr << "demo fabric: " << m.switches << " switches, " << m.cas << " CAs, " << m.links << " links, " << m.rows
              << " counter rows\n";
    for (const auto& f : m.files) std::cerr << "wrote " << f << "\n";
    for (const auto& f : m.faults)
        std::cerr << "known fault: " << kindName(f.kind) << " at " << f.node << " p" << f.port << " <-> " << f.peerNode << " p" << f.peerPort << "\n";
    return kOk;
}

} // namespace

std::string usage() {
    return "FabScope " + std::string(kVersion) + R"( - find what slowed the fabric

usage:
  fabscope import  --db STORE FILE|DIR...  [--format NAME] [--snapshot LABEL] [--time UNIX_S]
  fabscope import  --db STORE --prometheus URL --from UNIX_S --to UNIX_S [--step S] [--match SELECTOR...]
  fabscope analyze --db STORE [--from UNIX_S] [--to UNIX_S] [--json] [--config FILE]
  fabscope report  --db STORE --out FILE.(html|pdf|csv|json) [--from ..] [--to ..] [--config FILE]
  fabscope info    --db STORE [--json]
  fabscope diff    --db STORE --snapshot A --snapshot B [--json]
  fabscope compare --db STORE --good FROM:TO --bad FROM:TO [--json] [--out FILE.json] [--config FILE]
  fabscope compare --good-db A --bad-db B [--good FROM:TO] [--bad FROM:TO] [--json] [--out ...]
  fabscope whatif  --db STORE [--from T0 --to T1] (--fail NODE[:PORT] | --degrade NODE:PORT=WIDTHxSPEED)... [--json] [--out FILE.(html|pdf|json)]
  fabscope demo    --out DIR [--topology fat-tree|dragonfly|rail] [--scale small|large]
  fabscope gui     [STORE]
  fabscope --version | --help

times (UNIX_S, FROM:TO, T0, T1): UNIX seconds or a UTC time, 2023-11-14T22:13:20Z or "2023-11-14 22:13:20 UTC"
exit codes: 0 ok, 1 bad input, 2 usage error, 3 store error
)";
}

bool isCliCommand(const std::vector<std::string>& args) {
    if (args.empty()) return false;
    static const std::set<std::string> kCommands{"import", "analyze", "report", "info", "diff", "compare", "whatif", "demo",
                                                 "--help", "-h", "help", "--version"};
    return kCommands.count(args.front()) > 0;
}

void setPrometheusPull(PrometheusPull pull) { gPull = pull; }

bool needsQt(const std::vector<std::string>& args) {
    if (!isCliCommand(args)) return true;
    if (args.front() == "import")
        return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--prometheus" || a.starts_with("--prometheus="); });
    if (args.front() != "report" && args.front() != "compare" && args.front() != "whatif") return false;
    for (std::size_t i = 1; i < args.size(); ++i) {  // their documents go to --out FILE or --out=FILE
        std::string_view out;
        if (args[i] == "--out" && i + 1 < args.size()) out = args[i + 1];
        else if (args[i].starts_with("--out=")) out = std::string_view(args[i]).substr(6);
        if (!out.empty() && reportFormatFor(std::string(out)) == ReportFormat::Pdf) return true;
    }
    return false;
}

int run(const std::vector<std::string>& args) {
    if (args.empty()) {
        std::cerr << usage();
        return kUsage;
    }
    const std::string& cmd = args.front();
    try {
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            std::cout << usage();
            return kOk;
        }
        if (cmd == "--version") {
            std::cout << "fabscope " << kVersion << '\n';
            return kOk;
        }
        if (cmd == "import") return cmdImport(args);
        if (cmd == "info") return cmdInfo(args);
        if (cmd == "demo") return cmdDemo(args);
        if (cmd == "analyze") return cmdAnalyze(args);
        if (cmd == "diff") return cmdDiff(args);
        if (cmd == "compare") return cmdCompare(args);
        if (cmd == "whatif") return cmdWhatIf(args);
        if (cmd == "report") return cmdReport(args);
        throw UsageError("'" + cmd + "' is not built yet");
    } catch (const UsageError& e) {
        std::cerr << "fabscope " << cmd << ": " << e.what() << "\n\n" << usage();
        return kUsage;
    } catch (const std::invalid_argument& e) {
        std::cerr << "fabscope " << cmd << ": " << e.what() << '\n';
        return kUsage;
    } catch (const StoreError& e) {
        std::cerr << "fabscope: " << e.what() << '\n';
        return kStoreError;
    } catch (const std::exception& e) {
        std::cerr << "fabscope: " << e.what() << '\n';
        return kBadInput;
    }
}

} // namespace fabscope::cli
