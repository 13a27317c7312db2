// Import and analysis benchmark at the docs/PERFORMANCE.md "large" scale, each figure printed as a ratio
// against a baseline measured in the same run on the same rows:
//   import:    FabScope's chunked store  vs  the sqlite3 shell's typed .import of the same CSV
//   hot links: FabScope from the store   vs  SQL LAG() window function, and pandas (if installed)
//   full analysis time, peak RSS, store bytes per sample.
// Usage: fabscope_bench [--rows N] [--work DIR] [--keep]
//   default: 10,000,000 rows in /tmp/fabscope-bench, removed afterwards unless --keep
// Import and analysis benchmark at the docs/PERFORMANCE.md "large" scale. Every figure is printed
// with both sides' timings, as a ratio against a baseline measured in the same run on the same
// rows, and with a check that both sides' results agree (docs/PERFORMANCE.md says how each
// baseline is set up):
//   import:           FabScope's chunked store  vs  the sqlite3 shell's typed .import (medians of 3)
//   hot links:        FabScope from its store   vs  SQL LAG() over an indexed table, and pandas; cold and warm
//   import + analyze: `fabscope import` + `fabscope analyze` vs a pandas script, both from the same CSV
//   full analysis time, peak RSS, store bytes per sample.
// Usage: fabscope_bench [--rows N] [--work DIR] [--keep] [--import-only]
//   default: 10,000,000 rows in /tmp/fabscope-bench, removed afterwards unless --keep;
//   --import-only stops after the import figure (for measuring import changes)
#include "bench/bench_util.h"
#include "core/analysis/analyze.h"
#include "core/analysis/context.h"
#include "core/analysis/detectors.h"
#include "core/demo_fabric.h"
#include "importers/import_runner.h"

#include <sys/resource.h>

#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace fabscope;
using namespace bench;
namespace fs = std::filesystem;

