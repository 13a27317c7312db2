#pragma once
// The colours of a comparison, one convention for the GUI's compare mode (views/compare_colouring)
// and the comparison report's fabric (core/report/compare_fabric_svg.cpp): red = more load on the
// bad side, blue = less, a removed link dashed in near-black. Plain RGB (core has no Qt) and the
// same as "#rrggbb" for SVG.
#include <array>

namespace fabscope::comparergb {

struct Rgb {
    unsigned char r, g, b;
};

inline constexpr Rgb kMoreLoad{200, 25, 35};   // more load on the bad side (the diverging scale's + end)
inline constexpr Rgb kLessLoad{25, 95, 200};   // less load on the bad side (its − end)
inline constexpr Rgb kRemoved{35, 35, 40};     // a link gone on the bad side, drawn dashed

// "#c81923"
constexpr std::array<char, 8> hex(Rgb c) {
    constexpr char digits[] = "0123456789abcdef";
    return {'#', digits[c.r >> 4], digits[c.r & 15], digits[c.g >> 4], digits[c.g & 15], digits[c.b >> 4], digits[c.b & 15], '\0'};
}

inline constexpr auto kMoreLoadHex = hex(kMoreLoad);
inline constexpr auto kLessLoadHex = hex(kLessLoad);
inline constexpr auto kRemovedHex = hex(kRemoved);

} // namespace fabscope::comparergb
