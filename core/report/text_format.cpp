#include "core/report/text_format.h"

#include "core/analysis/format.h"

#include <cmath>
#include <cstdio>
#include <ctime>

namespace fabscope::reportfmt {

namespace {
std::tm broken(double t) {
    const auto s = static_cast<std::time_t>(std::floor(t));
    std::tm tm{};
    gmtime_r(&s, &tm);
    return tm;
}
} // namespace

// Literal formats (not a helper taking one), so -Wformat=2 can check them.
std::string utc(double t) { return numfmt::utc(t); }

std::string clock(double t) {
    const std::tm tm = broken(t);
    char buf[16];
    std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
    return buf;
}

std::string duration(double seconds) {
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s < 120) return std::to_string(s) + " s";
    if (s < 7200) return std::to_string(s / 60) + " min" + (s % 60 ? " " + std::to_string(s % 60) + " s" : "");
    return std::to_string(s / 3600) + " h" + ((s % 3600) / 60 ? " " + std::to_string((s % 3600) / 60) + " min" : "");
}

std::string percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", fraction * 100.0);
    return buf;
}

std::string number(double v, int digits) { return numfmt::num(v, digits); }

} // namespace fabscope::reportfmt
