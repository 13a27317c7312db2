#include "views/pooled_line.h"

#include "core/timeseries/pixel_aggregate.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabscope {

double chartMs(double t) { return std::round(t * 1000.0); }

QList<QPointF> pooledLine(std::span<const float> values, double start, double step, std::size_t buckets, float& peak) {
    const auto pooled = minMaxPerBucket(values, start, step, buckets);
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(pooled.size() * 2));
    const MinMaxBucket* gap = nullptr;  // the first empty bucket after data
    for (const auto& b : pooled) {
        if (!b.valid) {
            if (!points.isEmpty() && !gap) gap = &b;
            continue;
        }
        if (gap) points.append(QPointF(chartMs(gap->t), std::numeric_limits<double>::quiet_NaN()));
        gap = nullptr;
        const double ms = chartMs(b.t);
        points.append(QPointF(ms, static_cast<double>(b.min)));
        if (b.max != b.min) points.append(QPointF(ms, static_cast<double>(b.max)));
        peak = std::max(peak, b.max);
    }
    return points;
}

} // namespace fabscope
