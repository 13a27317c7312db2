#pragma once
// How many threads FabScope's own parallel work uses (store scans, link series, heatmap pooling):
// one setting for core, views and benchmarks. FABSCOPE_THREADS=N overrides the machine's count.
#include <cstddef>

namespace fabscope {

// The hardware's concurrency, or FABSCOPE_THREADS when set to 1..64; never 0.
[[nodiscard]] std::size_t workerThreads();

} // namespace fabscope
