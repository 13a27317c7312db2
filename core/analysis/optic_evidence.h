#pragma once
// What the modules at a link's ends reported (ibdiagnet2.cables, core/store/port_optics.h),
// added to the findings about that link's health: error_link, link_flap and degraded_link.
// docs/FINDINGS.md "Where this build stands" names the metrics; docs/ANALYSIS.md the rules.
#include "core/analysis/analysis_config.h"
#include "core/analysis/findings.h"
#include "core/store/port_optics.h"

#include <string>
#include <vector>

namespace fabscope {

// What stands out in one module's reading under the shared thresholds: the findings' summary
// clauses and the report's "Port modules" table use the same rule.
struct OpticConcerns {
    bool nearAlarm = false;   // at or within temperatureMarginC of its own high-temperature alarm
    bool lanesApart = false;  // strongest and weakest receive lane rxLaneSpreadDb or more apart
    bool flagged = false;     // an alarm, warning, loss or fault flag set
    [[nodiscard]] bool any() const { return nearAlarm || lanesApart || flagged; }
};
OpticConcerns opticConcerns(const PortOptics& o, const OpticsConfig& config);
// "ACME OPTICS OSFP-400G-SR4-T 850 nm VCSEL SN AC25010001" (vendor, part, type, serial).
std::string opticIdentity(const PortOptics& o);
// Those concerns in words ("at 77 °C (its alarm 80 °C), flag ..."); empty when there are none.
// The findings' summaries and the fabric view's marks say the same.
std::string opticConcernText(const PortOptics& o, const OpticsConfig& config);

// Adds optic_* metrics to each such finding one of whose ports has a module reading, and a
// clause to its summary when a module is within `config.temperatureMarginC` of its alarm
// threshold, its receive lanes differ by `config.rxLaneSpreadDb` or more, or it has flags set.
void addOpticEvidence(const std::vector<PortOptics>& optics, const OpticsConfig& config, std::vector<Finding>& findings);

} // namespace fabscope
