#include "core/analysis/json_text.h"

#include "core/analysis/json_values.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>

namespace fabscope {

JsonText& JsonText::key(std::string_view name) {
    beforeValue();
    escaped(name);
    out_ += indent_ >= 0 ? ": " : ":";
    afterKey_ = true;
    return *this;
}

JsonText& JsonText::value(std::string_view s) {
    beforeValue();
    escaped(s);
    return *this;
}

JsonText& JsonText::value(std::int64_t v) {
    beforeValue();
    char buf[24];
    const char* end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out_.append(buf, static_cast<std::size_t>(end - buf));
    return *this;
}

JsonText& JsonText::number(double v) {
    if (const auto i = jsonv::integral(v)) return value(*i);
    beforeValue();
    if (!std::isfinite(v)) {  // as nlohmann writes NaN and infinities
        out_ += "null";
        return *this;
    }
    // nlohmann's own digits (its Grisu2 is not always std::to_chars' shortest), through the
    // function its serializer calls; a json value and a dump per number took 1 us each.
    char buf[64];
    const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, static_cast<std::size_t>(end - buf));
    return *this;
}

JsonText& JsonText::open(char bracket) {
    beforeValue();
    out_ += bracket;
    empty_.push_back(1);
    return *this;
}

JsonText& JsonText::close(char bracket) {
    const bool wasEmpty = empty_.back();
    empty_.pop_back();
    if (!wasEmpty && indent_ >= 0) newline(empty_.size());
    out_ += bracket;
    return *this;
}

void JsonText::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (empty_.empty()) return;  // the document's root
    if (!empty_.back()) out_ += ',';
    empty_.back() = 0;
    if (indent_ >= 0) newline(empty_.size());
}

void JsonText::newline(std::size_t depth) {
    out_ += '\n';
    out_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

void JsonText::escaped(std::string_view s) {
    auto plain = [](char c) {
        return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x80 && c != '"' && c != '\\';
    };
    std::size_t run = 0;  // the leading characters written as they are: most names are all of it
    while (run < s.size() && plain(s[run])) ++run;
    const std::size_t mark = out_.size();
    out_ += '"';
    out_.append(s.substr(0, run));
    for (std::size_t i = run; i < s.size(); ++i) {
        const char c = s[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            // UTF-8 (or bytes that are not): nlohmann's checks and its error, exactly.
            out_.resize(mark);
            out_ += nlohmann::json(std::string(s)).dump();
            return;
        }
        switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static constexpr char kHex[] = "0123456789abcdef";
                out_ += "\\u00";
                out_ += kHex[(c >> 4) & 0xf];
                out_ += kHex[c & 0xf];
            } else {
                out_ += c;
            }
        }
    }
    out_ += '"';
}

} // namespace fabscope
