#pragma once
// Every importer FabScope has, and format detection from content.
#include "importers/importer.h"

#include <memory>
#include <vector>

namespace fabscope {

class ImporterRegistry {
public:
    ImporterRegistry();  // registers all built-in importers
    [[nodiscard]] const Importer* byName(std::string_view name) const;
    // The importer most certain about `head` (the file's first bytes); nullptr when none is.
    [[nodiscard]] const Importer* detect(std::string_view head) const;
    [[nodiscard]] std::vector<std::string_view> names() const;

private:
    std::vector<std::unique_ptr<Importer>> importers_;
};

} // namespace fabscope
