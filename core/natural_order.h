#pragma once
// "leaf2" < "leaf10": names compared with their digit runs by value, as engineers number devices.
#include <cctype>
#include <string>
#include <string_view>

namespace fabscope {

inline bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t i2 = i, j2 = j;
            while (i2 < a.size() && digit(a[i2])) ++i2;
            while (j2 < b.size() && digit(b[j2])) ++j2;
            const std::string_view na = std::string_view(a).substr(i, i2 - i), nb = std::string_view(b).substr(j, j2 - j);
            const auto ta = na.find_first_not_of('0'), tb = nb.find_first_not_of('0');
            const std::string_view sa = ta == std::string_view::npos ? "" : na.substr(ta);
            const std::string_view sb = tb == std::string_view::npos ? "" : nb.substr(tb);
            if (sa.size() != sb.size()) return sa.size() < sb.size();
            if (sa != sb) return sa < sb;
            i = i2, j = j2;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i, ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

} // namespace fabscope
