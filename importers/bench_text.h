#pragma once
// Small text helpers shared by the benchmark-output importers (perftest, nccl-tests): their
// tables are whitespace-separated columns of plain decimal numbers.
#include "importers/text_util.h"

#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

namespace fabscope::bench {

// A finite decimal number filling the whole token ("7.04", "2e-07", "-1"); nullopt otherwise.
inline std::optional<double> parseNumber(std::string_view s) {
    if (s.empty()) return std::nullopt;
    if (s.front() == '+') s.remove_prefix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v != v || v > 1e300 || v < -1e300) return std::nullopt;
    return v;
}

// A non-negative integer filling the whole token.
inline std::optional<long long> parseCount(std::string_view s) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
}

} // namespace fabscope::bench
