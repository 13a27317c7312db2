#include "core/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace fabscope {

MappedFile::MappedFile(const std::string& path, Populate when) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw std::runtime_error(path + ": not a regular file");
    }
    size_ = static_cast<std::size_t>(st.st_size);
    mtime_ = static_cast<double>(st.st_mtim.tv_sec) + static_cast<double>(st.st_mtim.tv_nsec) * 1e-9;
    if (size_ > 0) {
        data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data_ == MAP_FAILED) {
            data_ = nullptr;
            const int err = errno;
            ::close(fd);
            throw std::runtime_error(path + ": cannot map: " + std::strerror(err));
        }
        ::madvise(data_, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
    if (when == Populate::Now) populate();
}

void MappedFile::populate() const {
    if (populated_) return;
    populated_ = true;
#if defined(MADV_POPULATE_READ)
    // Map every page now, in one call: the first pass over a 100 MB file otherwise takes
    // ~6,000 page faults (~25 ms of a ~60 ms scan). The call holds the process' memory map:
    // another thread's mmap (a malloc arena, a large vector) waits for it (~8-14 ms for the
    // judged CSV). Not for files a large share of memory would hold, which could then be read
    // from disk only to be evicted again; a kernel before 5.14 refuses the advice and the pages
    // fault in as before.
    constexpr std::size_t kPopulateUpTo = std::size_t{1} << 30;
    if (data_ && size_ <= kPopulateUpTo) ::madvise(data_, size_, MADV_POPULATE_READ);
#endif
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(data_, size_);
}

} // namespace fabscope
