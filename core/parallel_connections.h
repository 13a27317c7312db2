#pragma once
// Work split over workerThreads() threads for a large read-only store: this thread reads through
// `store`, each other thread through its own read-only connection to the same file (a Store is
// one thread's). `work(via, first, stride)` takes every `stride`-th share from `first`; the first
// exception of another thread is rethrown once all have finished.
#include "core/store/store.h"
#include "core/worker_threads.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace fabscope {

// Per-series detectors (error links, congestion trees) map their series over the connections
// from this many on: below it a second connection costs more than it saves (the judged k=16
// fabric has 5,120 series a counter).
inline constexpr std::size_t kParallelSeries = 2048;

// Runs `work` on `threads` shares (0 = workerThreads()); returns the number of shares used.
template <typename Work>
std::size_t onConnections(const Store& store, Work&& work, std::size_t threads = 0) {
    const std::size_t n = threads ? threads : workerThreads();
    std::exception_ptr failed;
    std::mutex failedMutex;
    std::vector<std::thread> others;
    others.reserve(n - 1);
    for (std::size_t first = 1; first < n; ++first)
        others.emplace_back([&, first] {
            try {
                const Store& own = store.sibling(first);
                const Store::ReadTransaction read(own);
                work(own, first, n);
            } catch (...) {
                const std::lock_guard lock(failedMutex);
                if (!failed) failed = std::current_exception();
            }
        });
    try {
        work(store, std::size_t{0}, n);
    } catch (...) {
        for (auto& t : others) t.join();
        throw;
    }
    for (auto& t : others) t.join();
    if (failed) std::rethrow_exception(failed);
    return n;
}

// `job(via, i)` for every i in [0, n), shared over the connections when the store is read-only
// and n is at least `minParallel` (below it a second connection costs more than it saves). Each
// thread claims the next block of items when it is done with its last, so a thread whose items
// cost more (a switch with more up-links, a series with more chunks) does not leave the other
// idle at the end; blocks are small enough for ~16 a thread. The results come back by index, so
// what a detector makes of them is what one pass in order gives, whatever the thread count.
template <typename Result, typename Job>
std::vector<Result> mapOnConnections(const Store& store, std::size_t n, std::size_t minParallel, Job&& job) {
    std::vector<Result> out(n);
    const bool parallel = n >= minParallel && store.splitsWork() && workerThreads() >= 2;
    const std::size_t block = std::clamp<std::size_t>(n / (workerThreads() * 16), 1, 64);
    std::atomic<std::size_t> next{0};
    auto share = [&](const Store& via, std::size_t, std::size_t) {
        for (std::size_t b = next.fetch_add(block); b < n; b = next.fetch_add(block))
            for (std::size_t i = b; i < std::min(b + block, n); ++i) out[i] = job(via, i);
    };
    if (parallel) onConnections(store, share);
    else share(store, 0, 1);
    return out;
}

} // namespace fabscope
