#pragma once
// Number formatting for finding summaries: short, with units, no spurious digits.
#include <string>

namespace fabscope::numfmt {

// Up to `digits` significant digits, trailing zeros dropped: 200, 0.25, 1.5e+03 never (plain).
std::string num(double v, int digits = 3);
// Rounded for metrics: 0.95123 -> 0.951 (keeps JSON readable).
double round(double v, int digits = 4);
// A rate of events in the largest unit where it is >= 1: "5/s", "3/min", "2/h".
std::string eventRate(double perSecond);
// A bit error rate as engineers write it: 3.2e-10, 1e-12, 0 (two significant digits).
std::string ber(double v);
// A UNIX time in UTC: "2023-11-14 22:13:20 UTC" (reports print times through this too).
std::string utc(double unixSeconds);

} // namespace fabscope::numfmt
