#include "importers/sonic_table.h"

#include "importers/text_util.h"

#include <filesystem>

namespace fabscope {

std::optional<std::uint64_t> sonicCount(std::string_view s) {
    if (s.find(',') == std::string_view::npos) {
        if (s.starts_with("0x") || s.starts_with("0X")) return std::nullopt;
        return parseU64(s);
    }
    std::string digits;
    std::size_t groupLen = 0;
    bool first = true;
    for (const char c : s) {
        if (c == ',') {
            if ((first && (groupLen == 0 || groupLen > 3)) || (!first && groupLen != 3)) return std::nullopt;
            first = false;
            groupLen = 0;
        } else if (c >= '0' && c <= '9') {
            digits.push_back(c);
            ++groupLen;
        } else {
            return std::nullopt;
        }
    }
    if (groupLen != 3) return std::nullopt;
    return parseU64(digits);
}

bool sonicRule(std::string_view l) { return !l.empty() && l.find_first_not_of("- \t") == std::string_view::npos; }

bool sonicPrompt(std::string_view t) {
    return t.find('@') != std::string_view::npos && (t.find('#') != std::string_view::npos || t.find('$') != std::string_view::npos);
}

std::string nodeFromFileName(std::string_view path) {
    std::string name = std::filesystem::path(std::string(path)).filename().string();
    return name.substr(0, name.find('.'));
}

std::string nodeNamedByPath(std::string_view path, std::string_view text) {
    return text.find("# node:") == std::string_view::npos ? nodeFromFileName(path) : std::string();
}

} // namespace fabscope
