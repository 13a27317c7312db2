#pragma once
// "Single points of stress" (issue 22): each top-tier switch failed in turn with the what-if
// model (core/whatif, docs/ANALYSIS.md "What-if") over the report's window, to see which one the
// fabric can least afford to lose; and each leaf's uplink group with one uplink (its most loaded)
// failed. A prediction from the window's measured load, not a simulation.
#include "core/analysis/context.h"
#include "core/whatif/whatif.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct SwitchStress {
    std::string node;           // its description
    std::string guid;
    std::string port;           // a leaf uplink group: the uplink failed (its name); empty: the whole switch
    std::optional<WhatIfLink> failedUplink;  // that uplink's up direction (leaf tx -> upper rx) before
    std::size_t uplinks = 0;    // a leaf uplink group: its uplinks
    double loadGbps = 0;        // p95 load summed over its link directions before (what it carries)
    std::size_t linksFailed = 0;
    std::optional<WhatIfLink> worst;    // the live link direction with the highest p95 after
    std::size_t turningHot = 0;         // link directions turning hot
    std::optional<JobImpact> worstJob;  // the highest slowdown (a cut-off job first)
    double gpuHoursAtRisk = 0;          // summed over the jobs
    WhatIfReport report;
};

struct StressReport {
    bool evaluated = false;        // the store had a topology and counters
    int tier = 0;                  // the top switch tier
    std::size_t topTierSwitches = 0;
    std::size_t limit = 0;         // at most this many evaluated
    bool byLoad = false;           // more than `limit`: the most loaded were chosen
    std::vector<SwitchStress> rows;  // by worst after p95, highest first

    // Leaf uplink groups: each leaf (tier 1, a switch with hosts) with links one tier up loses its
    // most loaded uplink (p95 summed over both directions); at most `limit` leaves, the most loaded
    // groups when there are more.
    std::size_t uplinkGroups = 0;    // leaves with uplinks
    bool uplinksByLoad = false;
    std::vector<SwitchStress> uplinkRows;  // worst first, as rows
};

// Fails every top-tier switch of ctx.fabric() in turn (at most `limit`, the ones carrying the
// most p95 load when there are more) over the context's window and with its thresholds, all on
// that one context; then each leaf's most loaded uplink (at most `uplinkLimit` leaves, likewise). `measured`: the store has counters; without them, or without a topology,
// nothing is evaluated. Throws AnalysisCancelled when `cancel` is set.
// `progress(kind, done, total)`: `done` of the `total` what-ifs of one kind ("top-tier switch",
// "leaf uplink") are evaluated; called on the calling thread, in order, ending with done == total.
using StressProgress = std::function<void(const std::string& kind, std::size_t done, std::size_t total)>;
StressReport singlePointsOfStress(const AnalysisContext& ctx, bool measured, std::size_t limit, std::size_t uplinkLimit,
                                  const std::atomic<bool>* cancel = nullptr, const StressProgress& progress = {});

} // namespace fabscope
