#pragma once
// Small text helpers shared by the counter importers (numbers, capture times, GUIDs in names).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

// Decimal or 0x-hex unsigned integer filling the whole token.
std::optional<std::uint64_t> parseU64(std::string_view s);

// "  Ethernet0   1,234  N/A" -> {"Ethernet0", "1,234", "N/A"}: tokens split on spaces and tabs.
std::vector<std::string_view> splitWhitespace(std::string_view line);

// A capture-time line: `date +%s` (fractions allowed) or ISO 8601 `date -Iseconds` /
// `date -u +%FT%TZ`. UNIX seconds; nullopt when the line is something else.
std::optional<double> parseTimeLine(std::string_view line);

// "0x7cfe9003009ce5b0.out", "dir/0x7cfe9003009ce5b0-1.out" -> "0x7cfe9003009ce5b0"; empty otherwise.
std::string guidFromFileName(std::string_view path);

} // namespace fabscope
