#pragma once
// Thresholds of the analysis (docs/FINDINGS.md), with their defaults, and the `--config` JSON that
// overrides them. Every key is optional; unknown keys are an error so typos do not pass silently.
//
//   { "gap_factor": 3,                         // an interval longer than this x the median is a gap
//     "hot_link": { "util": 0.8,               // utilisation (0..1) a direction must reach
//                   "critical_util": 0.95,     // peak at or above this -> severity critical
//                   "min_samples": 3 },        // consecutive intervals needed
//     "degraded_link": { "expected_width": 4,  // lanes every link should run (like ibdiagnet --lw)
//                        "expected_speed": "HDR" },  // lane speed name (like ibdiagnet --ls)
//     "error_link": { "critical_factor": 10,   // rate >= factor x threshold -> severity critical
//                     "symbol_errors": {"per_s": 0.0167, "min_count": 10},
//                     "link_error_recovery": {...}, "rcv_errors": {...},
//                     "fec_uncorrectable": {...}, "xmit_discards": {...},
//                     "effective_ber": 1e-12,  // a port's BER after FEC above this (net_dump_ext)
//                     "symbol_ber": 1e-12 },   // ... or after FEC and retransmission
//     "link_flap": { "min_count": 1 },
//     "congestion_tree": { "share": 0.3,       // xmit_wait time / interval a port must reach
//                          "critical_share": 0.6, "min_samples": 3,
//                          "tick_ns": 4 },     // PortXmitWait tick length (hardware-specific)
//     "pfc_storm": { "share": 0.5,             // paused time / interval a port must cause
//                    "min_samples": 3,
//                    "frame_quanta": 65535,    // pause time per frame (x 512 bit times)
//                    "xoff_refresh": 2,        // XOFF frames per quanta time while kept paused
//                    "default_speed_gbps": 100,// frame conversion when no link speed is known
//                    "origin_rx_ratio": 0.5,   // an origin receives < ratio x what it sends
//                    "critical_share": 0.9, "deadlock_min_samples": 3,
//                    "disagreement": 0.25 },   // tx vs peer rx share difference reported
//     "ecmp_imbalance": { "ratio": 1.5, "min_mean_util": 0.2, "min_samples": 3,
//                         "skip_hot": true },  // leave a busiest link that is already hot to hot_link
//     "straggler_path": { "ring_above": 8,     // jobs larger than this: ring pairs only
//                         "outlier_ratio": 0.5,// pair headroom <= ratio x job median
//                         "min_pairs": 3, "flagged_penalty": 0.5, "max_routes": 64,
//                         "critical_headroom": 0.05,
//                         "all_pairs": false },// every ordered pair (all-to-all jobs)
//     "lossy_link": { "pair_loss": 0.01,       // a pair losing this share of its probes is bad ...
//                     "min_lost": 3,           // ... when it lost at least this many
//                     "min_bad_votes": 2,      // votes a link (or tied group) needs
//                     "max_good_share": 0.5,   // good votes / all votes on it must stay at or below
//                     "critical_loss": 0.05, "max_routes": 64 },
//     "slow_pair": { "latency_factor": 2,      // p99 >= factor x median p99 of the distance class
//                    "jitter_factor": 3,       // p99 - p50 >= factor x the class median
//                    "min_excess_us": 5,       // ... and at least this many us above it
//                    "bw_ratio": 0.7,          // perftest bandwidth <= ratio x class median
//                    "min_pairs": 3,           // pairs a class needs to compare against
//                    "slow_host_share": 0.75 }, // a host slow towards this share of its peers
//     "pair_benchmark": { "min_size_bytes": 33554432, // a run's figure: mean busbw over sizes >= this
//                         "min_drop": 0.2,   // slow: figure <= (1 - drop) x the class median ...
//                         "mad_factor": 4,   // ... and >= factor x MAD (x 1.4826) below it
//                         "min_runs": 4,     // good runs a class needs to compare against
//                         "host_alpha": 0.01,// slow_host: binomial p-value < alpha / hosts
//                         "host_min_share": 0.5, // ... and this share of its runs slow or failed
//                         "protocol_efficiency": 0.92 }, // expected busbw: line rate x this
//     "compare": { "min_util_change": 0.1,   // a link direction's p95 utilisation must move this much ...
//                  "min_relative_change": 0.25, // ... and by this share of the larger side
//                  "min_busbw_change": 0.1 },   // a benchmark class's median busbw: relative change
//     "optics": { "temperature_margin_c": 5, // a module this close to its own alarm is named ...
//                 "rx_lane_spread_db": 3 } } // ... and one whose receive lanes are this far apart
//   (docs/ANALYSIS.md explains each key.)
//
// error_link fires when a counter's total increase over the window is >= min_count AND its
// mean rate over the valid intervals is > per_s. Defaults (see analysis_config.cpp for why):
//   symbol_errors 1/min (min 10), link_error_recovery 1/h (min 2), rcv_errors 1/min (min 10),
//   fec_uncorrectable any (min 1), xmit_discards 1/min (min 10).
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fabscope {

struct HotLinkConfig {
    double util = 0.8;
    double criticalUtil = 0.95;
    int minSamples = 3;
};

struct DegradedLinkConfig {
    std::optional<int> expectedWidth;
    std::optional<std::string> expectedSpeed;  // IB lane speed name, e.g. "HDR"
};

struct ErrorThreshold {
    double perSecond = 0;     // mean rate must exceed this
    double minCount = 1;      // and the total increase must reach this
};

using ErrorThresholds = std::map<std::string, ErrorThreshold, std::less<>>;  // canonical counter -> threshold
ErrorThresholds defaultErrorThresholds();

struct ErrorLinkConfig {
    double criticalFactor = 10;
    ErrorThresholds counters = defaultErrorThresholds();
    // A port's bit error rate after FEC (effective) or after FEC and retransmission (symbol) above
    // this, as ibdiagnet read it (ibdiagnet2.net_dump_ext), is an error_link: ibdiagnet's own BER
    // threshold, 1e-12; 0 turns that check off. The raw (pre-FEC) rate is not judged: PAM4 links
    // run far above it by design.
    double effectiveBer = 1e-12;
    double symbolBer = 1e-12;
};

struct LinkFlapConfig {
    double minCount = 1;
};

struct CongestionTreeConfig {
    double share = 0.3;          // fraction of the interval the port waited for credits
    double criticalShare = 0.6;  // root at or above this -> critical
    int minSamples = 3;          // consecutive intervals
    double tickNs = 4;           // PortXmitWait tick (IBA leaves it to the hardware)
};

struct PfcStormConfig {
    double share = 0.5;          // fraction of the interval paused by this port's pause frames
    int minSamples = 3;          // consecutive intervals
    double frameQuanta = 65535;  // pause per frame when only frame counts exist (1 quantum = 512 bit times)
    double xoffRefresh = 2;      // XOFF frames a port that stays paused sends per quanta time
    double defaultSpeedGbps = 100;  // link speed for the frame conversion when no source states one
    double originRxRatio = 0.5;  // an origin receives less than this x the pause share it sends
    double criticalShare = 0.9;  // origin's peak share at or above this -> critical (also with spread)
    int deadlockMinSamples = 3;  // intervals a pause cycle must hold, all its ports at once
    double disagreement = 0.25;  // |tx of one end - rx of the other| share worth reporting
};

struct EcmpImbalanceConfig {
    double ratio = 1.5;          // busiest / group mean must exceed this
    double minMeanUtil = 0.2;    // ... while the group mean is at least this
    int minSamples = 3;          // consecutive intervals
    bool skipHot = true;         // intervals where the busiest link is a hot link are left to hot_link
};

struct StragglerPathConfig {
    int ringAbove = 8;           // jobs with more ranks: ring neighbours only; else all pairs
    bool allPairs = false;       // every pair of every job (all-to-all, MoE expert parallelism)
    double outlierRatio = 0.5;   // worst pair's headroom <= ratio x median of the job's pairs
    int minPairs = 3;            // fewer pairs: nothing to compare against
    double flaggedPenalty = 0.5; // headroom factor of a hop named by an error/flap/congestion/PFC finding
    int maxRoutes = 64;          // equal-cost routes enumerated per pair
    double criticalHeadroom = 0.05;  // bottleneck headroom at or below this -> critical
};

// lossy_link: links blamed by voting over probe pairs (docs/ANALYSIS.md).
struct LossyLinkConfig {
    double pairLoss = 0.01;      // share of a pair's probes lost that makes it a bad pair
    double minLost = 3;          // ... with at least this many probes lost (one lost probe is noise)
    double minBadVotes = 2;      // bad votes a link or tied group needs to be blamed
    double maxGoodShare = 0.5;   // good votes / (good + bad votes) at or below this
    double criticalLoss = 0.05;  // loss of the pairs it explains at or above this -> critical
    int maxRoutes = 64;          // equal-cost routes per pair
};

// slow_pair: probe pairs that are outliers against pairs at the same distance.
struct SlowPairConfig {
    double latencyFactor = 2;    // p99 >= factor x the class median p99
    double jitterFactor = 3;     // p99 - p50 >= factor x the class median jitter
    double minExcessUs = 5;      // and at least this far above the median (sub-us noise is no outlier)
    double bwRatio = 0.7;        // perftest bandwidth <= ratio x the class median
    int minPairs = 3;            // fewer pairs in a class: nothing to compare against
    double slowHostShare = 0.75; // a host slow towards this share of its peers is the slow one
};

// slow_pair and slow_host from pairwise benchmarks (nccl-tests runs between two hosts).
struct PairBenchmarkConfig {
    double minSizeBytes = 32.0 * 1024 * 1024;  // sizes at or above this give a run's figure
    double minDrop = 0.2;           // a slow run is at least this far below its class median
    double madFactor = 4;           // ... and this many scaled MADs below it (when the MAD is not 0)
    int minRuns = 4;                // good runs a class needs before any is judged
    double hostAlpha = 0.01;        // a slow host's binomial p-value is below alpha / hosts tested
    double hostMinShare = 0.5;      // ... and this share of its runs is slow or failed
    double protocolEfficiency = 0.92;  // share of the line rate a run can reach (headers, NCCL)
};

// `fabscope compare`: what counts as a change and not noise (core/compare/compare.h).
struct CompareConfig {
    double minUtilChange = 0.1;       // |bad - good| p95 utilisation (0..1) of a link direction ...
    double minRelativeChange = 0.25;  // ... and that much of the larger of the two
    double minBusbwChange = 0.1;      // relative change of a benchmark class's median busbw
};

// Module readings (ibdiagnet2.cables) shown beside link findings: a module this close to its
// own high-temperature alarm, or whose receive lanes differ by this much, is named in the summary.
struct OpticsConfig {
    double temperatureMarginC = 5;  // degrees Celsius below the module's alarm threshold
    double rxLaneSpreadDb = 3;      // dB between the module's strongest and weakest receive lane
};

struct AnalysisConfig {
    double gapFactor = 3;
    HotLinkConfig hotLink;
    DegradedLinkConfig degradedLink;
    ErrorLinkConfig errorLink;
    LinkFlapConfig linkFlap;
    CongestionTreeConfig congestionTree;
    PfcStormConfig pfcStorm;
    EcmpImbalanceConfig ecmpImbalance;
    StragglerPathConfig stragglerPath;
    LossyLinkConfig lossyLink;
    SlowPairConfig slowPair;
    PairBenchmarkConfig pairBenchmark;
    CompareConfig compare;
    OpticsConfig optics;
};

// Thrown for a config that cannot be read or does not follow the schema above.
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Applies the overrides in `json` to the defaults. Throws ConfigError.
AnalysisConfig parseAnalysisConfig(std::string_view json);
// Reads and parses a config file. Throws ConfigError (message starts with the file name).
AnalysisConfig loadAnalysisConfig(const std::string& path);
// The per-user config the GUI edits and the CLI reads when no --config is given:
// $XDG_CONFIG_HOME/fabscope/analysis.json, else ~/.config/fabscope/analysis.json; empty when
// neither XDG_CONFIG_HOME nor HOME is set.
std::string userConfigPath();
// That file parsed when it exists, else the defaults. Throws ConfigError for a bad file.
AnalysisConfig loadUserConfig();
// Checks `json` and writes it as that file (creating its folder); returns the config it gives.
// Throws ConfigError for bad JSON or a file that cannot be written; the old file then stays.
AnalysisConfig saveUserConfig(const std::string& json);

} // namespace fabscope
