#pragma once
// A read-only memory map of a whole file: importers parse it as one string_view without copies.
#include <string>
#include <string_view>

namespace fabscope {

class MappedFile {
public:
    // Now: every page is mapped before the constructor returns. Later: populate() does it, so a
    // thread reading from the start can be started first (it follows the populate, which is faster).
    enum class Populate { Now, Later };
    explicit MappedFile(const std::string& path, Populate when = Populate::Now);  // throws std::runtime_error with the OS reason
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    [[nodiscard]] std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }
    [[nodiscard]] double mtime() const { return mtime_; }
    // Maps every page (see the constructor); once, whoever asks again. One thread at a time.
    void populate() const;

private:
    mutable bool populated_ = false;
    void* data_ = nullptr;
    std::size_t size_ = 0;
    double mtime_ = 0;
};

} // namespace fabscope
