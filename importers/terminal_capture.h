#pragma once
// Output saved through a terminal or a launcher rather than redirected to a file: PuTTY's and
// script(1)'s banner lines, ANSI escape sequences, and `mpirun --tag-output` prefixes
// ("[1,10]<stdout>:", also in mid-line where two flushes met). One pre-pass for every text
// importer, run by the import runner: lines keep their numbers (a banner becomes an empty line),
// so FILE:LINE messages still point into the user's file. CRLF and CR-CR-LF line ends are
// handled by LineReader itself.
#include <optional>
#include <string>
#include <string_view>

namespace fabscope {

// The cleaned text, or nullopt when the bytes hold none of the above (the usual case: no copy).
std::optional<std::string> cleanTerminalCapture(std::string_view bytes);
// Whether an escape, an mpirun tag or script(1)'s closing banner appears anywhere (the opening
// banners are looked for in the first 4 KiB by cleanTerminalCapture itself).
bool hasTerminalMarks(std::string_view bytes);

}  // namespace fabscope
