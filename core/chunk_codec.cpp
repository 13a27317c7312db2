#include "core/chunk_codec.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace fabscope {
namespace {

// Values blobs start with their kind. Times blobs written before run coding start with their
// count, whose first byte is 0 only for an empty block ("\x00" alone), so a leading 0 followed by
// more bytes marks a run-coded times blob.
enum : unsigned char { kIntegerDeltas = 0, kRawDoubles = 1, kIntegerDeltaRuns = 2 };
constexpr unsigned char kTimeRuns = 0;

constexpr std::size_t kMaxVarint = 10;  // bytes of a 64-bit value

// Writes v at p (at most kMaxVarint bytes) and returns where it ends. Blocks are written into a
// buffer sized for the worst case and cut to length once: appending byte by byte checked the
// string's capacity at every byte (a tenth of an import's encoding).
char* putVarint(char* p, std::uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<char>(v);
    return p;
}

std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

std::uint64_t getLongVarint(const unsigned char*& p, const unsigned char* end) {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p == end) throw std::runtime_error("corrupt sample block (truncated varint)");
        const unsigned char b = *p++;
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    throw std::runtime_error("corrupt sample block (varint too long)");
}

inline std::uint64_t getVarint(const unsigned char*& p, const unsigned char* end) {
    if (p != end && *p < 0x80) return *p++;  // one byte: the small deltas of a quiet counter
    // Up to 8 bytes at once where 8 remain (a byte counter's delta takes ~5-6, a time's 2-3):
    // the 7-bit groups are packed with three mask-and-shift steps instead of a loop whose exit
    // branch mispredicts at every varint. Same value as the loop below.
    if constexpr (std::endian::native == std::endian::little) {
        if (end - p >= 8) {
            std::uint64_t x = 0;
            std::memcpy(&x, p, sizeof x);
            if (const std::uint64_t stops = ~x & 0x8080808080808080ULL) {
                const int bytes = std::countr_zero(stops) / 8 + 1;
                if (bytes < 8) x &= (std::uint64_t{1} << (8 * bytes)) - 1;
                p += bytes;
                x = ((x & 0x7f007f007f007f00ULL) >> 1) | (x & 0x007f007f007f007fULL);
                x = ((x & 0x3fff00003fff0000ULL) >> 2) | (x & 0x00003fff00003fffULL);
                return ((x & 0x0fffffff00000000ULL) >> 4) | (x & 0x000000000fffffffULL);
            }
        }
    }
    return getLongVarint(p, end);
}

