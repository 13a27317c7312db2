#pragma once
// Which files an import reads: the paths given, directories expanded (recursively, hidden
// entries skipped, in name order), and never the store the import writes into, nor SQLite's
// files beside it (a capture folder often holds its own store).
#include "importers/import_runner.h"

#include <string>
#include <vector>

namespace fabscope {

// The files to import; a missing path, and the store's own files, are named in `summary`.
[[nodiscard]] std::vector<std::string> importInputs(const std::vector<std::string>& paths, const std::string& storePath,
                                                    ImportSummary& summary);

} // namespace fabscope
