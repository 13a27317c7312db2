#pragma once
// Thresholds of the analysis (DESIGN §3), with their defaults, and the `--config` JSON that
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
//                     "fec_uncorrectable": {...}, "xmit_discards": {...} },
//     "link_flap": { "min_count": 1 } }
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
};

struct LinkFlapConfig {
    double minCount = 1;
};

struct AnalysisConfig {
    double gapFactor = 3;
    HotLinkConfig hotLink;
    DegradedLinkConfig degradedLink;
    ErrorLinkConfig errorLink;
    LinkFlapConfig linkFlap;
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

} // namespace fabscope
