#pragma once
// Incidents: the findings that are one problem, grouped so the cause comes first
// (docs/ANALYSIS.md "Incidents", docs/FINDINGS.md `incident`). No Qt; run at the end of
// analyze(), so the CLI, the GUI and reports show the same groups.
#include "core/analysis/findings.h"

#include <string_view>

namespace fabscope {

// Groups report.findings (already sorted and numbered by sortAndNumber) into incidents:
// - a degraded_link with every finding on the same link, and with a congestion_tree or
//   pfc_storm rooted at one of its ends;
// - error_link and link_flap findings of one link whose times overlap, with the lossy_link
//   and straggler_path findings on that link at the same time;
// - a congestion_tree or pfc_storm with the hot_link, ecmp_imbalance and straggler_path
//   findings that transmit from one of its ports while it lasts;
// - a hot_link with the straggler_path whose bottleneck hop it is.
// Fills report.incidents (by worst severity, then start), sets each finding's incident id and
// reorders report.findings by incident, the cause first in each. Finding ids do not change.
void groupIncidents(FindingsReport& report);

// Which kinds explain others: lower comes first within an incident (degraded_link 0, ...).
int causeRank(FindingKind kind);

} // namespace fabscope
