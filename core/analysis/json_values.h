#pragma once
// How the JSON contracts (docs/FINDINGS.md: findings, compare) write numbers and ports, shared
// so every document FabScope writes names a port the same way.
#include "core/analysis/port_ref.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope::jsonv {

using nlohmann::ordered_json;

// Integral values print as integers (1700000000, not 1700000000.0).
inline std::optional<std::int64_t> integral(double v) {
    if (std::isfinite(v) && v == std::round(v) && std::fabs(v) < 9e15) return static_cast<std::int64_t>(v);
    return std::nullopt;
}
inline ordered_json number(double v) {
    if (const auto i = integral(v)) return *i;
    return v;
}

// A port name of digits only is written as a number ("port": 33), any other as text.
inline std::optional<int> portNumber(const std::string& port) {
    const bool digits = !port.empty() && port.size() < 10 &&
                        std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
    return digits ? std::optional<int>(std::stoi(port)) : std::nullopt;
}

// {"node": ..., "guid": ... (when known), "port": 33 (a number when all digits) or "Ethernet8"}
inline ordered_json port(const PortRef& p) {
    ordered_json j = ordered_json::object();
    j.get_ref<ordered_json::object_t&>().reserve(3);  // a growing ordered_json object copies its members
    j["node"] = p.node;
    if (!p.guid.empty()) j["guid"] = p.guid;
    if (const auto n = portNumber(p.port)) j["port"] = *n;
    else j["port"] = p.port;
    return j;
}

inline ordered_json ports(const std::vector<PortRef>& ps) {
    ordered_json a = ordered_json::array();
    a.get_ref<ordered_json::array_t&>().reserve(ps.size());
    for (const auto& p : ps) a.push_back(port(p));
    return a;
}

} // namespace fabscope::jsonv
