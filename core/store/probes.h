#pragma once
// Probe and benchmark results (schema v4): what a host pair measured (pingmesh rows, perftest
// latency/bandwidth runs) and collective benchmark runs (nccl-tests). Port counters say how full a
// link was; these say how long a packet took and how often one was lost (issue 10).
#include "core/store/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fabscope {

// One measurement between two hosts: a pingmesh row, or one message size of a perftest run.
struct ProbeResult {
    std::string tool;        // "pingmesh", "ib_write_lat", "ib_send_bw", ...
    double time = 0;         // UNIX seconds
    std::string src, dst;    // host names or node descriptions, as the input wrote them
    std::int64_t sent = 0;   // probes sent (pingmesh) or iterations (perftest); 0 when unknown
    std::int64_t lost = 0;   // probes lost
    std::optional<double> latencyUs;  // pingmesh RTT, perftest t_typical; empty when the probe was lost
    std::int64_t msgBytes = 0;        // perftest message size; 0 for pingmesh
    // Further named figures of the tool, e.g. {"t_min_us", 1.9}, {"p99_us", 2.4}, {"bw_avg_gbps", 97.3}.
    std::vector<std::pair<std::string, double>> stats;
    std::vector<std::string> path;  // hops the probe recorded ("leaf01 p3" or a node name); empty when unknown
    [[nodiscard]] std::optional<double> stat(const std::string& name) const;
};

// One row of a collective benchmark table (nccl-tests: size count type redop root time algbw busbw).
struct CollectiveRow {
    std::int64_t sizeBytes = 0;
    std::int64_t count = 0;
    std::string type, redop;
    std::optional<double> timeUs, algbwGBs, busbwGBs;                   // out-of-place; GB/s as nccl-tests prints
    std::optional<double> inPlaceTimeUs, inPlaceAlgbwGBs, inPlaceBusbwGBs;
    std::int64_t wrong = 0;  // #wrong of both columns; nonzero means the run was broken
};

struct CollectiveRun {
    std::int64_t id = 0;       // set when loaded
    std::string tool;          // "all_reduce_perf", ...
    double time = 0;           // UNIX seconds
    std::vector<std::string> hosts;  // hosts of the ranks, in rank order, as the output named them
    std::optional<double> avgBusbwGBs;  // "# Avg bus bandwidth"
    std::vector<CollectiveRow> rows;
    // Why the run gave no usable result ("no result table", "3 wrong elements", an NCCL error);
    // empty for a good run. A failed run is kept: it is evidence against its hosts.
    std::string failure;
};

// Writes inside the caller's transaction; importId from Store::recordImport.
void writeProbes(Store& store, std::int64_t importId, const std::vector<ProbeResult>& probes);
std::int64_t writeCollectiveRun(Store& store, std::int64_t importId, const CollectiveRun& run);

// Probes whose time lies in [from, to] (either end open), ordered by time, src, dst.
[[nodiscard]] std::vector<ProbeResult> loadProbes(const Store& store, std::optional<double> from = std::nullopt,
                                                  std::optional<double> to = std::nullopt);
[[nodiscard]] std::vector<CollectiveRun> loadCollectiveRuns(const Store& store);
// The time span of every stored probe and benchmark run, for a default analysis window.
[[nodiscard]] std::optional<std::pair<double, double>> probeTimeSpan(const Store& store);

} // namespace fabscope
