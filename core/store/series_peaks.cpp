// Store::seriesPeaks: every series' peak rate in a window, for the analysis to skip the series
// that cannot reach its thresholds (docs/ARCHITECTURE.md, "Chunk peaks").
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

#include <limits>

namespace fabscope {

std::vector<double> Store::seriesPeaks(std::int64_t fromMs, std::int64_t toMs) const {
    std::vector<double> peaks;
    if (schemaVersion() < 10) return peaks;  // read-only and not migrated: no peak column
    constexpr double kUnknown = std::numeric_limits<double>::infinity();
    std::vector<std::uint8_t> chunks;  // by series id: 0, 1, or 2 for "more than one"
    // A scan of the series index (series_id, t0, t1, n, peak), not of the chunk rows.
    sql::Stmt s(db_, "SELECT series_id, peak FROM chunks INDEXED BY chunks_by_series WHERE t1>=?1 AND t0<=?2");
    s.bind(1, fromMs).bind(2, toMs);
    while (s.step()) {
        const std::int64_t id = s.integer(0);
        if (id < 0) continue;
        const auto i = static_cast<std::size_t>(id);
        if (i >= peaks.size()) {
            peaks.resize(i + 1, 0.0);
            chunks.resize(i + 1, 0);
        }
        if (chunks[i] < 2) ++chunks[i];
        peaks[i] = chunks[i] > 1 || s.isNull(1) ? kUnknown : s.real(1);
    }
    return peaks;
}

} // namespace fabscope
