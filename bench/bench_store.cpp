// Import and analysis benchmark at the docs/PERFORMANCE.md "large" scale, each figure printed as a ratio
// against a baseline measured in the same run on the same rows:
//   import:    FabScope's chunked store  vs  the sqlite3 shell's typed .import of the same CSV
//   hot links: FabScope from the store   vs  SQL LAG() window function, and pandas (if installed)
//   full analysis time, peak RSS, store bytes per sample.
// Usage: fabscope_bench [--rows N] [--work DIR] [--keep]
//   default: 10,000,000 rows in /tmp/fabscope-bench, removed afterwards unless --keep
#include "core/analysis/analyze.h"
#include "core/analysis/context.h"
#include "core/analysis/detectors.h"
#include "core/demo_fabric.h"
#include "importers/import_runner.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;
using namespace fabscope;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Runs a program (no shell) and returns its wall time in seconds, or -1 when it failed.
double runTimed(const std::vector<std::string>& argv, const std::string& stdoutFile = "/dev/null") {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    const double t0 = now();
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    const double t = now() - t0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

// The CSV slice: the scenario's 360 samples x 4 counters for as many switch ports as `rows`
// allows, written time-major like a collector's dump. A slice by ports keeps each series whole;
// a slice by time (all 553k series, a few samples each) measures series creation instead.
constexpr std::size_t kSamples = 360;
std::size_t writeSlice(const Fabric& f, const std::string& path, std::size_t rows) {
    std::vector<const Port*> ports;
    for (const auto& l : f.links)
        for (PortId p : {l.a, l.b})
            if (f.node(f.port(p).node).type == NodeType::Switch) ports.push_back(&f.port(p));
    ports.resize(std::min(ports.size(), (rows + 4 * kSamples - 1) / (4 * kSamples)));
    std::FILE* out = std::fopen(path.c_str(), "w");
    std::fputs("timestamp,node,port,counter,value\n", out);
    static const char* kCounters[] = {"xmit_bytes", "rcv_bytes", "xmit_wait", "symbol_errors"};
    std::string buf;
    buf.reserve(1 << 20);
    std::size_t written = 0;
    const std::size_t samples = kSamples;
    char num[32];
    for (std::size_t s = 0; s < samples; ++s) {
        for (std::size_t i = 0; i < ports.size() && written < rows; ++i) {
            const Port& p = *ports[i];
            // ~30% utilisation of 200 Gb/s, ~97% on every 50th port from sample 5 on.
            const double util = (i % 50 == 0 && s >= 5) ? 0.97 : 0.30;
            const auto bytes = static_cast<std::uint64_t>(static_cast<double>(s) * util * 25e9 * 10);
            const std::uint64_t values[4] = {bytes, bytes / 2, s * 100, 0};
            for (int c = 0; c < 4; ++c) {
                buf += std::to_string(1700000000 + s * 10);
                buf += ',';
                buf += f.node(p.node).description;
                buf += ',';
                buf += p.name;
                buf += ',';
                buf += kCounters[c];
                buf += ',';
                auto [end, ec] = std::to_chars(num, num + sizeof num, values[c]);
                buf.append(num, end);
                buf += '\n';
                ++written;
            }
            if (buf.size() > (1 << 20) - 512) {
                std::fwrite(buf.data(), 1, buf.size(), out);
                buf.clear();
            }
        }
    }
    std::fwrite(buf.data(), 1, buf.size(), out);
    std::fclose(out);
    return written;
}

void line(const char* what, double value, const char* unit, const char* baselineName, double baseline, double target,
          bool higherIsBetter = true) {
    if (baseline <= 0 || value <= 0) {
        std::printf("%-34s %10.3f %-6s  (baseline %s not measured)\n", what, value, unit, baselineName);
        return;
    }
    const double ratio = higherIsBetter ? value / baseline : baseline / value;
    std::printf("%-34s %10.3f %-6s  %6.1fx %s (%.3f %s)   target >= %.0fx: %s\n", what, value, unit, ratio, baselineName,
                baseline, unit, target, ratio >= target ? "MET" : "NOT MET");
}

long peakRssKiB(int who) {
    rusage u{};
    getrusage(who, &u);
    return u.ru_maxrss;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t rows = 10'000'000;
    std::string work = "/tmp/fabscope-bench";
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--rows" && i + 1 < argc) rows = std::stoull(argv[++i]);
        else if (a == "--work" && i + 1 < argc) work = argv[++i];
        else if (a == "--keep") keep = true;
    }
    fs::remove_all(work);
    fs::create_directories(work);
    const std::string topo = work + "/topology.ibnetdiscover", csv = work + "/slice.csv", store = work + "/store.sqlite",
                      shellDb = work + "/shell.sqlite";

    std::printf("FabScope benchmark: k=48 3-tier fat tree, CSV slice of %zu rows\n", rows);
    const Fabric fabric = demoFabric(DemoOptions::Scale::Large);
    {
        std::ofstream out(topo);
        writeIbnetdiscover(fabric, out, 1700000000);
    }
    double t0 = now();
    rows = writeSlice(fabric, csv, rows);
    std::printf("fabric: %zu switches, %zu hosts, %zu links; CSV %.2f GB written in %.1f s\n", fabric.count(NodeType::Switch),
                fabric.count(NodeType::Ca), fabric.links.size(), static_cast<double>(fs::file_size(csv)) / 1e9, now() - t0);

    // --- import
    ImporterRegistry registry;
    double importSeconds = 0;
    {
        Store s(store);
        ImportRunner runner(s, registry);
        runner.run({topo}, {});
        t0 = now();
        const auto summary = runner.run({csv}, {});
        importSeconds = now() - t0;
        if (summary.anyFailed()) {
            std::fprintf(stderr, "import failed: %s\n", summary.diagnostics.back().format().c_str());
            return 1;
        }
    }
    const double shellImport = runTimed({"sqlite3", shellDb,
                                          "CREATE TABLE samples(timestamp REAL, node TEXT, port TEXT, counter TEXT, value INTEGER)",
                                          ".import --csv --skip 1 " + csv + " samples"});
    const double rowsD = static_cast<double>(rows);
    line("import (rows/s, M)", rowsD / importSeconds / 1e6, "M/s", "sqlite3 .import", shellImport > 0 ? rowsD / shellImport / 1e6 : -1, 15);

    // --- hot-link analysis
    Store s(store, Store::Mode::ReadOnly);
    const StoreInfo info = s.info();
    AnalysisConfig config;
    t0 = now();
    std::vector<Finding> hot;
    double contextSeconds = 0;
    {
        const Store::ReadTransaction read(s);  // as analyze() runs each detector
        const AnalysisContext ctx(s, *info.timeStart, *info.timeEnd, config);
        contextSeconds = now() - t0;
        detectHotLinks(ctx, hot);
    }
    const double hotSeconds = now() - t0;
    const double sqlHot = runTimed({"sqlite3", shellDb,
        "SELECT count(*) FROM (SELECT (value - LAG(value) OVER w) * 8.0 / (timestamp - LAG(timestamp) OVER w) AS bps "
        "FROM samples WHERE counter='xmit_bytes' WINDOW w AS (PARTITION BY node, port ORDER BY timestamp)) "
        "WHERE bps >= 0.8 * 200e9"});
    const std::string py = work + "/hot.py";
    std::ofstream(py) << "import sqlite3, sys, pandas as pd\n"
                         "con = sqlite3.connect(sys.argv[1])\n"
                         "df = pd.read_sql_query(\"SELECT timestamp, node, port, value FROM samples WHERE counter='xmit_bytes'\", con)\n"
                         "df = df.sort_values(['node', 'port', 'timestamp'])\n"
                         "g = df.groupby(['node', 'port'])\n"
                         "bps = g['value'].diff() * 8 / g['timestamp'].diff()\n"
                         "print(int((bps >= 0.8 * 200e9).sum()))\n";
    const double pandasHot = runTimed({"/usr/bin/python3", py, shellDb});
    std::printf("hot links found: %zu (loading the fabric and series list: %.3f s)\n", hot.size(), contextSeconds);
    line("hot-link analysis from the store", hotSeconds, "s", "SQL LAG()", sqlHot, 60, false);
    line("hot-link analysis from the store", hotSeconds, "s", "pandas", pandasHot, 40, false);

    // --- full analysis, memory, size
    t0 = now();
    const auto report = analyze(s, {}, config);
    const double fullSeconds = now() - t0;
    std::printf("%-34s %10.3f s       %zu findings (target < 30 s on the full 200 M samples)\n", "full analysis", fullSeconds,
                report.findings.size());
    std::printf("%-34s %10.1f MiB     (target < 4096 MiB)\n", "peak RSS (this process)", static_cast<double>(peakRssKiB(RUSAGE_SELF)) / 1024);
    std::printf("%-34s %10.2f B       (CSV: %.2f B/row, sqlite3 table: %.2f B/row)\n", "store size per sample",
                static_cast<double>(fs::file_size(store)) / static_cast<double>(info.samples),
                static_cast<double>(fs::file_size(csv)) / rowsD,
                fs::exists(shellDb) ? static_cast<double>(fs::file_size(shellDb)) / rowsD : 0.0);
    if (!keep) fs::remove_all(work);
    return 0;
}
