#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>
namespace fabscope {
inline const auto phStart = std::chrono::steady_clock::now();
inline void ph(const char* label) {
    static const bool on = std::getenv("PH") != nullptr;
    if (on) std::fprintf(stderr, "PH %7.2f %s\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - phStart).count(), label);
}
}
