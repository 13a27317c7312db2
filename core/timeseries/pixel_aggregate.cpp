#include "core/timeseries/pixel_aggregate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace fabscope {

std::vector<MinMaxBucket> minMaxPerBucket(std::span<const float> values, double start, double step, std::size_t buckets) {
    std::vector<MinMaxBucket> out;
    if (values.empty() || buckets == 0) return out;
    const std::size_t n = std::min(buckets, values.size());
    out.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t from = k * values.size() / n, to = (k + 1) * values.size() / n;
        MinMaxBucket& b = out[k];
        b.t = start + step * static_cast<double>(from);
        for (std::size_t i = from; i < to; ++i) {
            const float v = values[i];
            if (std::isnan(v)) continue;
            if (!b.valid) {
                b.min = b.max = v;
                b.valid = true;
            } else {
                b.min = std::min(b.min, v);
                b.max = std::max(b.max, v);
            }
        }
    }
    return out;
}

namespace {

// NaN-aware max into acc: a value beats NaN, NaN never beats a value. Four at a time with SSE2
// (the heatmap pools 30 M cells per direction; -O2 leaves the scalar loop unvectorised).
inline float maxOfDefined(float a, float v) { return v > a || std::isnan(a) ? v : a; }
void maxInto(float* acc, const float* row, std::size_t n) {
    std::size_t k = 0;
#if defined(__SSE2__)
    for (; k + 4 <= n; k += 4) {
        const __m128 a = _mm_loadu_ps(acc + k), v = _mm_loadu_ps(row + k);
        const __m128 m = _mm_max_ps(v, a);           // a when either is NaN
        const __m128 aNaN = _mm_cmpunord_ps(a, a);   // ... but v when a is NaN
        _mm_storeu_ps(acc + k, _mm_or_ps(_mm_and_ps(aNaN, v), _mm_andnot_ps(aNaN, m)));
    }
#endif
    for (; k < n; ++k) acc[k] = maxOfDefined(acc[k], row[k]);
}

} // namespace

float maxOfRow(const float* values, std::size_t n) {
    constexpr std::size_t kLanes = 16;
    float acc[kLanes];
    std::fill(acc, acc + kLanes, std::numeric_limits<float>::quiet_NaN());
    std::size_t k = 0;
    for (; k + kLanes <= n; k += kLanes) maxInto(acc, values + k, kLanes);
    maxInto(acc, values + k, n - k);
    float best = acc[0];
    for (std::size_t j = 1; j < kLanes; ++j) best = maxOfDefined(best, acc[j]);
    return best;
}

void maxPoolRows(const float* data, std::size_t cols, std::span<const std::uint32_t> order, std::size_t outRows,
                 std::size_t outCols, std::size_t rowBegin, std::size_t rowEnd, float* out) {
    const float* const one[] = {data};
    maxPoolRows(one, cols, order, outRows, outCols, rowBegin, rowEnd, out);
}

void maxPoolRows(std::span<const float* const> sources, std::size_t cols, std::span<const std::uint32_t> order, std::size_t outRows,
                 std::size_t outCols, std::size_t rowBegin, std::size_t rowEnd, float* out) {
    maxPoolRows(sources, cols, order, nullptr, 0, outRows, outCols, rowBegin, rowEnd, out);
}

void maxPoolGroups(std::span<const float* const> sources, std::size_t cols, std::span<const std::uint32_t> order, std::size_t group,
                   std::size_t groupBegin, std::size_t groupEnd, float* reduced) {
    constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t g = groupBegin; g < groupEnd; ++g) {
        float* acc = reduced + g * cols;
        std::fill(acc, acc + cols, kNaN);
        for (std::size_t i = g * group; i < (g + 1) * group && i < order.size(); ++i)
            for (const float* data : sources) maxInto(acc, data + static_cast<std::size_t>(order[i]) * cols, cols);
    }
}

void maxPoolRows(std::span<const float* const> sources, std::size_t cols, std::span<const std::uint32_t> order, const float* reduced,
                 std::size_t group, std::size_t outRows, std::size_t outCols, std::size_t rowBegin, std::size_t rowEnd, float* out) {
    const std::size_t rows = order.size();
    constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
    if (rows == 0 || cols == 0 || outCols == 0) {
        std::fill(out + rowBegin * outCols, out + rowEnd * outCols, kNaN);
        return;
    }
    if (!reduced) group = 0;
    // Column c of the output covers input columns [c0[c], c1[c]) (at least one).
    std::vector<std::size_t> c0(outCols), c1(outCols);
    for (std::size_t c = 0; c < outCols; ++c) {
        c0[c] = c * cols / outCols;
        c1[c] = std::max(c0[c] + 1, (c + 1) * cols / outCols);
    }
    std::vector<float> acc(cols);
    auto raw = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            for (const float* data : sources) maxInto(acc.data(), data + static_cast<std::size_t>(order[i]) * cols, cols);
    };
    for (std::size_t r = rowBegin; r < rowEnd; ++r) {
        const std::size_t r0 = r * rows / outRows;
        const std::size_t r1 = std::max(r0 + 1, (r + 1) * rows / outRows);
        std::fill(acc.begin(), acc.end(), kNaN);
        // Whole groups [g0, g1) inside [r0, r1) from the reduced copy, the rest from the sources.
        const std::size_t g0 = group ? (r0 + group - 1) / group : 0, g1 = group ? r1 / group : 0;
        if (g0 < g1) {
            raw(r0, g0 * group);
            for (std::size_t g = g0; g < g1; ++g) maxInto(acc.data(), reduced + g * cols, cols);
            raw(g1 * group, r1);
        } else {
            raw(r0, r1);
        }
        float* o = out + r * outCols;
        for (std::size_t c = 0; c < outCols; ++c) {
            float m = kNaN;
            for (std::size_t k = c0[c]; k < c1[c]; ++k)
                if (!(acc[k] <= m)) m = std::isnan(acc[k]) ? m : acc[k];
            o[c] = m;
        }
    }
}

} // namespace fabscope
