#pragma once
// The parts of `compare` (compare.h), each appending its changes: one side is a store read over
// its window with the snapshot in force then, and its findings.
#include "core/analysis/context.h"
#include "core/compare/compare.h"

#include <memory>

namespace fabscope::compare {

struct Side {
    const Store* store = nullptr;
    CompareSide info;
    std::optional<std::int64_t> snapshotId;
    std::unique_ptr<AnalysisContext> ctx;
    FindingsReport findings;
    bool sameStoreAsOther = false;  // one store, two windows: jobs are told apart by their time
};

// Links added, removed, moved or re-cabled at another width/speed between the two snapshots.
void topologyChanges(const Side& good, const Side& bad, std::vector<Change>& out);
// Per link direction: p50/p95/p99 utilisation and time above the hot threshold.
void loadChanges(const Side& good, const Side& bad, const CompareConfig& c, double hotUtil, std::vector<Change>& out);
// Port modules read on both sides (ibdiagnet2.cables): swapped, or worse (compare_modules.cpp).
void moduleChanges(const Side& good, const Side& bad, const OpticsConfig& config, std::vector<Change>& out);
// Problems a tool reported about nodes (fabric_events) new in, or gone from, the bad run.
void toolEventChanges(const Side& good, const Side& bad, std::vector<Change>& out);
// Error, flap, pause and congestion findings that one side has and the other not.
void findingChanges(const Side& good, const Side& bad, std::vector<Change>& out);
// The job: rank -> host, rings and trees, transports (GDRDMA), NCCL version.
void jobChanges(const Side& good, const Side& bad, std::vector<Change>& out);
// Benchmark classes' median bus bandwidth (pairwise nccl-tests).
void benchmarkChanges(const Side& good, const Side& bad, const AnalysisConfig& config, std::vector<Change>& out);

// "leaf01 p20" (the findings' label form).
std::string portLabel(const PortRef& p);

} // namespace fabscope::compare
