#include "core/timeseries/pixel_aggregate.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

void maxPoolRows(const float* data, std::size_t cols, std::span<const std::uint32_t> order, std::size_t outRows,
                 std::size_t outCols, std::size_t rowBegin, std::size_t rowEnd, float* out) {
    const std::size_t rows = order.size();
    constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
    if (rows == 0 || cols == 0 || outCols == 0) {
        std::fill(out + rowBegin * outCols, out + rowEnd * outCols, kNaN);
        return;
    }
    // Column c of the output covers input columns [c0[c], c1[c]) (at least one).
    std::vector<std::size_t> c0(outCols), c1(outCols);
    for (std::size_t c = 0; c < outCols; ++c) {
        c0[c] = c * cols / outCols;
        c1[c] = std::max(c0[c] + 1, (c + 1) * cols / outCols);
    }
    std::vector<float> acc(cols);
    for (std::size_t r = rowBegin; r < rowEnd; ++r) {
        const std::size_t r0 = r * rows / outRows;
        const std::size_t r1 = std::max(r0 + 1, (r + 1) * rows / outRows);
        std::fill(acc.begin(), acc.end(), kNaN);
        for (std::size_t i = r0; i < r1; ++i) {
            const float* row = data + static_cast<std::size_t>(order[i]) * cols;
            for (std::size_t k = 0; k < cols; ++k) {
                const float v = row[k];
                // NaN-aware max: a value beats NaN, NaN never beats a value.
                if (!(v <= acc[k])) acc[k] = std::isnan(v) ? acc[k] : v;
            }
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
