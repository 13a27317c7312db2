#include "core/report/svg_chart.h"

#include "core/report/escape.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace fabscope {
namespace {

constexpr double kLeft = 54, kRight = 14, kTop = 30, kBottom = 44;
constexpr const char* kFont = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// 1, 2 or 5 x 10^k: about `ticks` steps over `range`.
double niceStep(double range, int ticks) {
    const double raw = range / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) return m * mag;
    return 10 * mag;
}

// Time steps that read well on a clock.
double timeStep(double range) {
    constexpr std::array<double, 17> kSteps{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200};
    for (double s : kSteps)
        if (range / s <= 6) return s;
    return 86400 * std::ceil(range / 86400 / 6);
}

} // namespace

std::string renderSvgChart(const ChartSpec& c) {
    double t0 = c.tStart, t1 = c.tEnd, yMax = c.yMax;
    if (t1 <= t0) {
        t0 = INFINITY;
        t1 = -INFINITY;
        for (const auto& s : c.series)
            for (double t : s.t) t0 = std::min(t0, t), t1 = std::max(t1, t);
        if (!std::isfinite(t0)) t0 = 0, t1 = 1;
        if (t1 <= t0) t1 = t0 + 1;
    }
    for (const auto& s : c.series)
        for (double y : s.y)
            if (std::isfinite(y) && y > yMax) yMax = y;
    const double yStep = niceStep(yMax - c.yMin, 5);
    yMax = c.yMin + std::ceil((yMax - c.yMin) / yStep - 1e-9) * yStep;

    const double w = c.width, h = c.height, pw = w - kLeft - kRight, ph = h - kTop - kBottom;
    auto X = [&](double t) { return kLeft + (t - t0) / (t1 - t0) * pw; };
    auto Y = [&](double y) { return kTop + ph - (y - c.yMin) / (yMax - c.yMin) * ph; };

    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << c.width << "\" height=\"" << c.height << "\" viewBox=\"0 0 "
      << c.width << ' ' << c.height << "\" role=\"img\" aria-label=\"" << htmlEscape(c.title) << "\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << c.width << "\" height=\"" << c.height << "\" fill=\"#ffffff\"/>\n";
    o << "<text x=\"" << kLeft << "\" y=\"18\" " << kFont << " font-size=\"12\" font-weight=\"bold\" fill=\"#222222\">"
      << htmlEscape(c.title) << "</text>\n";

    // Grid and y ticks.
    for (double y = c.yMin; y <= yMax + 1e-9; y += yStep) {
        o << "<line x1=\"" << fmt(kLeft) << "\" y1=\"" << fmt(Y(y)) << "\" x2=\"" << fmt(kLeft + pw) << "\" y2=\"" << fmt(Y(y))
          << "\" stroke=\"#e3e3e3\" stroke-width=\"1\"/>\n";
        o << "<text x=\"" << fmt(kLeft - 6) << "\" y=\"" << fmt(Y(y) + 4) << "\" " << kFont
          << " font-size=\"10\" text-anchor=\"end\" fill=\"#444444\">" << reportfmt::number(y) << "</text>\n";
    }
    // x ticks at round UTC times.
    const double step = timeStep(t1 - t0);
    for (double t = std::ceil(t0 / step) * step; t <= t1 + 1e-9; t += step) {
        o << "<line x1=\"" << fmt(X(t)) << "\" y1=\"" << fmt(kTop + ph) << "\" x2=\"" << fmt(X(t)) << "\" y2=\"" << fmt(kTop + ph + 4)
          << "\" stroke=\"#444444\" stroke-width=\"1\"/>\n";
        const std::string label = reportfmt::clock(t);
        o << "<text x=\"" << fmt(X(t)) << "\" y=\"" << fmt(kTop + ph + 16) << "\" " << kFont
          << " font-size=\"10\" text-anchor=\"middle\" fill=\"#444444\">" << (step >= 60 ? label.substr(0, 5) : label) << "</text>\n";
    }
    // Axes and their titles.
    o << "<polyline fill=\"none\" stroke=\"#444444\" stroke-width=\"1\" points=\"" << fmt(kLeft) << ',' << fmt(kTop) << ' '
      << fmt(kLeft) << ',' << fmt(kTop + ph) << ' ' << fmt(kLeft + pw) << ',' << fmt(kTop + ph) << "\"/>\n";
    const std::string day0 = reportfmt::utc(t0).substr(0, 10), day1 = reportfmt::utc(t1).substr(0, 10);  // both, across midnight
    o << "<text x=\"" << fmt(kLeft + pw) << "\" y=\"" << fmt(h - 8) << "\" " << kFont << " font-size=\"10\" text-anchor=\"end\" fill=\"#444444\">Time (UTC, "
      << (day0 == day1 ? day0 : day0 + " – " + day1) << ")</text>\n";
    o << "<text transform=\"translate(13," << fmt(kTop + ph / 2) << ") rotate(-90)\" " << kFont
      << " font-size=\"10\" text-anchor=\"middle\" fill=\"#444444\">" << htmlEscape(c.yLabel) << "</text>\n";

    if (c.threshold && *c.threshold >= c.yMin && *c.threshold <= yMax) {
        o << "<line x1=\"" << fmt(kLeft) << "\" y1=\"" << fmt(Y(*c.threshold)) << "\" x2=\"" << fmt(kLeft + pw) << "\" y2=\""
          << fmt(Y(*c.threshold)) << "\" stroke=\"#c0392b\" stroke-width=\"1\" stroke-dasharray=\"5,3\"/>\n";
        o << "<text x=\"" << fmt(kLeft + pw - 2) << "\" y=\"" << fmt(Y(*c.threshold) - 3) << "\" " << kFont
          << " font-size=\"9\" text-anchor=\"end\" fill=\"#c0392b\">" << htmlEscape(c.thresholdLabel) << "</text>\n";
    }

    // Series: one polyline per run of finite values.
    for (const auto& s : c.series) {
        std::vector<std::string> runs(1);
        std::size_t pointsInRun = 0;
        for (std::size_t i = 0; i < s.t.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.y[i])) {
                if (pointsInRun) runs.emplace_back();
                pointsInRun = 0;
                continue;
            }
            runs.back() += fmt(X(s.t[i])) + ',' + fmt(Y(s.y[i])) + ' ';
            ++pointsInRun;
        }
        for (const auto& pts : runs) {
            if (pts.empty()) continue;
            if (std::count(pts.begin(), pts.end(), ' ') == 1) {  // a lone point between gaps
                const auto comma = pts.find(',');
                o << "<circle cx=\"" << pts.substr(0, comma) << "\" cy=\"" << pts.substr(comma + 1, pts.size() - comma - 2)
                  << "\" r=\"1.8\" fill=\"" << htmlEscape(s.color) << "\"/>\n";
                continue;
            }
            o << "<polyline fill=\"none\" stroke=\"" << htmlEscape(s.color) << "\" stroke-width=\"1.6\""
              << (s.dashed ? " stroke-dasharray=\"4,2\"" : "") << " stroke-linejoin=\"round\" points=\"" << pts << "\"/>\n";
        }
    }

    // Legend on the bottom line, left of the axis title; one series needs none (the title names it).
    double lx = kLeft;
    for (std::size_t i = 0; c.series.size() > 1 && i < c.series.size(); ++i) {
        const auto& s = c.series[i];
        o << "<line x1=\"" << fmt(lx) << "\" y1=\"" << fmt(h - 12) << "\" x2=\"" << fmt(lx + 15) << "\" y2=\"" << fmt(h - 12)
          << "\" stroke=\"" << htmlEscape(s.color) << "\" stroke-width=\"2\"" << (s.dashed ? " stroke-dasharray=\"4,2\"" : "") << "/>\n";
        o << "<text x=\"" << fmt(lx + 19) << "\" y=\"" << fmt(h - 8) << "\" " << kFont << " font-size=\"10\" fill=\"#333333\">"
          << htmlEscape(s.name) << "</text>\n";
        lx += 19 + 6.5 * static_cast<double>(s.name.size()) + 14;
    }
    o << "</svg>\n";
    return o.str();
}

} // namespace fabscope
