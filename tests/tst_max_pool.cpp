// The heatmap's max-pooling (core/timeseries/pixel_aggregate): both directions of a link pooled
// in one pass give, cell by cell, the larger of the two (NaN is "no data" and never wins), and a
// row's maximum skips NaN; the pool that reads whole groups of rows from a reduced copy gives the
// very same cells; checked against plain loops written here.
#include "core/timeseries/pixel_aggregate.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace fabscope;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A value, or NaN for about one cell in five, differing between the two matrices.
float cell(std::size_t row, std::size_t col, std::size_t seed) {
    const std::size_t h = (row * 7919 + col * 104729 + seed * 15485863) % 1000;
    return h < 200 ? kNaN : static_cast<float>(h) / 10.0f;
}

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// Output cell (r, c) as plain loops over every source row it covers.
float plainCell(const std::vector<std::vector<float>>& sources, std::size_t rows, std::size_t cols, const std::vector<std::uint32_t>& order,
                std::size_t outRows, std::size_t outCols, std::size_t r, std::size_t c) {
    const std::size_t r0 = r * rows / outRows, r1 = std::max(r0 + 1, (r + 1) * rows / outRows);
    const std::size_t c0 = c * cols / outCols, c1 = std::max(c0 + 1, (c + 1) * cols / outCols);
    float want = kNaN;
    for (std::size_t i = r0; i < r1; ++i)
        for (std::size_t k = c0; k < c1; ++k)
            for (const auto& m : sources) {
                const float v = m[order[i] * cols + k];
                if (!std::isnan(v) && (std::isnan(want) || v > want)) want = v;
            }
    return want;
}

} // namespace

