#pragma once
// When a port's bit error rate is a problem: the rule error_link applies to what ibdiagnet read
// (core/analysis/ber_link.cpp) and the fabric view marks by (views/fabric_view_modules.cpp), with
// the shared thresholds (error_link.effective_ber / symbol_ber, analysis_config.h).
#include "core/analysis/analysis_config.h"
#include "core/store/port_ber.h"

#include <optional>
#include <string>

namespace fabscope {

struct BerExcess {
    bool afterRetransmission = false;  // the symbol BER (after FEC and retransmission) is the worse one
    double ber = 0, threshold = 0;     // the worse rate and its threshold
    double factor = 0;                 // ber / threshold, > 1
    bool effectiveOver = false, symbolOver = false;  // which rates are above their thresholds (one or both)

    [[nodiscard]] const char* counter() const { return afterRetransmission ? "symbol_ber" : "effective_ber"; }
    // "3.2e-10 after FEC (threshold 1e-12)"
    [[nodiscard]] std::string text() const;
};

// The rate further above its threshold; nullopt when neither is above.
std::optional<BerExcess> berExcess(const PortBer& b, const ErrorLinkConfig& config);

} // namespace fabscope
