// bench_large: the whole docs/PERFORMANCE.md "large" scenario, not a slice. Writes the k=48 3-tier fat
// tree and every one of its ~200 M samples (4 counters on each of the 138,240 switch ports, 360
// samples) straight into a store through SampleWriter, the path every importer ends in, then
// times what a user waits for on that store: the full analysis (target < 30 s), reading the
// fabric and the series list back, peak RSS (target < 4 GiB) and bytes per sample.
// Usage: bench_large [--work DIR] [--keep] [--samples N]   (the store is left for bench_views --store)
#include "core/analysis/analyze.h"
#include "core/demo_fabric.h"
#include "core/store/sample_writer.h"
#include "core/store/store.h"
#include "core/tiers.h"
#include "core/whatif/whatif.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;
using namespace fabscope;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// Every switch port of the fabric, 4 counters, `samples` samples 10 s apart. Every 500th port
// runs at 97% of 200 Gb/s from sample 5 on (hot links to find); the rest at 30%.
std::size_t writeScenario(Store& store, const Fabric& f, int samples) {
    Store::Transaction tx(store);
    SampleWriter writer(store);
    const CounterInfo counters[4] = {*canonicalCounter("xmit_bytes"), *canonicalCounter("rcv_bytes"),
                                     *canonicalCounter("xmit_wait"), *canonicalCounter("symbol_errors")};
    std::size_t ports = 0;
    for (const Port& p : f.ports) {
        const Node& node = f.node(p.node);
        if (node.type != NodeType::Switch) continue;
        SampleWriter::Handle h[4];
        for (int c = 0; c < 4; ++c) h[c] = writer.series(node.guid, p.name, counters[c]);
        const double util = ports % 500 == 0 ? 0.97 : 0.30;
        for (int s = 0; s < samples; ++s) {
            const std::int64_t t = (1700000000LL + 10LL * s) * 1000;
            const double bytes = (ports % 500 == 0 && s < 5 ? 0.30 : util) * 25e9 * 10 * s;
            writer.add(h[0], t, bytes);
            writer.add(h[1], t, bytes / 2);
            writer.add(h[2], t, 100.0 * s);
            writer.add(h[3], t, 0);
        }
        ++ports;
    }
    writer.flush();
    store.recordImport("bench_large scenario", "bench-large-" + std::to_string(samples), "bench", writer.samples());
    tx.commit();
    return static_cast<std::size_t>(writer.samples());
}

// `fabscope analyze --db store` in its own process, as a user runs it: wall seconds and that
// process's peak RSS in MiB (-1, -1 when it cannot run).
std::pair<double, double> analyzeInOwnProcess(const std::string& fabscope, const std::string& store) {
    const std::string db = "--db=" + store;
    char* args[] = {const_cast<char*>(fabscope.c_str()), const_cast<char*>("analyze"), const_cast<char*>(db.c_str()), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const double t0 = now();
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return {-1, -1};
    int status = 0;
    rusage u{};
    wait4(pid, &status, 0, &u);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return {-1, -1};
    return {now() - t0, static_cast<double>(u.ru_maxrss) / 1024.0};
}

} // namespace

