#include "importers/remote/query_chunks.h"

#include <algorithm>

namespace fabscope {

std::int64_t pointsIn(const TimeChunk& c, std::int64_t stepMs) {
    return c.endMs < c.startMs ? 0 : (c.endMs - c.startMs) / stepMs + 1;
}

std::vector<TimeChunk> planChunks(std::int64_t fromMs, std::int64_t toMs, std::int64_t stepMs, std::int64_t maxPoints) {
    std::vector<TimeChunk> chunks;
    const std::int64_t span = (maxPoints - 1) * stepMs;
    for (std::int64_t start = fromMs; start <= toMs; start += span + stepMs)
        chunks.push_back({start, std::min(toMs, start + span) - (std::min(toMs, start + span) - start) % stepMs});
    return chunks;
}

std::optional<std::pair<TimeChunk, TimeChunk>> splitChunk(const TimeChunk& c, std::int64_t stepMs) {
    const std::int64_t n = pointsIn(c, stepMs);
    if (n < 2) return std::nullopt;
    const std::int64_t first = (n + 1) / 2;
    return std::pair{TimeChunk{c.startMs, c.startMs + (first - 1) * stepMs}, TimeChunk{c.startMs + first * stepMs, c.endMs}};
}

} // namespace fabscope
