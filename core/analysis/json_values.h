#pragma once
// How the JSON contracts (docs/FINDINGS.md: findings, compare) write numbers and ports, shared
// so every document FabScope writes names a port the same way.
#include "core/analysis/port_ref.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

namespace fabscope::jsonv {

using nlohmann::ordered_json;

// Integral values print as integers (1700000000, not 1700000000.0).
inline ordered_json number(double v) {
    if (std::isfinite(v) && v == std::round(v) && std::fabs(v) < 9e15) return static_cast<std::int64_t>(v);
    return v;
}

// {"node": ..., "guid": ... (when known), "port": 33 (a number when all digits) or "Ethernet8"}
inline ordered_json port(const PortRef& p) {
    const auto digits = !p.port.empty() && p.port.size() < 10 &&
                        std::all_of(p.port.begin(), p.port.end(), [](char c) { return c >= '0' && c <= '9'; });
    ordered_json j;
    j["node"] = p.node;
    if (!p.guid.empty()) j["guid"] = p.guid;
    if (digits) j["port"] = std::stoi(p.port);
    else j["port"] = p.port;
    return j;
}

inline ordered_json ports(const std::vector<PortRef>& ps) {
    ordered_json a = ordered_json::array();
    for (const auto& p : ps) a.push_back(port(p));
    return a;
}

} // namespace fabscope::jsonv
