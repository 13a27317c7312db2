// Fuzz target: the terminal-capture pre-pass every text import goes through. Invariants: it
// never adds bytes, it keeps the number of lines (FILE:LINE messages point into the input), and it
// calls a text NUL-free only when it holds no NUL and needed no cleaning (the importer then
// skips its own NUL check); where headIsClean says a head is clean, the pass keeps that head as
// it was (the import names a large file's format from it before the pass).
#include "importers/terminal_capture.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    bool nulFree = false;
    const auto out = fabscope::cleanTerminalCapture(bytes, &nulFree);
    if (nulFree && (out || bytes.find('\0') != std::string_view::npos)) std::abort();
    if (out) {
        if (out->size() > bytes.size()) std::abort();
        if (std::count(out->begin(), out->end(), '\n') != std::count(bytes.begin(), bytes.end(), '\n')) std::abort();
    }
    const std::string_view text = out ? std::string_view(*out) : bytes;
    for (const std::size_t n : {std::size_t{1}, std::size_t{16}, size / 2, size})
        if (fabscope::headIsClean(bytes, n) && text.substr(0, n) != bytes.substr(0, n)) std::abort();
    return 0;
}
