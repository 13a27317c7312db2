// Fuzz target: a store's chunk blobs (core/chunk_codec.h) come from a file someone handed over.
// Decoding must give samples or throw std::runtime_error; never crash, over-read or ask for
// gigabytes. What decodes re-encodes to blobs that decode to the same samples (times exactly,
// values bit for bit). The same bytes read as 8-byte integers round-trip through the encoder.
#include "core/chunk_codec.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace {

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabscope;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::vector<std::int64_t> times, again;
    try {
        decodeTimes(bytes, times);
    } catch (const std::runtime_error&) {
        times.clear();
    }
    decodeTimes(encodeTimes(times), again);
    if (again != times) __builtin_trap();

    std::vector<double> values, valuesAgain;
    try {
        decodeValues(bytes, values);
    } catch (const std::runtime_error&) {
        values.clear();
    }
    decodeValues(encodeValues(values), valuesAgain);
    if (!sameBits(values, valuesAgain)) __builtin_trap();

    std::vector<std::int64_t> ints(size / sizeof(std::int64_t));
    if (!ints.empty()) std::memcpy(ints.data(), data, ints.size() * sizeof(std::int64_t));
    again.clear();
    decodeTimes(encodeTimes(ints), again);
    if (again != ints) __builtin_trap();
    std::vector<double> exact;  // integer counters as an importer hands them (below 2^53)
    for (std::int64_t i : ints) exact.push_back(static_cast<double>(i >> 11));
    valuesAgain.clear();
    decodeValues(encodeValues(exact), valuesAgain);
    if (!sameBits(exact, valuesAgain)) __builtin_trap();
    return 0;
}
