#pragma once
// Canonical counter names (docs/FORMATS.md) and the aliases importers accept for them.
#include <optional>
#include <string>
#include <string_view>

namespace fabscope {

struct CounterInfo {
    std::string name;   // canonical, e.g. "xmit_bytes", "pfc_tx_pause_prio3"
    std::string unit;   // "bytes", "packets", "errors", "ticks", "us", "events"
    std::string direction; // "tx", "rx" or "" (both/none)
};

// Canonical name for a canonical name or a known alias (perfquery field names, sysfs names,
// ethtool/SAI names); nullopt when unknown. Case-insensitive.
std::optional<CounterInfo> canonicalCounter(std::string_view nameOrAlias);

// Multiplier from the alias' unit to the canonical unit (e.g. 4 for PortXmitData words -> bytes).
double aliasScale(std::string_view nameOrAlias);

} // namespace fabscope
