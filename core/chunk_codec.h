#pragma once
// Compact encoding of one block of a counter series (docs/ARCHITECTURE.md): timestamps in milliseconds and
// values, each delta-encoded as zig-zag varints. Values that are not all integers are kept as raw
// doubles. Decoding hands the analysis contiguous arrays.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fabscope {

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
