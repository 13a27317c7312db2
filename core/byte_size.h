#pragma once
// Message sizes as engineers read them on benchmark axes: powers of 1024 with binary units
// ("8 B", "64 KiB", "4 MiB", "2 GiB"); sizes that are not whole multiples keep one decimal.
#include <cstdint>
#include <cstdio>
#include <string>

namespace fabscope {

inline std::string binarySize(std::int64_t bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    char buf[32];
    if (v == static_cast<double>(static_cast<std::int64_t>(v))) std::snprintf(buf, sizeof buf, "%lld %s", static_cast<long long>(v), units[u]);
    else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

} // namespace fabscope
