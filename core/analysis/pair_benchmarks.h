#pragma once
// Pairwise benchmarks (docs/ANALYSIS.md "Pairwise benchmarks"): nccl-tests runs between two hosts,
// the field's "bisect with nccl-tests" sweep, grouped into classes that may be compared (same
// benchmark, GPUs per node, nodes, size range and distance in the fabric), each run reduced to one
// figure robust to its size sweep, judged against its class (median and MAD), and the hosts that
// are in slow or failed runs far more often than chance gives. The slow_pair / slow_host detector,
// the Benchmarks dock's matrix and the report's "Pairwise benchmarks" section all read this.
#include "core/analysis/analysis_config.h"
#include "core/model.h"
#include "core/store/probes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

// Where two hosts sit in the fabric (the same words as probe pairs' DistanceClass).
enum class PairDistance { Unknown, SameLeaf, SamePod, AcrossSpines };
std::string_view toString(PairDistance d);  // "", "same_leaf", "same_pod", "across_spines"

struct PairRun {
    std::int64_t runId = 0;
    std::string tool;                 // "alltoall_perf"
    double time = 0;                  // UNIX seconds
    std::string hostA, hostB;         // the two hosts, in rank order of their first rank
    int gpusPerNode = 0;              // ranks / 2
    std::int64_t minBytes = 0, maxBytes = 0;  // the size sweep (0 for a run with no table)
    std::optional<double> figureGBs;  // mean out-of-place busbw over the sizes >= min_size_bytes
    std::string failure;              // why it gave no figure (nccl-tests' own reason); empty when good
    std::size_t classIndex = 0;       // into PairBenchmarks::classes
    bool slow = false;                // an outlier below its class (never for a failed run)
    std::optional<double> ratio;      // figure / class median
    [[nodiscard]] bool failed() const { return !failure.empty(); }
    [[nodiscard]] bool bad() const { return slow || failed(); }
    [[nodiscard]] std::string label() const;  // "alltoall_perf G8"
};

struct PairClass {
    std::string tool;
    int gpusPerNode = 0;
    std::int64_t minBytes = 0, maxBytes = 0;
    PairDistance distance = PairDistance::Unknown;
    std::vector<std::size_t> runs;         // indices into PairBenchmarks::runs
    std::size_t goodRuns = 0, slowRuns = 0, failedRuns = 0;
    std::optional<double> medianGBs, madGBs;  // of the good runs' figures (MAD scaled by 1.4826)
    bool judged = false;                   // enough good runs (min_runs) to call outliers
    // "Is this normal?": what the hosts' NICs allow (see expectedBusbw()), when a topology names them.
    std::optional<double> expectedGBs;
    std::optional<double> nicGbps;         // the slowest NIC line rate of the class's hosts
    int nicsPerHost = 0;
    [[nodiscard]] std::string label() const;  // "alltoall_perf, 2 nodes x 8 GPUs, 32 MiB-16 GiB, across spines"
};

struct HostVerdict {
    std::string host;
    std::size_t runs = 0, slowRuns = 0, failedRuns = 0;
    std::size_t peers = 0, badPeers = 0;  // distinct partners, and those with a slow or failed run
    double expectedShare = 0;   // bad share of the runs without this host (and without hosts already named)
    double pValue = 1;          // P(X >= bad runs) for X ~ Binomial(runs, expectedShare)
    // Runs with peers below the same leaf: a fault of the host shows there too, a fault above
    // its leaf (an uplink) does not; with such runs mostly good the host is not named.
    std::size_t sameLeafRuns = 0, sameLeafBad = 0;
    bool slow = false;          // named a slow_host
    [[nodiscard]] std::size_t badRuns() const { return slowRuns + failedRuns; }
};

struct PairBenchmarks {
    std::vector<PairRun> runs;      // two-host runs, by tool, GPUs per node, hosts
    std::vector<PairClass> classes;
    std::vector<std::string> hosts; // every host of a run, by leaf switch when the fabric has them, else by name
    std::vector<HostVerdict> verdicts;  // one per host, same order as hosts
    std::size_t otherRuns = 0;          // runs on one host or more than two: not pairwise
    [[nodiscard]] bool empty() const { return runs.empty(); }
};

// The figure of a run: mean out-of-place bus bandwidth (in-place when out-of-place is missing)
// over the sizes >= minSizeBytes, or over the largest size when the sweep stops below it.
[[nodiscard]] std::optional<double> runFigureGBs(const CollectiveRun& run, double minSizeBytes);

// Expected bus bandwidth (GB/s) of a two-node run with g GPUs per node when each host has `nics`
// NICs of `nicGbps` (the model, docs/ANALYSIS.md): B = min(g, nics) x nicGbps / 8 x efficiency is
// what a host can send; all_reduce-like collectives reach busbw = B; sendrecv crosses one NIC
// (nicGbps / 8 x efficiency); alltoall sends g/(2g-1) of each rank's busbw bytes off the host,
// so busbw = B / (g x g/(2g-1)).
[[nodiscard]] std::optional<double> expectedBusbw(std::string_view tool, int gpusPerNode, int nics, double nicGbps,
                                                  double efficiency);

// Groups, figures and judges `runs`; `fabric` (may be empty) gives distances, leaf order and NICs.
[[nodiscard]] PairBenchmarks judgePairBenchmarks(const std::vector<CollectiveRun>& runs, const Fabric& fabric,
                                                 const PairBenchmarkConfig& config);
// The same over hosts already placed on their fabric (host_places.h), shared with the findings.
class HostPlaces;
[[nodiscard]] PairBenchmarks judgePairBenchmarks(const std::vector<CollectiveRun>& runs, const HostPlaces& places,
                                                 const PairBenchmarkConfig& config);

// Upper binomial tail P(X >= k), X ~ Binomial(n, p).
[[nodiscard]] double binomialTail(std::size_t n, std::size_t k, double p);

} // namespace fabscope
