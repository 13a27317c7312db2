#pragma once
// Judges each probe pair against the pairs at the same distance that measured the same thing
// (tool and message size): lossy, slow (p99), jittery (p99 - p50), low bandwidth (perftest);
// and finds slow hosts: a host slow towards most of its peers is the slow one, not its links.
#include "core/analysis/analysis_config.h"
#include "core/analysis/probe_pairs.h"

#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct PairVerdict {
    bool lossy = false, slow = false, jittery = false, lowBandwidth = false;
    std::optional<double> classP99, classJitter, classBwGbps;  // medians of the pair's class
    std::size_t classPairs = 0;
    std::string slowHost;  // the pair's end that is slow towards most of its peers, if any
    std::size_t slowHostPeers = 0, slowHostSlowPeers = 0;
    [[nodiscard]] bool latency() const { return slow || jittery; }
};

// One verdict per pair, same order.
std::vector<PairVerdict> judgePairs(const std::vector<ProbePair>& pairs, const AnalysisConfig& config);

} // namespace fabscope
