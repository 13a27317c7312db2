#pragma once
// How numbers and times read in reports: UTC times, durations, percentages, Gb/s.
#include <string>

namespace fabscope::reportfmt {

std::string utc(double unixSeconds);          // "2023-11-14 22:13:20 UTC"
std::string clock(double unixSeconds);        // "22:13:20" (chart ticks)
std::string duration(double seconds);         // "590 s", "2 min 30 s", "3 h 5 min"
std::string percent(double fraction);         // 0.9312 -> "93.1" (the column says %)
std::string number(double v, int digits = 3); // 150, 0.25, 1450

} // namespace fabscope::reportfmt
