#pragma once
// Splits a buffer into lines (LF, CRLF or stray CRs), counting line numbers for diagnostics.
// Given the import's progress callback, it reports every 16 Ki lines and throws ImportCancelled
// when the user cancelled: the one line loop every line-based importer shares.
#include "core/diagnostics.h"
#include "importers/progress.h"

#include <cstdint>
#include <string_view>

namespace fabscope {

class LineReader {
public:
    explicit LineReader(std::string_view bytes, const ProgressFn* progress = nullptr, double scale = 1.0)
        : rest_(bytes), total_(bytes.size()), progress_(progress && *progress ? progress : nullptr), scale_(scale) {}

    bool next(std::string_view& line) {
        if (rest_.empty()) return false;
        if (progress_ && (number_ & 0x3fff) == 0x3fff && !(*progress_)(fraction() * scale_)) throw ImportCancelled();
        const auto nl = rest_.find('\n');
        line = rest_.substr(0, nl);
        rest_ = nl == std::string_view::npos ? std::string_view{} : rest_.substr(nl + 1);
        while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        ++number_;
        return true;
    }
    [[nodiscard]] std::int64_t number() const { return number_; }
    [[nodiscard]] double fraction() const {
        return total_ ? 1.0 - static_cast<double>(rest_.size()) / static_cast<double>(total_) : 1.0;
    }

private:
    std::string_view rest_;
    std::size_t total_;
    const ProgressFn* progress_;
    double scale_;
    std::int64_t number_ = 0;
};

// A file's head without its last line when that may be cut short (detection reads the first
// kilobytes of a large file); the whole head when it holds a single line.
inline std::string_view wholeLines(std::string_view head) {
    const auto end = head.rfind('\n');
    return end == std::string_view::npos ? head : head.substr(0, end + 1);
}

inline std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

} // namespace fabscope
