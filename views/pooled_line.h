#pragma once
// The points of a chart line over a long row of bins: min and max of each pixel-wide bucket,
// with a break where nothing was measured. Shared by the link charts and the compare charts.

#include <QList>
#include <QPointF>

#include <cstddef>
#include <span>

namespace fabscope {

// Chart x of time t (UNIX seconds): ms since the epoch, as TimeChartView labels it in UTC.
double chartMs(double t);

// Min and max of each of at most `buckets` buckets of `values` (bin i starts at start + i x step),
// in time order: at most 2 points per bucket. A bucket without a valid value (the hour between two
// runs, a counter reset) between two with data gets a NaN point, where Qt Charts breaks the line:
// a straight line across it would draw load nobody measured. `peak` rises to the largest max.
QList<QPointF> pooledLine(std::span<const float> values, double start, double step, std::size_t buckets, float& peak);

} // namespace fabscope
