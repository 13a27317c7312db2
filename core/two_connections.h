#pragma once
// Work split over two threads for a large read-only store: this thread reads through `store`, a
// second through its own read-only connection to the same file (a Store is one thread's).
// `work(via, first, stride)` takes every `stride`-th share from `first` (0 here, 1 there); the
// second thread's exception is rethrown once both have finished.
#include "core/store/store.h"

#include <exception>
#include <thread>

namespace fabscope {

template <typename Work>
void onTwoConnections(const Store& store, Work&& work) {
    std::exception_ptr failed;
    std::thread second([&] {
        try {
            const Store own(store.path(), Store::Mode::ReadOnly);
            const Store::ReadTransaction read(own);
            work(own, std::size_t{1}, std::size_t{2});
        } catch (...) {
            failed = std::current_exception();
        }
    });
    try {
        work(store, std::size_t{0}, std::size_t{2});
    } catch (...) {
        second.join();
        throw;
    }
    second.join();
    if (failed) std::rethrow_exception(failed);
}

} // namespace fabscope
