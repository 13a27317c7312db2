#pragma once
// A yes/no question over a large buffer (does it hold a NUL, a terminal escape?) asked of about
// equal slices on the worker threads: a 100 MB counter file is read whole several times before
// its parse, and each such pass on one core held up the import.
#include "core/worker_threads.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace fabscope {

// Whether `found(from, to)` holds for any slice of [0, size); slices are at least `minSlice`
// long, one per thread at most of `threads` (0: workerThreads()). `found` must not throw.
template <typename Found>
bool anyOfSlices(std::size_t size, std::size_t minSlice, std::size_t threads, Found&& found) {
    const std::size_t most = threads ? threads : workerThreads();
    const std::size_t slices = std::clamp<std::size_t>(size / std::max<std::size_t>(minSlice, 1), 1, most);
    if (slices == 1) return found(std::size_t{0}, size);
    std::atomic<bool> any{false};
    auto scan = [&](std::size_t k) {
        if (found(k * size / slices, (k + 1) * size / slices)) any = true;
    };
    {
        std::vector<std::jthread> others;
        for (std::size_t k = 1; k < slices; ++k) others.emplace_back(scan, k);
        scan(0);
    }
    return any;
}

} // namespace fabscope
