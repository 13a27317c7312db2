#pragma once
// Imports files and directories into a store, one transaction per counter file and one for the
// topology snapshot they form together (docs/CLI.md). Shared by the CLI and the GUI's import job.
#include "core/store/store.h"
#include "importers/registry.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct ImportOptions {
    std::string format;                 // forced importer name; empty = detect from content
    std::string snapshotLabel;          // empty = first file's or the directory's name
    std::optional<double> snapshotTime; // UNIX seconds; default = time in the file, else its mtime
    // Told as each file's reading starts (on the importing thread): its number from 1, how many
    // files this call reads (found in directories; already stored and skipped ones left out), its
    // path. What a progress line or dialog names beside the bar.
    std::function<void(std::size_t number, std::size_t count, const std::string& path)> onFile;
};

// Skipped: a file known not to be needed (an ibdiagnet2 folder's partition keys, or the same
// fabric again in another form); it is named with the reason, and is no failure.
// Cancelled: the import was cancelled before the file was stored (while it was read or written,
// or before it was reached); nothing of it is in the store.
enum class FileStatus { Imported, AlreadyImported, Skipped, Failed, Cancelled };

struct FileOutcome {
    std::string file;
    FileStatus status = FileStatus::Failed;
    std::string format;
    std::int64_t rows = 0;
};

struct ImportSummary {
    std::vector<FileOutcome> files;
    std::vector<Diagnostic> diagnostics;
    bool cancelled = false;
    [[nodiscard]] bool anyFailed() const;
    [[nodiscard]] std::size_t count(FileStatus s) const;
};

class ImportRunner {
public:
    ImportRunner(Store& store, const ImporterRegistry& registry) : store_(store), registry_(registry) {}
    // Throws StoreError when the store itself fails (disk full, read-only); input errors are
    // reported in the summary and leave the store as it was.
    ImportSummary run(const std::vector<std::string>& paths, const ImportOptions& options,
                      const ProgressFn& progress = {});

private:
    Store& store_;
    const ImporterRegistry& registry_;
};

} // namespace fabscope
