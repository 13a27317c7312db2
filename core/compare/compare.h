#pragma once
// `fabscope compare` (docs/CLI.md, docs/FINDINGS.md "compare JSON"): what changed between a good
// run and a bad one, in one store (two time windows) or two stores. Each side is read with the
// topology snapshot in force at its window's end; changes are ranked by their likely impact on a
// job. Links with data on one side only are reported as such, never as zero.
#include "core/analysis/analysis_config.h"
#include "core/analysis/findings.h"
#include "core/store/store.h"

#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

enum class ChangeKind { Topology, Routes, Load, Errors, Pauses, Congestion, Job, Benchmark, Probe };
std::string_view toString(ChangeKind k);  // "topology", "route", ... as in the JSON

using ChangeValues = std::vector<std::pair<std::string, MetricValue>>;  // units in the key names

struct Change {
    ChangeKind kind = ChangeKind::Load;
    std::vector<PortRef> ports;      // a link's two ends, transmitting end first; empty for a job
    std::vector<std::string> hosts;  // hosts it is about (jobs, benchmarks)
    ChangeValues good, bad;          // {"data": "none"} on a side without data
    std::string summary;             // one line with both values and their units
    double score = 0;                // likely impact on a job, 0..100; the list is sorted by it
};

struct CompareWindow {
    std::optional<double> from, to;  // UNIX seconds; an open end takes the store's span
};

struct CompareSide {
    std::string store;      // path as given
    double start = 0, end = 0;
    std::string snapshot;   // label of the snapshot in force ("" without topology)
    double snapshotTime = 0;
};

struct CompareReport {
    CompareSide good, bad;
    std::vector<Change> changes;  // by score, highest first
};

// Compares the bad side against the good one; `cancel` (may be null) stops between parts with
// AnalysisCancelled.
[[nodiscard]] CompareReport compareRuns(const Store& goodStore, const std::string& goodName, CompareWindow goodWindow,
                                        const Store& badStore, const std::string& badName, CompareWindow badWindow,
                                        const AnalysisConfig& config, const std::atomic<bool>* cancel = nullptr);

// {"fabscope_compare": 1, "good": {...}, "bad": {...}, "changes": [...]}, `indent` -1 for one line.
[[nodiscard]] std::string compareJson(const CompareReport& report, int indent = 2);

} // namespace fabscope
