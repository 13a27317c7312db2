#include "importers/import_inputs.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

namespace fabscope {
namespace fs = std::filesystem;
namespace {

struct FileId {
    dev_t device;
    ino_t inode;
    bool operator==(const FileId&) const = default;
};

std::optional<FileId> fileId(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileId{st.st_dev, st.st_ino};
}

// The store and SQLite's files beside it, as they are now (looked up once per import): reading
// one as an input fails ("unrecognised format"), and mapping it would close a descriptor of the
// store, which drops the locks the process holds on it.
std::vector<FileId> storeFiles(const std::string& storePath) {
    std::vector<FileId> out;
    if (storePath.empty()) return out;
    for (const char* suffix : {"", "-journal", "-wal", "-shm"})
        if (auto id = fileId(storePath + suffix)) out.push_back(*id);
    return out;
}

} // namespace

std::vector<std::string> importInputs(const std::vector<std::string>& paths, const std::string& storePath, ImportSummary& summary) {
    std::vector<std::string> files;
    for (const auto& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> inDir;
            for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                const auto name = it->path().filename().string();
                if (name.starts_with('.')) {
                    if (it->is_directory()) it.disable_recursion_pending();
                    continue;
                }
                if (it->is_regular_file()) inDir.push_back(it->path().string());
            }
            std::sort(inDir.begin(), inDir.end());
            files.insert(files.end(), inDir.begin(), inDir.end());
        } else if (fs::exists(p, ec)) {
            files.push_back(p);
        } else {
            summary.files.push_back({p, FileStatus::Failed, "", 0});
            summary.diagnostics.push_back({p, 0, Severity::Error, "no such file or directory"});
        }
    }
    const std::vector<FileId> store = storeFiles(storePath);
    if (store.empty()) return files;
    std::erase_if(files, [&](const std::string& f) {
        const auto id = fileId(f);
        if (!id || std::find(store.begin(), store.end(), *id) == store.end()) return false;
        summary.files.push_back({f, FileStatus::Skipped, "", 0});
        summary.diagnostics.push_back({f, 0, Severity::Info, "the store this import writes into: skipped"});
        return true;
    });
    return files;
}

} // namespace fabscope
