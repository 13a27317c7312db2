#include "importers/terminal_capture.h"

#include <cctype>

namespace fabscope {
namespace {

bool isBanner(std::string_view line) {
    return line.starts_with("=~=~=~=~=~=~=~=~=~=~=~=") || line.starts_with("Script started on ") ||
           line.starts_with("Script done on ");
}

// "[1,10]<stdout>:" or "[1,10]<stderr>:" at `at`: its length, else 0.
std::size_t tagLength(std::string_view s, std::size_t at) {
    std::size_t i = at + 1;
    auto digits = [&] {
        const std::size_t b = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        return i > b;
    };
    if (!digits() || i >= s.size() || s[i] != ',') return 0;
    ++i;
    if (!digits() || i >= s.size() || s[i] != ']') return 0;
    ++i;
    for (std::string_view stream : {"<stdout>:", "<stderr>:"})
        if (s.substr(i, stream.size()) == stream) return i + stream.size() - at;
    return 0;
}

// An escape sequence at `at` (s[at] == ESC): its length. CSI "ESC [ ... final", OSC
// "ESC ] ... BEL" or "... ESC \", else ESC and one character.
std::size_t escapeLength(std::string_view s, std::size_t at) {
    std::size_t i = at + 1;
    if (i >= s.size()) return 1;
    if (s[i] == '[') {
        ++i;
        while (i < s.size() && (static_cast<unsigned char>(s[i]) < 0x40 || static_cast<unsigned char>(s[i]) > 0x7e) && s[i] != '\n') ++i;
        return (i < s.size() && s[i] != '\n' ? i + 1 : i) - at;
    }
    if (s[i] == ']') {
        while (++i < s.size() && s[i] != '\n') {
            if (s[i] == '\a') return i + 1 - at;
            if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '\\') return i + 2 - at;
        }
        return i - at;
    }
    return s[i] == '\n' ? 1 : 2;
}

}  // namespace

std::optional<std::string> cleanTerminalCapture(std::string_view bytes) {
    const auto head = bytes.substr(0, 4096);
    const bool banner = isBanner(head) || head.find("\n=~=~=~=~=~=~=~=~=~=~=~=") != std::string_view::npos;
    if (!banner && bytes.find('\x1b') == std::string_view::npos && bytes.find("]<stdout>:") == std::string_view::npos &&
        bytes.find("]<stderr>:") == std::string_view::npos && bytes.find("\nScript done on ") == std::string_view::npos)
        return std::nullopt;
    std::string out;
    out.reserve(bytes.size());
    std::size_t lineStart = 0;
    while (lineStart < bytes.size()) {
        auto nl = bytes.find('\n', lineStart);
        if (nl == std::string_view::npos) nl = bytes.size();
        const std::string_view line = bytes.substr(lineStart, nl - lineStart);
        if (!isBanner(line)) {
            for (std::size_t i = 0; i < line.size();) {
                if (line[i] == '\x1b') {
                    i += escapeLength(line, i);
                } else if (line[i] == '[') {
                    const std::size_t tag = tagLength(line, i);
                    if (tag > 0) {
                        i += tag;
                    } else {
                        out += line[i++];
                    }
                } else {
                    out += line[i++];
                }
            }
        }
        if (nl < bytes.size()) out += '\n';
        lineStart = nl + 1;
    }
    return out;
}

}  // namespace fabscope
