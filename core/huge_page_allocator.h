#pragma once
// An allocator for the few buffers an import fills with hundreds of MB (parsed samples, the
// sort by series): above 8 MiB it maps memory and asks for transparent huge pages, so the
// kernel takes one page fault per 2 MiB instead of one per 4 KiB (page faults were a fifth of
// an import's time under perf). Smaller buffers come from operator new as usual.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>

namespace fabscope {

template <typename T>
struct HugePageAllocator {
    using value_type = T;
#if defined(__SANITIZE_ADDRESS__)
    static constexpr std::size_t kMapFrom = SIZE_MAX;  // ASan checks heap buffers only: keep them there
#else
    static constexpr std::size_t kMapFrom = std::size_t{8} << 20;
#endif

    HugePageAllocator() = default;
    template <typename U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT: converting, as std::allocator

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kMapFrom) return static_cast<T*>(::operator new(bytes));
        void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        ::madvise(p, bytes, MADV_HUGEPAGE);  // a hint: without THP it is plain anonymous memory
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kMapFrom) ::operator delete(p);
        else ::munmap(p, bytes);
    }
    template <typename U>
    bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

} // namespace fabscope
