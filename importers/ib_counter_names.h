#pragma once
// perfquery / ibqueryerrors field names -> stored counters. Canonical names where the analysis
// knows the counter, else a snake_case form of the field ("PortMalformedPktErrors" ->
// "port_malformed_pkt_errors") so nothing the tool printed is lost.
#include "core/counters.h"

#include <string_view>

namespace fabscope {

struct IbField {
    CounterInfo info;
    double scale = 1;  // PortXmitData/PortRcvData count 4-byte words
};

// nullopt for fields that are not counters (PortSelect, CounterSelect...).
std::optional<IbField> ibCounterField(std::string_view field);

// Rates ibdiagnet derives and prints beside the counters (db_csv PM_INFO, .pm): not counters,
// so not stored (a series of them would read as a counter's deltas).
inline bool isIbdiagnetRate(std::string_view name) {
    return name == "retransmission_per_sec" || name == "max_retransmission_rate";
}

} // namespace fabscope
