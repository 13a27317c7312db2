#pragma once
// An allocator for the few buffers an import fills with hundreds of MB (parsed samples, the
// sort by series): above 8 MiB it maps memory and asks for transparent huge pages, so the
// kernel takes one page fault per 2 MiB instead of one per 4 KiB (page faults were a fifth of
// an import's time under perf). Smaller buffers come from operator new as usual.
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>
#include <vector>

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

// Many small buffers that live and die together (one import part's per-series sample lists):
// handed out from 32 MiB blocks on transparent huge pages and all freed with the arena; a
// buffer given back before is not reused (its growth is sized ahead, so little is). The parse
// of a large CSV took a page fault every 4 KiB of these, ~4 % of an import's CPU. Under ASan
// every buffer is its own heap allocation, so overflows are still caught.
class HugePageArena : public std::pmr::memory_resource {
public:
    HugePageArena() = default;
    HugePageArena(const HugePageArena&) = delete;
    HugePageArena& operator=(const HugePageArena&) = delete;
    ~HugePageArena() override {
        for (const Block& b : blocks_) ::munmap(b.begin, b.bytes);
    }

private:
    static constexpr std::size_t kBlock = std::size_t{32} << 20;
    struct Block {
        void* begin;
        std::size_t bytes;
    };

    void* do_allocate(std::size_t bytes, std::size_t align) override {
#if defined(__SANITIZE_ADDRESS__)
        return std::pmr::new_delete_resource()->allocate(bytes, align);
#else
        std::size_t at = (used_ + align - 1) / align * align;
        if (blocks_.empty() || at + bytes > blocks_.back().bytes) {
            const std::size_t size = std::max(kBlock, (bytes + kBlock - 1) / kBlock * kBlock);
            void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) throw std::bad_alloc();
            ::madvise(p, size, MADV_HUGEPAGE);  // a hint: without THP it is plain anonymous memory
            blocks_.push_back({p, size});
            at = 0;
        }
        used_ = at + bytes;
        return static_cast<char*>(blocks_.back().begin) + at;
#endif
    }
    void do_deallocate([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes, [[maybe_unused]] std::size_t align) override {
#if defined(__SANITIZE_ADDRESS__)
        std::pmr::new_delete_resource()->deallocate(p, bytes, align);
#endif
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

    std::vector<Block> blocks_;
    std::size_t used_ = 0;
};

} // namespace fabscope
