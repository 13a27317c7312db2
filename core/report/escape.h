#pragma once
// Escaping for every string that reaches a report from input (node descriptions, notes, file
// names): fabric data is not trusted markup.
#include <string>
#include <string_view>

namespace fabscope {

// &, <, >, " and ' as entities: safe in HTML/XML text and in quoted attributes. Bytes that are
// not valid UTF-8 and control characters other than tab/newline become U+FFFD.
std::string htmlEscape(std::string_view s);

// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, or starts with a
// character a spreadsheet would read as a formula (=, +, -, @) and is not a number.
std::string csvField(std::string_view s);

} // namespace fabscope
