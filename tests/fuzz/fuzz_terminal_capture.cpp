// Fuzz target: the terminal-capture pre-pass every text import goes through. Invariants: it
// never adds bytes, and it keeps the number of lines (FILE:LINE messages point into the input).
#include "importers/terminal_capture.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    if (const auto out = fabscope::cleanTerminalCapture(bytes)) {
        if (out->size() > bytes.size()) std::abort();
        if (std::count(out->begin(), out->end(), '\n') != std::count(bytes.begin(), bytes.end(), '\n')) std::abort();
    }
    return 0;
}