// Wrap-around arithmetic keeps every encoding exact for any int64 pair.
std::int64_t minus(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
std::int64_t plus(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// Run coding of a stream of differences: a non-zero x is zigzag(x) as a varint (never 0); a run
// of r zeros is a 0 byte and then r - 1. A quiet counter's deltas (errors, pauses) and a regular
// scrape's second differences of time are nearly all zero: 120 samples take 2 bytes, not 120.
class RunWriter {
public:
    explicit RunWriter(char* p) : p_(p) {}
    void put(std::int64_t x) {
        if (x == 0) {
            ++zeros_;
            return;
        }
        endRun();
        p_ = putVarint(p_, zigzag(x));
    }
    char* end() {
        endRun();
        return p_;
    }

private:
    void endRun() {
        if (zeros_ == 0) return;
        *p_++ = 0;
        p_ = putVarint(p_, zeros_ - 1);
        zeros_ = 0;
    }
    char* p_;
    std::uint64_t zeros_ = 0;
};

// Reads a run-coded stream of `n` differences, handing each to `take` in order.
template <typename Take>
void getRuns(const unsigned char*& p, const unsigned char* end, std::uint64_t n, Take&& take) {
    for (std::uint64_t i = 0; i < n;) {
        const std::uint64_t u = getVarint(p, end);
        if (u != 0) {
            take(unzigzag(u));
            ++i;
            continue;
        }
        const std::uint64_t zeros = getVarint(p, end);
        if (zeros >= n - i) throw std::runtime_error("corrupt sample block (run)");
        for (std::uint64_t k = 0; k <= zeros; ++k) take(0);
        i += zeros + 1;
    }
}

// A count read from a blob: bounded (kMaxBlockSamples) so a damaged one cannot ask for gigabytes.
std::uint64_t checkedCount(std::uint64_t n) {
    if (n > kMaxBlockSamples) throw std::runtime_error("corrupt sample block (count)");
    return n;
}

void checkBlockSize(std::size_t n) {
    if (n > kMaxBlockSamples)
        throw std::length_error("a sample block of " + std::to_string(n) + " samples (at most " + std::to_string(kMaxBlockSamples) + ")");
}

// Counters up to 2^53 are exact in a double; beyond that keep raw doubles.
constexpr double kMaxExactInteger = 9007199254740992.0;

} // namespace

void appendEncodedTimes(std::span<const std::int64_t> timesMs, std::string& out) {
    checkBlockSize(timesMs.size());
    // The first time, the first step, then each step's change: 0 for a regular scrape.
    const std::size_t at = out.size();
    out.resize(at + 1 + kMaxVarint * (timesMs.size() + 2));
    out[at] = static_cast<char>(kTimeRuns);
    RunWriter w(putVarint(out.data() + at + 1, timesMs.size()));
    std::int64_t prev = 0, step = 0;
    for (std::size_t i = 0; i < timesMs.size(); ++i) {
        const std::int64_t t = timesMs[i];
        const std::int64_t d = i == 0 ? t : minus(t, prev);  // the first time is its own "step"
        w.put(minus(d, step));
        if (i > 0) step = d;
        prev = t;
    }
    out.resize(static_cast<std::size_t>(w.end() - out.data()));
}

void appendEncodedValues(std::span<const double> values, std::string& out) {
    checkBlockSize(values.size());
    // -0.0 too is kept as a raw double: as an integer it would read back as +0.0 (fuzz_chunk_blob).
    bool integral = true;
    for (double v : values)
        if (!(std::fabs(v) <= kMaxExactInteger) || v != std::floor(v) || (v == 0 && std::signbit(v))) { integral = false; break; }
    const std::size_t at = out.size();
    if (integral) {
        out.resize(at + 1 + kMaxVarint * (values.size() + 1));
        out[at] = static_cast<char>(kIntegerDeltaRuns);
        RunWriter w(putVarint(out.data() + at + 1, values.size()));
        std::int64_t prev = 0;
        for (double v : values) {
            const auto x = static_cast<std::int64_t>(v);
            w.put(x - prev);
            prev = x;
        }
        out.resize(static_cast<std::size_t>(w.end() - out.data()));
    } else {
        out.resize(at + 1 + kMaxVarint);
        out[at] = static_cast<char>(kRawDoubles);
        const auto body = static_cast<std::size_t>(putVarint(out.data() + at + 1, values.size()) - out.data());
        out.resize(body + values.size() * sizeof(double));
        std::memcpy(out.data() + body, values.data(), values.size() * sizeof(double));
    }
}

std::string encodeTimes(std::span<const std::int64_t> timesMs) {
    std::string out;
    appendEncodedTimes(timesMs, out);
    return out;
}

std::string encodeValues(std::span<const double> values) {
    std::string out;
    appendEncodedValues(values, out);
    return out;
}

void decodeTimes(std::string_view blob, std::vector<std::int64_t>& out) {
    auto p = reinterpret_cast<const unsigned char*>(blob.data());
    const auto end = p + blob.size();
    if (blob.size() >= 2 && *p == kTimeRuns) {
        ++p;
        const std::uint64_t n = checkedCount(getVarint(p, end));
        out.reserve(out.size() + n);
        std::int64_t prev = 0, step = 0;
        bool first = true;
        getRuns(p, end, n, [&](std::int64_t change) {
            if (first) {
                prev = change;
                first = false;
            } else {
                step = plus(step, change);
                prev = plus(prev, step);
            }
            out.push_back(prev);
        });
        return;
    }
    // Stores written before run coding: the count, then each time's difference to the one before.
    const std::uint64_t n = getVarint(p, end);
    if (n > blob.size()) throw std::runtime_error("corrupt sample block (count)");
    std::int64_t prev = 0;
    out.reserve(out.size() + n);
    for (std::uint64_t i = 0; i < n; ++i) {
        prev = plus(prev, unzigzag(getVarint(p, end)));
        out.push_back(prev);
    }
}

void decodeValues(std::string_view blob, std::vector<double>& out) {
    if (blob.empty()) throw std::runtime_error("corrupt sample block (empty)");
    auto p = reinterpret_cast<const unsigned char*>(blob.data());
    const auto end = p + blob.size();
    const unsigned char kind = *p++;
    const std::uint64_t n = getVarint(p, end);
    if (kind == kIntegerDeltas) {
        if (n > blob.size()) throw std::runtime_error("corrupt sample block (count)");
        std::int64_t prev = 0;
        out.reserve(out.size() + n);
        for (std::uint64_t i = 0; i < n; ++i) {
            prev = plus(prev, unzigzag(getVarint(p, end)));
            out.push_back(static_cast<double>(prev));
        }
    } else if (kind == kIntegerDeltaRuns) {
        checkedCount(n);
        out.reserve(out.size() + n);
        std::int64_t prev = 0;
        getRuns(p, end, n, [&](std::int64_t delta) {
            prev = plus(prev, delta);  // wraps, not overflows, on a damaged blob
            out.push_back(static_cast<double>(prev));
        });
    } else if (kind == kRawDoubles) {
        // n first: n * 8 wraps for a damaged count beyond 2^61.
        if (n > blob.size() || static_cast<std::uint64_t>(end - p) != n * sizeof(double))
            throw std::runtime_error("corrupt sample block (size)");
        if (n == 0) return;
        const std::size_t at = out.size();
        out.resize(at + n);
        std::memcpy(out.data() + at, p, n * sizeof(double));
    } else {
        throw std::runtime_error("corrupt sample block (kind)");
    }
}

} // namespace fabscope
