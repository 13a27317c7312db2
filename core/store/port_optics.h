#pragma once
// What a port's pluggable module (optic or cable) reported when ibdiagnet read it
// (`ibdiagnet --get_cable_info`, its `ibdiagnet2.cables` file): identity, temperature, per-lane
// receive power, transmit bias and power, and the module's alarm flags that were set. Stored per
// topology snapshot (schema v12, table port_optics); evidence beside error, flap and degraded-link
// findings (core/analysis/optic_evidence.cpp) and in the GUI's inspector.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

class Store;

struct PortOptics {
    std::string nodeGuid;  // the port's node (for an HCA the file names the port GUID; the store maps it)
    std::string port;      // "1"
    std::string vendor, partNumber, serial, type, length, firmware;  // as the module reports them; "" when not given
    std::optional<double> temperatureC;       // none for a module without a sensor (passive copper reports 0C)
    std::optional<double> temperatureAlarmC;  // the module's own high-temperature alarm threshold, when it has one
    // Per lane, in order; none where the module gave no reading (-999.999 mW, inf).
    std::vector<std::optional<double>> rxPowerDbm, txPowerDbm, txBiasMa;
    std::vector<std::string> alarms;  // set flags as written, "TX Bias Alarm and Warning 0x3223"
    std::int64_t line = 0;            // the port's block in the file (provenance)

    // The lowest and highest lane receive power among the lanes with a reading.
    [[nodiscard]] std::optional<double> rxMinDbm() const;
    [[nodiscard]] std::optional<double> rxMaxDbm() const;
};

// Writes the modules of one snapshot inside the caller's transaction; a port is found by its
// node's GUID or, failing that, by its port GUID (HCA ports). Returns how many were written;
// the rest name ports the snapshot does not hold.
std::size_t writePortOptics(Store& store, std::int64_t snapshotId, const std::vector<PortOptics>& optics);
// The modules of a snapshot, by node GUID then port; empty for a store before schema 12.
std::vector<PortOptics> loadPortOptics(const Store& store, std::int64_t snapshotId);

// Lanes as stored: "2,1.585,-,-" ("-" = no reading, "" = no lanes); and back.
std::string lanesText(const std::vector<std::optional<double>>& lanes);
std::vector<std::optional<double>> lanesFromText(const std::string& text);

} // namespace fabscope
