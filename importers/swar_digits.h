#pragma once
// Eight bytes at a time, for the one row shape nearly every line of a counter dump has: how many
// digits start a buffer, their value, and whether two short byte strings are equal, each with
// plain 64-bit arithmetic (SWAR) instead of a loop with a branch per byte. Every function reads
// 8 bytes from `p` (or `n` from `a` and `b`): the caller makes sure they are there.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace fabscope::swar {

inline std::uint64_t load8(const char* p) {
    std::uint64_t x;
    std::memcpy(&x, p, sizeof x);
    if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
    return x;  // p[0] in the lowest byte
}

// How many of p[0..7] are ASCII digits before the first byte that is not (0-8). A byte below
// '0' borrows from the bytes after it, and one above '9' carries into them: only bytes after
// the first non-digit are disturbed, and they are not counted.
inline int leadingDigits(const char* p) {
    const std::uint64_t t = load8(p) - 0x3030303030303030ULL;
    const std::uint64_t notDigit = (t | (t + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
    return notDigit ? std::countr_zero(notDigit) / 8 : 8;
}

// The value of the n digits at p (0 <= n <= 8, leadingDigits(p) >= n): the bytes after them are
// shifted out, the digits paired, then paired again (the multiplications of Lemire's
// eight-digit parse).
inline std::uint64_t digitsValue(const char* p, int n) {
    if (n == 0) return 0;
    std::uint64_t x = (load8(p) - 0x3030303030303030ULL) << (8 * (8 - n));
    x = x * 10 + (x >> 8);
    constexpr std::uint64_t kMask = 0x000000FF000000FFULL;
    constexpr std::uint64_t kMul1 = 100 + (1000000ULL << 32), kMul2 = 1 + (10000ULL << 32);
    return ((x & kMask) * kMul1 + ((x >> 16) & kMask) * kMul2) >> 32;
}

// a[0..n) == b[0..n), a word at a time (a key of a dozen to a few dozen bytes; memcmp's call
// and its size dispatch were most of the compare).
inline bool sameBytes(const char* a, const char* b, std::size_t n) {
    if (n < 8) return std::memcmp(a, b, n) == 0;
    std::uint64_t diff = 0;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) diff |= load8(a + i) ^ load8(b + i);
    if (i < n) diff |= load8(a + n - 8) ^ load8(b + n - 8);  // the last word overlaps the one before
    return diff == 0;
}

} // namespace fabscope::swar
