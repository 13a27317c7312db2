#pragma once
// How many threads FabScope's own parallel work uses (store scans, link series, heatmap pooling):
// one setting for core, views and benchmarks. FABSCOPE_THREADS=N overrides the machine's count.
#include <cstddef>

namespace fabscope {

// The hardware's concurrency, or FABSCOPE_THREADS when set to 1..64; never 0.
[[nodiscard]] std::size_t workerThreads();

// Lowers the calling thread's scheduling priority to the lowest (nice 19): for work beside the
// workerThreads() that may as well run on the cores they leave idle (a file's hash beside its
// parse). Best effort: where the system refuses, the thread keeps its priority.
void runAtLowestPriority();

// Lowers it to nice 10: for a thread that works ahead of the one the result waits on (an
// import's chunk encoder, ahead of its SQLite thread). Beside it at the same priority, the
// scheduler often shared one core between the two and left the other to a lowest-priority hash;
// below it, the critical thread keeps a core and this one still comes before that hash.
void runAtLowerPriority();

} // namespace fabscope
