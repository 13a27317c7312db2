#include "importers/user_time.h"

#include "importers/text_util.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace fabscope {

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// Without the " UTC" the GUI, reports and `info` print after a time.
std::string_view withoutUtc(std::string_view s) { return s.ends_with(" UTC") ? s.substr(0, s.size() - 4) : s; }

std::optional<int> twoDigits(std::string_view s, std::size_t at, int max) {
    int v = 0;
    if (at + 2 > s.size()) return std::nullopt;
    auto [p, ec] = std::from_chars(s.data() + at, s.data() + at + 2, v);
    if (ec != std::errc{} || p != s.data() + at + 2 || v > max) return std::nullopt;
    return v;
}

} // namespace

std::optional<double> readUserTime(std::string_view text) {
    std::string_view t = trimmed(text);
    double d = 0;
    if (auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), d); ec == std::errc{} && p == t.data() + t.size() && !t.empty())
        return std::isfinite(d) ? std::optional(d) : std::nullopt;  // from_chars reads "nan" and "inf"
    t = withoutUtc(t);
    if (t.empty() || !std::isdigit(static_cast<unsigned char>(t.front()))) return std::nullopt;
    return parseTimeLine(t);
}

std::optional<double> readTimeOfDay(std::string_view text) {
    const std::string_view t = withoutUtc(trimmed(text));
    if (t.size() != 5 && t.size() != 8) return std::nullopt;
    if (t[2] != ':' || (t.size() == 8 && t[5] != ':')) return std::nullopt;
    const auto h = twoDigits(t, 0, 23), m = twoDigits(t, 3, 59);
    const auto s = t.size() == 8 ? twoDigits(t, 6, 59) : std::optional<int>(0);
    if (!h || !m || !s) return std::nullopt;
    return *h * 3600.0 + *m * 60.0 + *s;
}

} // namespace fabscope
