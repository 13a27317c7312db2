#pragma once
// Finds the bytes a long-CSV row's shape depends on (',', '"', '\r', '\n') 64 at a time: one
// pass of vector compares over the file instead of a memchr per field and per line, which
// were a third of an import's parse.
#include <bit>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fabscope {

class CsvDelimiters {
public:
    CsvDelimiters(const char* begin, const char* end) : end_(end) { load(begin); }

    // The first delimiter at or after p, or the end. Calls must not go backwards; a call far
    // ahead (rows the parser read without it) loads from p rather than every block between.
    const char* next(const char* p) {
        if (p >= base_ + 64 && base_ < end_) load(p);
        for (;;) {
            if (base_ >= end_) return end_;
            if (p < base_ + 64) {
                const auto shift = static_cast<unsigned>(p < base_ ? 0 : p - base_);
                const std::uint64_t m = mask_ & (~std::uint64_t{0} << shift);
                if (m) return base_ + std::countr_zero(m);
            }
            load(base_ + 64);
        }
    }

private:
    void load(const char* b) {
        base_ = b;
        if (b >= end_) return;
        const char* block = b;
        alignas(16) char tail[64];
        if (end_ - b < 64) {  // the last bytes: never read past the end of the mapping
            std::memset(tail, 0, sizeof tail);
            std::memcpy(tail, b, static_cast<std::size_t>(end_ - b));
            block = tail;
        }
        mask_ = 0;
#if defined(__SSE2__)
        const __m128i comma = _mm_set1_epi8(','), quote = _mm_set1_epi8('"'), cr = _mm_set1_epi8('\r'), nl = _mm_set1_epi8('\n');
        for (int k = 0; k < 4; ++k) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * k));
            const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, quote)),
                                             _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, nl)));
            mask_ |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(hit))) << (16 * k);
        }
#else
        for (int k = 0; k < 64; ++k) {
            const char c = block[k];
            if (c == ',' || c == '"' || c == '\r' || c == '\n') mask_ |= std::uint64_t{1} << k;
        }
#endif
    }

    const char* base_ = nullptr;
    const char* end_;
    std::uint64_t mask_ = 0;
};

} // namespace fabscope
