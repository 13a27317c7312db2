// The heatmap's max-pooling (core/timeseries/pixel_aggregate): both directions of a link pooled
// in one pass give, cell by cell, the larger of the two (NaN is "no data" and never wins), and a
// row's maximum skips NaN; checked against plain loops written here.
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
