#include "core/report/busbw_chart.h"

#include "core/byte_size.h"
#include "core/report/escape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fabscope {
namespace {

const char* const kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};

std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

} // namespace

std::string renderBusbwChart(const std::vector<CollectiveRun>& runs, int width, int height) {
    const double left = 56, right = 12, top = 24, bottom = 64;
    const double w = width - left - right, h = height - top - bottom;
    double lo = 1e9, hi = -1e9, yMax = 0;
    for (const auto& r : runs)
        for (const auto& row : r.rows) {
            if (row.sizeBytes <= 0) continue;
            const double lx = std::log2(static_cast<double>(row.sizeBytes));
            lo = std::min(lo, lx);
            hi = std::max(hi, lx);
            for (const auto& v : {row.busbwGBs, row.inPlaceBusbwGBs})
                if (v) yMax = std::max(yMax, *v);
        }
    if (lo > hi) lo = 3, hi = 30;
    lo = std::floor(lo);
    hi = std::max(std::ceil(hi), lo + 1);
    yMax = yMax > 0 ? yMax * 1.1 : 1;
    const auto X = [&](double lx) { return left + (lx - lo) / (hi - lo) * w; };
    const auto Y = [&](double v) { return top + h - v / yMax * h; };

    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                    std::to_string(height) + "\" font-family=\"sans-serif\" font-size=\"10\">";
    s += "<text x=\"" + fmt(left) + "\" y=\"14\" font-size=\"12\">nccl-tests bus bandwidth by message size</text>";
    // y grid and labels
    for (int i = 0; i <= 4; ++i) {
        const double v = yMax * i / 4, y = Y(v);
        s += "<line x1=\"" + fmt(left) + "\" y1=\"" + fmt(y) + "\" x2=\"" + fmt(left + w) + "\" y2=\"" + fmt(y) +
             "\" stroke=\"#ddd\"/><text x=\"" + fmt(left - 4) + "\" y=\"" + fmt(y + 3) + "\" text-anchor=\"end\">" + fmt(v) + "</text>";
    }
    s += "<text transform=\"translate(12," + fmt(top + h / 2) + ") rotate(-90)\" text-anchor=\"middle\">busbw (GB/s)</text>";
    int step = 10;  // ticks at multiples of 1, 2, 5 or 10 powers of two, landing on 1 KiB, 1 MiB, 1 GiB
    for (const int c : {1, 2, 5})
        if ((hi - lo) / c <= 8) {
            step = c;
            break;
        }
    for (int e = static_cast<int>(lo); e <= static_cast<int>(hi); ++e) {
        if (e % step != 0) continue;
        const double x = X(e);
        s += "<line x1=\"" + fmt(x) + "\" y1=\"" + fmt(top + h) + "\" x2=\"" + fmt(x) + "\" y2=\"" + fmt(top + h + 4) +
             "\" stroke=\"#333\"/><text x=\"" + fmt(x) + "\" y=\"" + fmt(top + h + 15) + "\" text-anchor=\"middle\">" +
             htmlEscape(binarySize(std::int64_t{1} << std::clamp(e, 0, 62))) + "</text>";
    }
    s += "<text x=\"" + fmt(left + w / 2) + "\" y=\"" + fmt(top + h + 30) +
         "\" text-anchor=\"middle\">message size (log2 scale)</text>";
    s += "<rect x=\"" + fmt(left) + "\" y=\"" + fmt(top) + "\" width=\"" + fmt(w) + "\" height=\"" + fmt(h) +
         "\" fill=\"none\" stroke=\"#333\"/>";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const char* colour = kColours[i % std::size(kColours)];
        for (const bool inPlace : {false, true}) {
            std::string pts;
            for (const auto& row : runs[i].rows) {
                const auto& v = inPlace ? row.inPlaceBusbwGBs : row.busbwGBs;
                if (!v || row.sizeBytes <= 0) continue;
                pts += fmt(X(std::log2(static_cast<double>(row.sizeBytes)))) + "," + fmt(Y(*v)) + " ";
            }
            if (pts.empty()) continue;
            s += std::string("<polyline fill=\"none\" stroke=\"") + colour + "\" stroke-width=\"" + (inPlace ? "1.2" : "2") + "\"" +
                 (inPlace ? " stroke-dasharray=\"4 3\"" : "") + " points=\"" + pts + "\"/>";
        }
        const double ly = top + h + 44 + 0.0;
        const double lx = left + static_cast<double>(i % 3) * (w / 3);
        s += "<line x1=\"" + fmt(lx) + "\" y1=\"" + fmt(ly + static_cast<double>(i / 3) * 12 - 3) + "\" x2=\"" + fmt(lx + 14) +
             "\" y2=\"" + fmt(ly + static_cast<double>(i / 3) * 12 - 3) + "\" stroke=\"" + colour + "\" stroke-width=\"2\"/>";
        s += "<text x=\"" + fmt(lx + 18) + "\" y=\"" + fmt(ly + static_cast<double>(i / 3) * 12) + "\">" +
             htmlEscape(runs[i].tool + " #" + std::to_string(runs[i].id)) + "</text>";
    }
    s += "</svg>";
    return s;
}

} // namespace fabscope
