#pragma once
// Compact encoding of one block of a counter series (docs/ARCHITECTURE.md): timestamps in
// milliseconds as second differences (a regular scrape's are all 0), integer values as deltas,
// both as zig-zag varints with runs of zeros in two bytes. Values that are not all integers are
// kept as raw doubles. Blobs written before run coding (plain deltas) still decode. Decoding hands
// the analysis contiguous arrays.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fabscope {

// The most samples one block may hold (SampleWriter writes 4,096): encoding more throws
// std::length_error, and a blob claiming more is damage, so a few damaged bytes cannot ask for
// gigabytes.
inline constexpr std::size_t kMaxBlockSamples = std::size_t{1} << 20;

std::string encodeTimes(std::span<const std::int64_t> timesMs);
std::string encodeValues(std::span<const double> values);
// The same bytes appended to `out`: many blobs in one buffer, one allocation for all of them
// (an import's encoder thread would otherwise allocate what the SQLite thread frees).
void appendEncodedTimes(std::span<const std::int64_t> timesMs, std::string& out);
void appendEncodedValues(std::span<const double> values, std::string& out);

// Both append to the output vectors; they throw std::runtime_error on a corrupt blob.
void decodeTimes(std::string_view blob, std::vector<std::int64_t>& out);
void decodeValues(std::string_view blob, std::vector<double>& out);

} // namespace fabscope
