#include "core/store/early_writeback.h"

#include "core/store/store.h"

#include <sqlite3.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <system_error>
#endif

namespace fabscope {

#if defined(__linux__)
namespace {

bool sameFile(int fd, unsigned long long device, unsigned long long inode) {
    struct stat st {};
    return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == device && st.st_ino == inode;
}

// A descriptor this process holds on the file at `path` (SQLite's), or -1; its device and inode
// in `device`, `inode`. Writeback and syncs act on the file's pages, whichever descriptor names it.
int borrowedDescriptor(const std::string& path, unsigned long long& device, unsigned long long& inode) {
    struct stat want {};
    if (::stat(path.c_str(), &want) != 0) return -1;
    device = want.st_dev;
    inode = want.st_ino;
    std::error_code ec;  // never thrown: without /proc there is simply no writeback
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        int fd = -1;
        if (std::from_chars(name.data(), name.data() + name.size(), fd).ec != std::errc{}) continue;
        if (sameFile(fd, device, inode)) return fd;
    }
    return -1;
}

} // namespace
#endif

void writeAheadOfCommit(Store& store) {
    if (sqlite3_db_cacheflush(store.handle()) != SQLITE_OK) return;  // SQLITE_BUSY: the commit writes them
#if defined(__linux__)
    unsigned long long device = 0, inode = 0;
    if (const int fd = borrowedDescriptor(store.path(), device, inode); fd >= 0) ::fdatasync(fd);
#endif
}

EarlyWriteback::EarlyWriteback(const std::string& path, std::size_t every) : every_(every) {
#if defined(__linux__)
    fd_ = borrowedDescriptor(path, device_, inode_);
#else
    (void)path;
#endif
}

void EarlyWriteback::wrote(std::size_t bytes) {
    pending_ += bytes;
    if (pending_ < every_ || fd_ < 0) return;
    pending_ = 0;
#if defined(__linux__)
    // Asynchronous: queues the dirty pages for writing and returns; the whole file, as SQLite
    // writes wherever its B-trees put the pages. The descriptor is checked first: borrowed, it
    // may have been closed by its owner since, and its number given to another file.
    if (sameFile(fd_, device_, inode_) && ::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE) == 0) ++started_;
#endif
}

} // namespace fabscope
