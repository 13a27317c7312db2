#pragma once
// Line charts of values over time as standalone SVG (inline in HTML, rendered by Qt Svg for PDF):
// axes with ticks and units, an optional threshold line, a legend, gaps where values are NaN.
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct ChartSeries {
    std::string name;
    std::string color;            // CSS colour, e.g. "#1f77b4"
    std::vector<double> t, y;     // UNIX seconds; NaN y breaks the line
    bool dashed = false;
};

struct ChartSpec {
    std::string title;
    std::string yLabel;           // with its unit: "Utilisation (%)"
    double yMin = 0, yMax = 100;  // grown to fit the data when exceeded
    std::optional<double> threshold;
    std::string thresholdLabel;
    double tStart = 0, tEnd = 0;  // x range; taken from the data when equal
    std::vector<ChartSeries> series;
    int width = 560, height = 230;  // SVG user units (px)
};

std::string renderSvgChart(const ChartSpec& chart);

} // namespace fabscope
