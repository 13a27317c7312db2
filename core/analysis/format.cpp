#include "core/analysis/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace fabscope::numfmt {

std::string ber(double v) {
    if (!std::isfinite(v)) return "?";
    if (v == 0) return "0";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);  // "3.2e-10", "1.0e-12"
    std::string s = buf;
    const auto e = s.find('e');
    std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    if (mantissa.ends_with(".0")) mantissa.resize(mantissa.size() - 2);
    const bool negative = exponent[0] == '-';
    exponent.erase(0, exponent.find_first_not_of("+-0"));
    return mantissa + "e" + (negative ? "-" : "") + (exponent.empty() ? "0" : exponent);
}

std::string num(double v, int digits) {
    if (!std::isfinite(v)) return "?";
    // Integers print whole (150, 2950) whatever `digits` says.
    if (std::fabs(v) >= 1 && std::fabs(v) < 1e15 && std::round(v) == v) return std::to_string(static_cast<long long>(v));
    const int mag = v == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::fabs(v))));
    const int decimals = std::max(0, digits - 1 - mag);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

double round(double v, int digits) {
    if (v == 0 || !std::isfinite(v)) return v;
    const int mag = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    const double scale = std::pow(10.0, digits - 1 - mag);
    return std::round(v * scale) / scale;
}

std::string eventRate(double perSecond) {
    if (perSecond >= 1) return num(perSecond) + "/s";
    if (perSecond * 60 >= 1) return num(perSecond * 60) + "/min";
    return num(perSecond * 3600) + "/h";
}

std::string utc(double unixSeconds) {
    const auto s = static_cast<std::time_t>(std::floor(unixSeconds));
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

} // namespace fabscope::numfmt