namespace {

// The CSV slice: the scenario's 360 samples x 4 counters for as many switch ports as `rows`
// allows, written time-major like a collector's dump. A slice by ports keeps each series whole;
// a slice by time (all 553k series, a few samples each) measures series creation instead.
// Not the ideal layout: real collectors jitter (times off the 10 s grid by up to 0.3 s, written
// with a fraction), miss polls (1 in 97 rows absent), reset counters (every 89th port restarts
// from zero at sample 200), and count errors and PFC pauses in bursts.
constexpr std::size_t kSamples = 360;
std::size_t writeSlice(const Fabric& f, const std::string& path, std::size_t rows) {
    std::vector<const Port*> ports;
    for (const auto& l : f.links)
        for (PortId p : {l.a, l.b})
            if (f.node(f.port(p).node).type == NodeType::Switch) ports.push_back(&f.port(p));
    ports.resize(std::min(ports.size(), (rows + 4 * kSamples - 1) / (4 * kSamples)));
    std::FILE* out = std::fopen(path.c_str(), "w");
    std::fputs("timestamp,node,port,counter,value\n", out);
    static const char* kCounters[] = {"xmit_bytes", "rcv_bytes", "pfc_rx_pause_prio3", "symbol_errors"};
    std::vector<std::array<std::uint64_t, 4>> total(ports.size(), {0, 0, 0, 0});
    std::string buf;
    buf.reserve(1 << 20);
    std::size_t written = 0, row = 0;
    char num[32];
    for (std::size_t s = 0; s < kSamples; ++s) {
        for (std::size_t i = 0; i < ports.size() && written < rows; ++i) {
            const Port& p = *ports[i];
            // ~30% utilisation of 200 Gb/s, ~97% on every 50th port from sample 5 on.
            const double util = (i % 50 == 0 && s >= 5) ? 0.97 : 0.30;
            auto& t = total[i];
            if (i % 89 == 0 && s == 200) t = {0, 0, 0, 0};  // the port's counters were cleared
            const auto bytes = static_cast<std::uint64_t>(util * 25e9 * 10);
            t[0] += s ? bytes : 0;
            t[1] += s ? bytes / 2 : 0;
            t[2] += (i % 7 == 0 && s % 60 < 6) ? 1500 + 37 * (s % 6) : 0;  // pause frames in bursts
            t[3] += (i % 31 == 0 && s % 90 == 45) ? 12 : 0;
            const int jitterMs = static_cast<int>((i * 7919 + s * 104729) % 601) - 300;  // -300..300 ms
            const std::int64_t ms = (1700000000 + static_cast<std::int64_t>(s) * 10) * 1000 + jitterMs;
            char stamp[32];
            std::snprintf(stamp, sizeof stamp, "%lld.%03lld", static_cast<long long>(ms / 1000), static_cast<long long>(ms % 1000));
            for (int c = 0; c < 4; ++c) {
                if (++row % 97 == 0) continue;  // a missed poll
                buf += stamp;
                buf += ',';
                buf += f.node(p.node).description;
                buf += ',';
                buf += p.name;
                buf += ',';
                buf += kCounters[c];
                buf += ',';
                auto [end, ec] = std::to_chars(num, num + sizeof num, t[static_cast<std::size_t>(c)]);
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

long peakRssKiB(int who) {
    rusage u{};
    getrusage(who, &u);
    return u.ru_maxrss;
}

// The hot ports FabScope names: the transmitting end of each hot_link finding, counted once (a
// link hot in two episodes, e.g. either side of a counter reset, is two findings and one port).
long long hotPorts(const std::vector<Finding>& findings) {
    std::set<std::pair<std::string, std::string>> ports;
    for (const auto& f : findings)
        if (f.kind == FindingKind::HotLink && !f.ports.empty()) ports.emplace(f.ports.front().node, f.ports.front().port);
    return static_cast<long long>(ports.size());
}

long long parseCount(const std::string& line) {
    long long v = -1;
    std::from_chars(line.data(), line.data() + line.size(), v);
    return v;
}

// The pandas side's hot ports, from a frame `df` of xmit_bytes rows sorted by port and time: the
// same rule as the SQL query and FabScope's hot_link (>= 80 % of 200 Gb/s between two samples).
constexpr const char* kPandasHotPorts = "g = df.groupby(['node', 'port'])\n"
                                        "bps = g['value'].diff() * 8 / g['timestamp'].diff()\n"
                                        "print(len(df[bps >= 0.8 * 200e9][['node', 'port']].drop_duplicates()))\n";

// A fresh store holding the fabric, as an engineer's store holds it before counters arrive.
void storeWithTopology(const std::string& store, const std::string& topo) {
    fs::remove(store);
    Store s(store);
    ImporterRegistry registry;
    ImportRunner(s, registry).run({topo}, {});
}

} // namespace

int main(int argc, char** argv) {
    std::size_t rows = 10'000'000, smallRows = 2'460'000;
    std::string work = "/tmp/fabscope-bench";
    bool keep = false, importOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--rows" && i + 1 < argc) rows = std::stoull(argv[++i]);
        else if (a == "--work" && i + 1 < argc) work = argv[++i];
        else if (a == "--keep") keep = true;
        else if (a == "--import-only") importOnly = true;
    }
    smallRows = std::min(smallRows, rows);
    fs::remove_all(work);
    fs::create_directories(work);
    const std::string topo = work + "/topology.ibnetdiscover", csv = work + "/slice.csv", store = work + "/store.sqlite",
                      shellDb = work + "/shell.sqlite", smallCsv = work + "/small.csv", out = work + "/out.txt";
    const std::string cli = (fs::path(argv[0]).parent_path() / ".." / "app" / "fabscope").string();
    const bool root = ::geteuid() == 0;

    std::printf("FabScope benchmark: k=48 3-tier fat tree, CSV slice of %zu rows; medians of 3; page cache %s\n", rows,
                root ? "dropped for the cold runs" : "not droppable (not root): warm runs only");
    const Fabric fabric = demoFabric(DemoOptions::Scale::Large);
    {
        std::ofstream o(topo);
        writeIbnetdiscover(fabric, o, 1700000000);
    }
    double t0 = now();
    rows = writeSlice(fabric, csv, rows);
    smallRows = writeSlice(fabric, smallCsv, smallRows);
    std::printf("fabric: %zu switches, %zu hosts, %zu links; CSV %.2f GB written in %.1f s\n", fabric.count(NodeType::Switch),
                fabric.count(NodeType::Ca), fabric.links.size(), static_cast<double>(fs::file_size(csv)) / 1e9, now() - t0);
    const double rowsD = static_cast<double>(rows);

    // --- 1. import: the same CSV, FabScope into a store that holds the fabric vs the sqlite3 shell
    std::size_t stored = 0;
    const double ours = medianOf(3, [&] {
        storeWithTopology(store, topo);
        Store s(store);
        ImporterRegistry registry;
        const double start = now();
        const auto summary = ImportRunner(s, registry).run({csv}, {});
        const double t = now() - start;
        std::printf("  FabScope import run: %.3f s\n", t);
        stored = s.info().samples;
        return summary.anyFailed() ? -1.0 : t;
    });
    const double shell = medianOf(3, [&] {
        fs::remove(shellDb);
        return runTimed({"sqlite3", shellDb, "CREATE TABLE samples(timestamp REAL, node TEXT, port TEXT, counter TEXT, value INTEGER)",
                         ".import --csv --skip 1 " + csv + " samples"});
    });
    runTimed({"sqlite3", shellDb, "SELECT count(*) FROM samples"}, out);
    ratioLine("import (M rows/s)", rowsD / ours / 1e6, "M/s", "sqlite3 .import", shell > 0 ? rowsD / shell / 1e6 : -1, 15);
    agreeLine("  rows stored", static_cast<long long>(stored), parseCount(firstLine(out)), "sqlite3");
    if (importOnly) {
        if (!keep) fs::remove_all(work);
        return 0;
    }

    // --- 2. hot links from the stored data; the SQL table gets the index a DBA would add
    const double indexSeconds = runTimed({"sqlite3", shellDb, "CREATE INDEX samples_series ON samples(counter, node, port, timestamp, value)"});
    std::printf("%-40s %10.3f s    (not counted below)\n", "  sqlite3: covering index for the query", indexSeconds);
    const std::string sqlHot =
        "SELECT count(*) FROM (SELECT DISTINCT node, port FROM (SELECT node, port, (value - LAG(value) OVER w) * 8.0 / "
        "(timestamp - LAG(timestamp) OVER w) AS bps FROM samples WHERE counter='xmit_bytes' "
        "WINDOW w AS (PARTITION BY node, port ORDER BY timestamp)) WHERE bps >= 0.8 * 200e9)";
    const AnalysisConfig config;
    long long ourHot = 0;
    auto fabscopeHot = [&] {
        const double start = now();  // before the store is opened: its first read is timed
        Store s(store, Store::Mode::ReadOnly);
        const StoreInfo info = s.info();
        std::vector<Finding> hot;
        const Store::ReadTransaction read(s);  // as analyze() runs each detector
        const AnalysisContext ctx(s, *info.timeStart, *info.timeEnd, config);
        detectHotLinks(ctx, hot);
        ourHot = hotPorts(hot);
        return now() - start;
    };
    auto sqlHotRun = [&] { return runTimed({"sqlite3", shellDb, sqlHot}, out); };
    const std::string py = work + "/hot_store.py";
    std::ofstream(py) << "import sqlite3, sys, pandas as pd\n"
                         "con = sqlite3.connect(sys.argv[1])\n"
                         "df = pd.read_sql_query(\"SELECT timestamp, node, port, value FROM samples WHERE counter='xmit_bytes'\", con)\n"
                         "df = df.sort_values(['node', 'port', 'timestamp'])\n"
                      << kPandasHotPorts;
    const double pyStart = medianOf(3, [&] { return runTimed({"/usr/bin/python3", "-c", "import pandas"}); });
    if (root) {
        dropPageCache();
        const double coldOurs = fabscopeHot();
        dropPageCache();
        const double coldSql = sqlHotRun();
        ratioLine("hot links from the store, cold cache (s)", coldOurs, "s", "SQL LAG()", coldSql, 60, false);
    }
    const double warmOurs = medianOf(3, fabscopeHot);
    const double warmSql = medianOf(3, sqlHotRun);
    const long long sqlCount = parseCount(firstLine(out));
    const double pandasHot = medianOf(3, [&] { return runTimed({"/usr/bin/python3", py, shellDb}, out); });
    const long long pandasCount = pandasHot > 0 ? parseCount(firstLine(out)) : -1;
    ratioLine("hot links from the store, warm (s)", warmOurs, "s", "SQL LAG()", warmSql, 60, false);
    agreeLine("  hot ports", ourHot, sqlCount, "SQL");
    ratioLine("hot links from the store, warm (s)", warmOurs, "s", "pandas", pandasHot, 40, false);
    if (pandasHot > 0) {
        std::printf("%-40s %10.3f s    (Python start-up and `import pandas`; pandas without it: %.3f s, %.1fx)\n", "  of which",
                    pyStart, pandasHot - pyStart, (pandasHot - pyStart) / warmOurs);
        agreeLine("  hot ports", ourHot, pandasCount, "pandas");
    }

    // --- 3. import + analyze from one CSV: the CLI as a user runs it vs a pandas script
    const std::string pyCsv = work + "/hot_csv.py";
    std::ofstream(pyCsv) << "import sys, pandas as pd\n"
                            "df = pd.read_csv(sys.argv[1])\n"
                            "df = df[df['counter'] == 'xmit_bytes'].sort_values(['node', 'port', 'timestamp'])\n"
                         << kPandasHotPorts;
    const std::string smallStore = work + "/small.sqlite", json = work + "/analysis.json";  // what the user reads; not parsed
    const double cliRun = medianOf(3, [&] {
        storeWithTopology(smallStore, topo);
        const double imp = runTimed({cli, "import", "--db", smallStore, smallCsv});
        const double ana = imp < 0 ? -1 : runTimed({cli, "analyze", "--db", smallStore, "--json"}, json);
        return ana < 0 ? -1 : imp + ana;
    });
    long long cliHot = -1;  // counted from the same store, outside the timing
    {
        Store small(smallStore, Store::Mode::ReadOnly);
        cliHot = hotPorts(analyze(small, {}, config).findings);
    }
    const double pandasCsv = medianOf(3, [&] { return runTimed({"/usr/bin/python3", pyCsv, smallCsv}, out); });
    char what[64];
    std::snprintf(what, sizeof what, "import + analyze, %.2f M-row CSV (s)", static_cast<double>(smallRows) / 1e6);
    ratioLine(what, cliRun, "s", "pandas", pandasCsv, 10, false);
    if (pandasCsv > 0) {
        std::printf("%-40s %10.3f s    (pandas without start-up and import: %.3f s, %.1fx)\n", "  Python start-up + import pandas", pyStart,
                    pandasCsv - pyStart, (pandasCsv - pyStart) / cliRun);
        agreeLine("  hot ports", cliHot, parseCount(firstLine(out)), "pandas");
    }

    // --- 4. full analysis, memory, size
    Store s(store, Store::Mode::ReadOnly);
    const StoreInfo info = s.info();
    t0 = now();
    const auto report = analyze(s, {}, config);
    const double fullSeconds = now() - t0;
    std::printf("%-40s %10.3f s    %zu findings (the whole 200 M-sample scenario is bench_large's)\n", "full analysis of the slice", fullSeconds,
                report.findings.size());
    std::printf("%-40s %10.1f MiB  (target < 4096 MiB)\n", "peak RSS (this process)", static_cast<double>(peakRssKiB(RUSAGE_SELF)) / 1024);
    std::printf("%-40s %10.2f B    (CSV: %.2f B/row, sqlite3 table and index: %.2f B/row)\n", "store size per sample",
                static_cast<double>(fs::file_size(store)) / static_cast<double>(info.samples),
                static_cast<double>(fs::file_size(csv)) / rowsD,
                fs::exists(shellDb) ? static_cast<double>(fs::file_size(shellDb)) / rowsD : 0.0);
    if (!keep) fs::remove_all(work);
    return 0;
}
