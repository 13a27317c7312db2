#include "importers/import_inputs.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace fabscope {
namespace fs = std::filesystem;
namespace {

// The store or its journal: reading it as an input fails ("unrecognised format"), and mapping
// it would close a descriptor of the store, which drops the locks the process holds on it.
bool isStoreFile(const std::string& path, const std::string& storePath) {
    if (storePath.empty()) return false;
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
        std::error_code ec;
        if (fs::equivalent(path, storePath + suffix, ec)) return true;
    }
    return false;
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
    std::erase_if(files, [&](const std::string& f) {
        if (!isStoreFile(f, storePath)) return false;
        summary.files.push_back({f, FileStatus::Skipped, "", 0});
        summary.diagnostics.push_back({f, 0, Severity::Info, "the store this import writes into: skipped"});
        return true;
    });
    return files;
}

} // namespace fabscope
