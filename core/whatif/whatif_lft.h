#pragma once
// Internal to core/whatif: the what-if re-routing with the captured forwarding tables
// (docs/ANALYSIS.md "What-if", "With forwarding tables"). whatif.cpp uses it when the store holds
// a table for every switch of the fabric, else its ECMP model.
#include "core/analysis/context.h"
#include "core/whatif/whatif.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace fabscope::whatif_detail {

// A link direction: the link and whether it transmits from its `a` end.
using Dir = std::pair<std::uint32_t, bool>;

struct Amount {
    double p95 = 0, peak = 0;
};

// The tables and what follows from them alone (LID maps, ports by number, the min-hop distances
// with every link up), loaded once and shared by many changes (a WhatIfModel holds one).
class LftTables {
public:
    // Null unless the store's latest snapshot has a forwarding table for every switch of the fabric.
    static std::unique_ptr<LftTables> load(const AnalysisContext& ctx);
    ~LftTables();
    LftTables(const LftTables&) = delete;
    LftTables& operator=(const LftTables&) = delete;
    struct Impl;

private:
    friend class LftRouting;
    explicit LftTables(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// One change on shared tables, one thread's; changes on other threads may share the tables (their
// caches fill once per leaf and port, whichever thread asks first).
class LftRouting {
public:
    LftRouting(const LftTables& tables, const std::set<std::uint32_t>& failedLinks, const std::set<std::uint32_t>& failedNodes);
    ~LftRouting();
    LftRouting(const LftRouting&) = delete;
    LftRouting& operator=(const LftRouting&) = delete;

    using UseFn = std::function<DirectionUse(Dir)>;
    using ShiftFn = std::function<void(Dir, double p95, double peak)>;
    // Moves the measured load of every failed direction onto its new routes through `shift`.
    void moveLoad(const UseFn& use, const ShiftFn& shift) const;
    // Hosts (CA descriptions) cut off from the part of the fabric holding the most hosts.
    [[nodiscard]] std::vector<std::string> disconnected() const;

    struct PairRoute {
        std::vector<Dir> before, after;  // after: every direction of the new routes (they may split)
        bool alive = false;              // a route remains after the change
    };
    // Host CA `src` to host CA `dst`: the route the tables give now and the routes after.
    [[nodiscard]] PairRoute route(NodeId src, NodeId dst) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace fabscope::whatif_detail
