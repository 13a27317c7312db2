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
// `nulFree`, when given, tells whether the same pass read every byte and met no NUL, so the
// importer need not read a large file once more for that (Importer::checked).
// `threads` slices the pass over large files (0: workerThreads()).
std::optional<std::string> cleanTerminalCapture(std::string_view bytes, bool* nulFree = nullptr, std::size_t threads = 0);

// Whether the first `n` bytes of what cleanTerminalCapture returns (or of `bytes`, when it
// returns nothing) are the first `n` bytes of `bytes`, whatever the rest holds: the lines that
// hold them have no mark and no banner (cleaning keeps such lines as they are). Lets the import
// name a large file's format from its head before the pass over the whole file. False also
// where it may not be so.
bool headIsClean(std::string_view bytes, std::size_t n);

// What one pass over the bytes found: an escape, an mpirun tag or script(1)'s closing banner
// anywhere (the opening banners are looked for in the first 4 KiB by cleanTerminalCapture
// itself), and whether it read every byte without a NUL (it stops at the first mark).
struct TerminalMarks {
    bool marks = false;
    bool nulFree = false;
};
TerminalMarks scanTerminalMarks(std::string_view bytes, std::size_t threads = 0);
inline bool hasTerminalMarks(std::string_view bytes) { return scanTerminalMarks(bytes).marks; }

}  // namespace fabscope
