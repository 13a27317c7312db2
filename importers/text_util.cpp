#include "importers/text_util.h"

#include "core/fabric_builder.h"
#include "importers/line_reader.h"

#include <charconv>
#include <cctype>
#include <ctime>

namespace fabscope {

std::optional<std::uint64_t> parseU64(std::string_view s) {
    int base = 10;
    if (s.starts_with("0x") || s.starts_with("0X")) {
        s.remove_prefix(2);
        base = 16;
    }
    if (s.empty()) return std::nullopt;
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
    return v;
}

namespace {

std::optional<double> parseIso(std::string_view s) {
    // YYYY-MM-DDTHH:MM:SS then Z, +HH:MM, +HHMM or nothing (taken as UTC).
    if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':')
        return std::nullopt;
    auto num = [&](std::size_t at, std::size_t len) -> std::optional<int> {
        int v = 0;
        auto [p, ec] = std::from_chars(s.data() + at, s.data() + at + len, v);
        if (ec != std::errc{} || p != s.data() + at + len) return std::nullopt;
        return v;
    };
    const auto Y = num(0, 4), M = num(5, 2), D = num(8, 2), h = num(11, 2), m = num(14, 2), sec = num(17, 2);
    if (!Y || !M || !D || !h || !m || !sec || *M < 1 || *M > 12 || *D < 1 || *D > 31 || *h > 23 || *m > 59 || *sec > 60)
        return std::nullopt;
    std::string_view zone = s.substr(19);
    double frac = 0;
    if (zone.starts_with('.') || zone.starts_with(',')) {
        std::size_t k = 1;
        double scale = 0.1;
        while (k < zone.size() && std::isdigit(static_cast<unsigned char>(zone[k]))) {
            frac += (zone[k] - '0') * scale;
            scale /= 10;
            ++k;
        }
        zone.remove_prefix(k);
    }
    int offset = 0;
    if (zone == "Z" || zone.empty()) {
        offset = 0;
    } else if ((zone[0] == '+' || zone[0] == '-') && (zone.size() == 6 || zone.size() == 5 || zone.size() == 3)) {
        const int sign = zone[0] == '-' ? -1 : 1;
        zone.remove_prefix(1);
        int hh = 0, mm = 0;
        auto r1 = std::from_chars(zone.data(), zone.data() + 2, hh);
        if (r1.ec != std::errc{} || r1.ptr != zone.data() + 2) return std::nullopt;
        if (zone.size() > 2) {
            const std::size_t at = zone[2] == ':' ? 3 : 2;
            if (zone.size() != at + 2) return std::nullopt;
            auto r2 = std::from_chars(zone.data() + at, zone.data() + at + 2, mm);
            if (r2.ec != std::errc{} || r2.ptr != zone.data() + at + 2) return std::nullopt;
        }
        offset = sign * (hh * 3600 + mm * 60);
    } else {
        return std::nullopt;
    }
    std::tm tm{};
    tm.tm_year = *Y - 1900;
    tm.tm_mon = *M - 1;
    tm.tm_mday = *D;
    tm.tm_hour = *h;
    tm.tm_min = *m;
    tm.tm_sec = *sec;
    return static_cast<double>(timegm(&tm) - offset) + frac;
}

} // namespace

std::optional<double> parseTimeLine(std::string_view line) {
    line = trim(line);
    if (line.empty()) return std::nullopt;
    if (std::isdigit(static_cast<unsigned char>(line.front())) && line.find_first_not_of("0123456789.") == std::string_view::npos) {
        double v = 0;
        auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
        // Nine or more integer digits: a 2001+ epoch time, not a stray count.
        if (ec == std::errc{} && p == line.data() + line.size() && v >= 1e8 && v < 1e11) return v;
        return std::nullopt;
    }
    return parseIso(line);
}

std::string guidFromFileName(std::string_view path) {
    const auto slash = path.find_last_of("/\\");
    std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    if (!name.starts_with("0x") && !name.starts_with("0X")) return {};
    std::size_t e = 2;
    while (e < name.size() && std::isxdigit(static_cast<unsigned char>(name[e]))) ++e;
    if (e == 2 || e > 18 || (e < name.size() && name[e] != '.' && name[e] != '-' && name[e] != '_')) return {};
    return normaliseGuid(name.substr(0, e));
}

std::vector<std::string_view> splitWhitespace(std::string_view l) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < l.size()) {
        const auto b = l.find_first_not_of(" \t", i);
        if (b == std::string_view::npos) break;
        auto e = l.find_first_of(" \t", b);
        if (e == std::string_view::npos) e = l.size();
        out.push_back(l.substr(b, e - b));
        i = e;
    }
    return out;
}

} // namespace fabscope