int main(int argc, char** argv) {
    std::string work = "/tmp/fabscope-bench-large";
    bool keep = false;
    int samples = 360;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--work" && i + 1 < argc) work = argv[++i];
        else if (a == "--keep") keep = true;
        else if (a == "--samples" && i + 1 < argc) samples = std::stoi(argv[++i]);
    }
    fs::remove_all(work);
    fs::create_directories(work);
    const std::string storePath = work + "/large.sqlite";

    // The scenario is written by a child process, so that this one stays small: a process
    // started from a big one inherits its peak RSS (the kernel carries the old image's high
    // water mark across exec), which would spoil the analysis' own figure below.
    double t0 = now();
    std::fflush(stdout);
    const pid_t writer = fork();
    if (writer == 0) {
        const Fabric fabric = demoFabric(DemoOptions::Scale::Large);
        Store store(storePath);
        {
            Store::Transaction tx(store);
            const auto sid = store.writeSnapshot(fabric, "large", 1700000000);
            store.recordImport("bench_large topology", "bench-large-topology", "bench", 0, sid);
            tx.commit();
        }
        const std::size_t written = writeScenario(store, fabric, samples);
        const double writeSeconds = now() - t0;
        std::printf("large scenario: %zu switches, %zu hosts, %zu links, %zu samples written in %.1f s (%.2f M samples/s), "
                    "peak RSS %.0f MiB\n",
                    fabric.count(NodeType::Switch), fabric.count(NodeType::Ca), fabric.links.size(), written, writeSeconds,
                    static_cast<double>(written) / writeSeconds / 1e6, peakRssMiB());
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    if (writer < 0 || waitpid(writer, &status, 0) != writer || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "writing the scenario failed\n");
        return 1;
    }

    // The CLI sits beside this benchmark in the build tree: build/bench/.. -> build/app/fabscope.
    const std::string cli = (fs::path(argv[0]).parent_path() / ".." / "app" / "fabscope").string();
    const auto [cliSeconds, cliRss] = analyzeInOwnProcess(cli, storePath);
    if (cliSeconds < 0) std::printf("fabscope analyze in its own process: not measured (%s did not run)\n", cli.c_str());
    else
        std::printf("%-34s %10.3f s       peak RSS %.1f MiB   targets < 30 s, < 4096 MiB: %s\n", "fabscope analyze (own process)",
                    cliSeconds, cliRss, cliSeconds < 30 && cliRss < 4096 ? "MET" : "NOT MET");

    Store store(storePath, Store::Mode::ReadOnly);
    t0 = now();
    const auto snap = store.latestSnapshot();
    const Fabric loaded = store.loadFabric(snap->id);
    const double fabricSeconds = now() - t0;
    t0 = now();
    const auto series = store.series();
    const double seriesSeconds = now() - t0;
    t0 = now();
    const StoreInfo info = store.info();
    const double infoSeconds = now() - t0;
    std::printf("%-34s %10.3f s       (%zu links)\n", "read the fabric back", fabricSeconds, loaded.links.size());
    std::printf("%-34s %10.3f s       (%zu series)\n", "read the series list", seriesSeconds, series.size());
    std::printf("%-34s %10.3f s       (%zu samples)\n", "store summary (info)", infoSeconds, info.samples);

    t0 = now();
    const auto report = analyze(store, {}, AnalysisConfig{});
    const double analysisSeconds = now() - t0;
    std::printf("%-34s %10.3f s       %zu findings   target < 30 s: %s\n", "full analysis", analysisSeconds,
                report.findings.size(), analysisSeconds < 30 ? "MET" : "NOT MET");
    const double rss = peakRssMiB();
    std::printf("%-34s %10.1f MiB     target < 4096 MiB: %s\n", "peak RSS (reads + analysis)", rss, rss < 4096 ? "MET" : "NOT MET");
    std::printf("%-34s %10.2f B\n", "store size per sample",
                static_cast<double>(fs::file_size(storePath)) / static_cast<double>(info.samples));

    // What-if (issue 22): one leaf uplink fails; in-process (the CLI adds its start-up and the
    // JSON). The comparison is the full analysis of the same store, and the load must be conserved.
    const std::vector<int> tier = computeTiers(loaded);
    std::optional<WhatIfChange> uplink;
    for (const Link& l : loaded.links) {
        const NodeId a = loaded.port(l.a).node, b = loaded.port(l.b).node;
        if (tier[a.value()] == 1 && tier[b.value()] == 2) uplink = parseFail(loaded.node(a).description + ":" + loaded.port(l.a).name);
        if (tier[b.value()] == 1 && tier[a.value()] == 2) uplink = parseFail(loaded.node(b).description + ":" + loaded.port(l.b).name);
        if (uplink) break;
    }
    if (uplink) {
        std::vector<double> times;
        WhatIfReport w;
        for (int i = 0; i < 3; ++i) {
            t0 = now();
            w = whatIf(store, std::nullopt, std::nullopt, {*uplink}, AnalysisConfig{});
            times.push_back(now() - t0);
        }
        std::sort(times.begin(), times.end());
        std::printf("%-34s %10.3f s       %s, %zu link directions moved   target < 2 s: %s (full analysis %.1fx longer)\n",
                    "what-if, one leaf uplink", times[1], uplink->label().c_str(), w.links.size(), times[1] < 2 ? "MET" : "NOT MET",
                    analysisSeconds / times[1]);
        std::printf("%-34s p95 load %.1f -> %.1f Gb/s: %s\n", "  conserved", w.totalBeforeGbps, w.totalAfterGbps,
                    std::abs(w.totalAfterGbps - w.totalBeforeGbps) <= 0.01 * w.totalBeforeGbps ? "agree" : "DISAGREE");
    }
    if (keep) std::printf("store kept: %s\n", storePath.c_str());
    else fs::remove_all(work);
    return 0;
}
