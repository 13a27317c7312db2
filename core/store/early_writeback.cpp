#include "core/store/early_writeback.h"

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace fabscope {

EarlyWriteback::EarlyWriteback(const std::string& path, std::size_t every) : every_(every) {
#if defined(__linux__)
    // Our own descriptor: writeback acts on the file's pages, whichever descriptor names it.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
#else
    (void)path;
#endif
}

EarlyWriteback::~EarlyWriteback() {
#if defined(__linux__)
    if (fd_ >= 0) ::close(fd_);
#endif
}

void EarlyWriteback::wrote(std::size_t bytes) {
    pending_ += bytes;
    if (pending_ < every_ || fd_ < 0) return;
    pending_ = 0;
#if defined(__linux__)
    // Asynchronous: queues the dirty pages for writing and returns; the whole file, as SQLite
    // writes wherever its B-trees put the pages.
    if (::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE) == 0) ++started_;
#endif
}

} // namespace fabscope
