#pragma once
// Budget by pixels (docs/ARCHITECTURE.md, conventions): reduce series and matrices to what the screen can show before a
// view draws them. Always pool (min/max), never scale: a one-bin spike must stay visible.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fabscope {

struct MinMaxBucket {
    double t = 0;  // start time of the bucket (UNIX seconds)
    float min = 0, max = 0;
    bool valid = false;  // false when every value in the bucket was NaN
};

// Splits a regular series (values[i] at start + i * step) into at most `buckets` buckets of equal
// width and keeps each bucket's min and max (NaN skipped). Fewer values than buckets: one bucket
// per value.
std::vector<MinMaxBucket> minMaxPerBucket(std::span<const float> values, double start, double step, std::size_t buckets);

// Max-pools rows of a row-major matrix into an outRows x outCols grid: output cell (r, c) is the
// max of the rows order[rowsOf(r)] and columns colsOf(c) it covers (NaN where none has data).
// When the output is larger than the input, cells repeat instead of interpolating. Fills output
// rows [rowBegin, rowEnd) only, so callers can split the work across threads.
void maxPoolRows(const float* data, std::size_t cols, std::span<const std::uint32_t> order, std::size_t outRows,
                 std::size_t outCols, std::size_t rowBegin, std::size_t rowEnd, float* out);
// The largest value of a row, NaN when it has none (NaN skipped).
float maxOfRow(const float* values, std::size_t n);

// The same over several matrices of one shape at once (a link's two directions): each cell is
// the max over all of them, in one pass over the rows.
void maxPoolRows(std::span<const float* const> sources, std::size_t cols, std::span<const std::uint32_t> order, std::size_t outRows,
                 std::size_t outCols, std::size_t rowBegin, std::size_t rowEnd, float* out);

// A reduced copy for the pool below: row g is the max over the rows order[g * group, (g + 1) *
// group) of every source (NaN where none has data). Only whole groups: order.size() / group
// rows of `cols`; fills rows [groupBegin, groupEnd) only, for threads.
void maxPoolGroups(std::span<const float* const> sources, std::size_t cols, std::span<const std::uint32_t> order, std::size_t group,
                   std::size_t groupBegin, std::size_t groupEnd, float* reduced);
// maxPoolRows reading each output row's whole groups from `reduced` (maxPoolGroups of the same
// sources, order and group) and only the rows at its two edges from the sources: the same cells,
// exactly, from about `group` times less data.
void maxPoolRows(std::span<const float* const> sources, std::size_t cols, std::span<const std::uint32_t> order, const float* reduced,
                 std::size_t group, std::size_t outRows, std::size_t outCols, std::size_t rowBegin, std::size_t rowEnd, float* out);

} // namespace fabscope
