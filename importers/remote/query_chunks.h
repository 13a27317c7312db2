#pragma once
// Cuts a query_range window into chunks Prometheus accepts: it refuses a query whose
// (end - start) / step exceeds 11,000, i.e. more than ~11,000 points per series. Chunks are
// aligned on from + k * step, so no evaluation instant is asked twice and none is skipped.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace fabscope {

struct TimeChunk {
    std::int64_t startMs = 0;
    std::int64_t endMs = 0;  // inclusive; start + (points - 1) * step
};

// The instants Prometheus evaluates in the chunk: start, start + step, ... <= end.
std::int64_t pointsIn(const TimeChunk& c, std::int64_t stepMs);

// Consecutive chunks of at most `maxPoints` instants covering [fromMs, toMs].
std::vector<TimeChunk> planChunks(std::int64_t fromMs, std::int64_t toMs, std::int64_t stepMs, std::int64_t maxPoints);

// The first half of the instants (rounded up) and the rest; nullopt for a single instant.
std::optional<std::pair<TimeChunk, TimeChunk>> splitChunk(const TimeChunk& c, std::int64_t stepMs);

} // namespace fabscope
