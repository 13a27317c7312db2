#pragma once
// A finding of the analysis and the findings JSON of docs/FINDINGS.md (`analyze --json`,
// `report --out x.json`).
#include "core/analysis/finding_kind.h"
#include "core/analysis/job_routes.h"
#include "core/analysis/port_ref.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace fabscope {

enum class FindingSeverity { Critical = 0, Warning = 1, Info = 2 };
std::string_view toString(FindingSeverity s);


using MetricValue = std::variant<double, std::string>;

struct Finding {
    std::string id;    // "<kind>-<n>", set by sortAndNumber()
    FindingKind kind = FindingKind::HotLink;  // its JSON name: kindName(kind) (finding_kind.h)
    FindingSeverity severity = FindingSeverity::Warning;
    double start = 0, end = 0;  // UNIX seconds
    std::string summary;
    std::vector<PortRef> ports;  // for a link: both ends, transmitting end first
    std::optional<PortRef> origin;
    std::vector<PortRef> path;
    std::vector<std::pair<std::string, MetricValue>> metrics;  // in output order
    int incident = 0;  // 1-based id of the incident it belongs to, set by groupIncidents() (incidents.h)
};

// Findings that are one problem (docs/ANALYSIS.md "Incidents"), built by groupIncidents().
struct Incident {
    int id = 0;  // 1-based: the position in FindingsReport::incidents, by severity then start
    FindingSeverity severity = FindingSeverity::Info;  // the worst member's
    double start = 0, end = 0;                          // UNIX seconds, over the members
    std::vector<std::size_t> members;                   // indices into FindingsReport::findings, cause first
};

struct FindingsReport {
    double windowStart = 0, windowEnd = 0;  // UNIX seconds
    std::vector<Finding> findings;  // grouped by incident (incidents.h), the cause first in each
    std::vector<JobRoutes> jobs;  // every job's pairs as routed and scored (not in the findings JSON)
    std::vector<Incident> incidents{};  // by severity then start; Finding::incident indexes it from 1
};

// Sorts by severity, then start time (then kind name and first port, so output is stable), and
// numbers each kind from 1: hot_link-1, hot_link-2, degraded_link-1, ...
void sortAndNumber(std::vector<Finding>& findings);

// The findings JSON of docs/FINDINGS.md, pretty-printed with `indent` spaces (-1: one line).
std::string findingsJson(const FindingsReport& report, int indent = 2);

} // namespace fabscope
