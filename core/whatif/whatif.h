#pragma once
// `fabscope whatif` (docs/CLI.md; the model in docs/ANALYSIS.md "What-if"): take links or a
// switch out, or run a link at another width/speed, on the captured fabric, move the measured
// load of what failed onto its equal-cost alternatives, and predict each link's utilisation and
// the jobs' slowdown. A prediction from the window's p95 and peak, not a simulation.
#include "core/analysis/analysis_config.h"
#include "core/analysis/findings.h"
#include "core/store/store.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace fabscope {

struct WhatIfChange {
    enum Kind { Fail, Degrade } kind = Fail;
    std::string node;   // description, GUID or LID as the user wrote it
    std::string port;   // empty: the whole node (every link of a switch)
    std::string widthSpeed;  // Degrade: "1xHDR"
    [[nodiscard]] std::string label() const;  // "fail leaf01:20", "degrade leaf03:21=1xHDR"
};

// "NODE[:PORT]" (--fail) and "NODE:PORT=WIDTHxSPEED" (--degrade); throws std::invalid_argument.
WhatIfChange parseFail(const std::string& text);
WhatIfChange parseDegrade(const std::string& text);

// A change that names nothing in the fabric, or a width/speed that gives no capacity.
class WhatIfError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct DirectionUse {
    double p95Gbps = 0, peakGbps = 0, capacityGbps = 0;
    [[nodiscard]] double p95Util() const { return capacityGbps > 0 ? p95Gbps / capacityGbps : 0; }
    [[nodiscard]] double peakUtil() const { return capacityGbps > 0 ? peakGbps / capacityGbps : 0; }
};

struct WhatIfLink {
    std::vector<PortRef> ports;  // transmitting end, receiving end
    DirectionUse before, after;  // after.capacityGbps 0: the link failed
    bool failed = false;
    bool turnsHot = false;       // after p95 at or above hot_link.util, before not
};

struct JobImpact {
    std::string name;
    std::size_t ranks = 0;
    double worstBefore = 0, worstAfter = 0;  // highest p95 utilisation on the job's routes
    std::vector<PortRef> bottleneck;         // that link after the change
    double slowdown = 1;                     // max(1, worstAfter) / max(1, worstBefore)
    double gpuHoursAtRisk = 0;               // (slowdown - 1) x ranks x window hours
    bool disconnected = false;               // a host of the job lost every route
};

struct WhatIfReport {
    double windowStart = 0, windowEnd = 0;
    std::string routing = "ecmp";            // "lft": re-routed with the imported forwarding tables
    std::vector<WhatIfChange> changes;
    std::vector<WhatIfLink> links;           // the links the change touched: hot-after first, then by after p95
    double totalBeforeGbps = 0, totalAfterGbps = 0;  // p95 load summed over every link direction of the fabric
    std::vector<std::string> disconnected;   // hosts left without any route
    std::vector<JobImpact> jobs;
};

[[nodiscard]] WhatIfReport whatIf(const Store& store, std::optional<double> from, std::optional<double> to,
                                  const std::vector<WhatIfChange>& changes, const AnalysisConfig& config);
// The same over a context already built (a report evaluates many changes on one context).
class AnalysisContext;
[[nodiscard]] WhatIfReport whatIf(const AnalysisContext& ctx, const std::vector<WhatIfChange>& changes);

// {"fabscope_whatif": 1, "model": ..., "changes": [...], "links": [...], "disconnected": [...], "job": {...}}
[[nodiscard]] std::string whatIfJson(const WhatIfReport& report, int indent = 2);

} // namespace fabscope
