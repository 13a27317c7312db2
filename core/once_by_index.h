#pragma once
// Values made once per index and kept, for caches that several threads fill and read: a reader
// sees a value whole or not at all, without a lock (the what-if's distances to a leaf and the LIDs
// out of a port, asked ~10^5 times a change while the report's stress section runs changes on
// every core). Two threads that make the same value at once both make it; one copy is kept.
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace fabscope {

template <typename T>
class OnceByIndex {
public:
    explicit OnceByIndex(std::size_t size) : slots_(size) {}

    // The value at `i`, made by `make()` the first time it is asked for.
    template <typename Make>
    const T& get(std::size_t i, Make&& make) {
        if (const T* known = slots_[i].load(std::memory_order_acquire)) return *known;
        auto made = std::make_unique<const T>(make());
        const T* expected = nullptr;
        if (!slots_[i].compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel, std::memory_order_acquire))
            return *expected;  // another thread's came first
        const T& kept = *made;
        const std::lock_guard lock(ownedMutex_);
        owned_.push_back(std::move(made));
        return kept;
    }

private:
    std::vector<std::atomic<const T*>> slots_;
    std::mutex ownedMutex_;
    std::vector<std::unique_ptr<const T>> owned_;
};

} // namespace fabscope
