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

} // namespace fabscope
