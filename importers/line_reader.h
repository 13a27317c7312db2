#pragma once
// Splits a buffer into lines (LF, CRLF or stray CRs), counting line numbers for diagnostics.
#include <cstdint>
#include <string_view>

namespace fabscope {

class LineReader {
public:
    explicit LineReader(std::string_view bytes) : rest_(bytes), total_(bytes.size()) {}

    bool next(std::string_view& line) {
        if (rest_.empty()) return false;
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
    std::int64_t number_ = 0;
};

inline std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

} // namespace fabscope
