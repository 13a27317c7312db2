// bench_large: the whole DESIGN §7 "large" scenario, not a slice. Writes the k=48 3-tier fat
// tree and every one of its ~200 M samples (4 counters on each of the 138,240 switch ports, 360
// samples) straight into a store through SampleWriter, the path every importer ends in, then
// times what a user waits for on that store: the full analysis (target < 30 s), reading the
// fabric and the series list back, peak RSS (target < 4 GiB) and bytes per sample.
// Usage: bench_large [--work DIR] [--keep] [--samples N]   (the store is left for bench_views --store)
#include "core/analysis/analyze.h"
#include "core/demo_fabric.h"
#include "core/sample_writer.h"
#include "core/store.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

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

    const Fabric fabric = demoFabric(DemoOptions::Scale::Large);
    double t0 = now();
    std::size_t written = 0;
    {
        Store store(storePath);
        {
            Store::Transaction tx(store);
            const auto sid = store.writeSnapshot(fabric, "large", 1700000000);
            store.recordImport("bench_large topology", "bench-large-topology", "bench", 0, sid);
            tx.commit();
        }
        written = writeScenario(store, fabric, samples);
    }
    const double writeSeconds = now() - t0;
    std::printf("large scenario: %zu switches, %zu hosts, %zu links, %zu samples written in %.1f s (%.2f M samples/s)\n",
                fabric.count(NodeType::Switch), fabric.count(NodeType::Ca), fabric.links.size(), written, writeSeconds,
                static_cast<double>(written) / writeSeconds / 1e6);

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
    std::printf("%-34s %10.1f MiB     target < 4096 MiB: %s\n", "peak RSS (write + analysis)", rss, rss < 4096 ? "MET" : "NOT MET");
    std::printf("%-34s %10.2f B\n", "store size per sample",
                static_cast<double>(fs::file_size(storePath)) / static_cast<double>(written));
    if (keep) std::printf("store kept: %s\n", storePath.c_str());
    else fs::remove_all(work);
    return 0;
}