class TestMaxPool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bothDirectionsInOnePassAreTheLargerOfEach() {
        // 37 columns: not a multiple of the 4 values the vector loop takes at a time.
        const std::size_t rows = 101, cols = 37, outRows = 9, outCols = 5;
        std::vector<float> up(rows * cols), down(rows * cols);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c) {
                up[r * cols + c] = cell(r, c, 1);
                down[r * cols + c] = cell(r, c, 2);
            }
        down[3 * cols + 36] = 500.0f;  // the last column, in the scalar tail
        up[50 * cols + 0] = kNaN;
        down[50 * cols + 0] = kNaN;
        std::vector<std::uint32_t> order(rows);
        for (std::size_t i = 0; i < rows; ++i) order[i] = static_cast<std::uint32_t>((i * 37) % rows);  // not in storage order
        const float* const both[] = {up.data(), down.data()};
        std::vector<float> out(outRows * outCols, -1.0f);
        maxPoolRows(both, cols, order, outRows, outCols, 0, outRows, out.data());
        std::size_t valued = 0;
        for (std::size_t r = 0; r < outRows; ++r)
            for (std::size_t c = 0; c < outCols; ++c) {
                const std::size_t r0 = r * rows / outRows, r1 = std::max(r0 + 1, (r + 1) * rows / outRows);
                const std::size_t c0 = c * cols / outCols, c1 = std::max(c0 + 1, (c + 1) * cols / outCols);
                float want = kNaN;
                for (std::size_t i = r0; i < r1; ++i)
                    for (std::size_t k = c0; k < c1; ++k)
                        for (const auto* m : {&up, &down}) {
                            const float v = (*m)[order[i] * cols + k];
                            if (!std::isnan(v) && (std::isnan(want) || v > want)) want = v;
                        }
                valued += !std::isnan(want);
                QVERIFY2(same(out[r * outCols + c], want),
                         qPrintable(QStringLiteral("cell %1,%2: %3, expected %4").arg(r).arg(c).arg(out[r * outCols + c]).arg(want)));
            }
        QCOMPARE(valued, outRows * outCols);
        // One pixel row per link, one column per bin: a NaN in one direction shows the other's value.
        const float a[] = {kNaN, 2.0f, kNaN, 7.0f, 1.0f}, b[] = {4.0f, kNaN, kNaN, 3.0f, 1.5f};
        const float* const ab[] = {a, b};
        const std::vector<std::uint32_t> one = {0};
        std::vector<float> px(5);
        maxPoolRows(ab, 5, one, 1, 5, 0, 1, px.data());
        QCOMPARE(px[0], 4.0f);
        QCOMPARE(px[1], 2.0f);
        QVERIFY(std::isnan(px[2]));
        QCOMPARE(px[3], 7.0f);
        QCOMPARE(px[4], 1.5f);
    }

    void theReducedCopyGivesTheSameCells() {
        // Random shapes: rows not a multiple of the group, pixel rows whose edges fall inside
        // groups, fewer rows than pixel rows, groups larger than a pixel row; one or two sources;
        // a row in the middle without data and rows with a single value.
        std::uint64_t rng = 0x9E3779B97F4A7C15ULL;
        auto next = [&rng](std::uint64_t n) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            return static_cast<std::size_t>(rng % n);
        };
        std::size_t cases = 0, fromGroups = 0;
        for (int trial = 0; trial < 60; ++trial) {
            const std::size_t rows = 1 + next(400), cols = 1 + next(45), group = 2 + next(19);
            const std::size_t outRows = 1 + next(trial % 4 == 0 ? 500 : 12), outCols = 1 + next(60), nSources = 1 + next(2);
            std::vector<std::vector<float>> src(nSources, std::vector<float>(rows * cols));
            for (auto& m : src)
                for (float& v : m) v = next(10) < 3 ? kNaN : static_cast<float>(next(100000)) / 7.0f - 3000.0f;  // negatives too
            const std::size_t blank = next(rows), single = next(rows);
            for (auto& m : src)
                for (std::size_t k = 0; k < cols; ++k) m[blank * cols + k] = m[single * cols + k] = kNaN;
            src[0][single * cols + next(cols)] = 1e6f;
            std::vector<std::uint32_t> order(rows);
            for (std::size_t i = 0; i < rows; ++i) order[i] = static_cast<std::uint32_t>(i);
            for (std::size_t i = rows; i > 1; --i) std::swap(order[i - 1], order[next(i)]);  // shuffled
            std::vector<const float*> ptrs;
            for (const auto& m : src) ptrs.push_back(m.data());
            const std::size_t groups = rows / group;
            std::vector<float> reduced(groups * cols, -7.0f);
            // Built in two halves and pooled in two halves, as two threads do.
            maxPoolGroups(ptrs, cols, order, group, 0, groups / 2, reduced.data());
            maxPoolGroups(ptrs, cols, order, group, groups / 2, groups, reduced.data());
            std::vector<float> out(outRows * outCols, -1.0f), plain(outRows * outCols, -1.0f);
            maxPoolRows(ptrs, cols, order, reduced.data(), group, outRows, outCols, 0, outRows / 2, out.data());
            maxPoolRows(ptrs, cols, order, reduced.data(), group, outRows, outCols, outRows / 2, outRows, out.data());
            maxPoolRows(ptrs, cols, order, outRows, outCols, 0, outRows, plain.data());
            for (std::size_t r = 0; r < outRows; ++r) {
                const std::size_t r0 = r * rows / outRows, r1 = std::max(r0 + 1, (r + 1) * rows / outRows);
                fromGroups += (r0 + group - 1) / group < r1 / group;
                for (std::size_t c = 0; c < outCols; ++c) {
                    const float want = plainCell(src, rows, cols, order, outRows, outCols, r, c);
                    QVERIFY2(same(out[r * outCols + c], want) && same(plain[r * outCols + c], want),
                             qPrintable(QStringLiteral("trial %1 (%2 rows, group %3, %4 x %5 out) cell %6,%7: %8 (every row %9), expected %10")
                                            .arg(trial).arg(rows).arg(group).arg(outRows).arg(outCols).arg(r).arg(c)
                                            .arg(out[r * outCols + c]).arg(plain[r * outCols + c]).arg(want)));
                    ++cases;
                }
            }
        }
        QVERIFY(cases > 10000);
        QVERIFY(fromGroups > 150);  // many pixel rows (212) really read whole groups
    }

    void aRowsPeakSkipsNoData() {
        std::vector<float> v(37, kNaN);
        QVERIFY(std::isnan(maxOfRow(v.data(), v.size())));
        QVERIFY(std::isnan(maxOfRow(v.data(), 0)));
        v[5] = 3.0f;
        QCOMPARE(maxOfRow(v.data(), v.size()), 3.0f);
        v[36] = 9.0f;  // in the tail past the last block of 16
        QCOMPARE(maxOfRow(v.data(), v.size()), 9.0f);
        v[0] = 12.0f;
        QCOMPARE(maxOfRow(v.data(), v.size()), 12.0f);
        QCOMPARE(maxOfRow(v.data(), 1), 12.0f);
    }
};

QTEST_GUILESS_MAIN(TestMaxPool)
#include "tst_max_pool.moc"
