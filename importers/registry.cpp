#include "importers/registry.h"

#include "importers/ibnetdiscover_importer.h"
#include "importers/long_csv_importer.h"

namespace fabscope {

ImporterRegistry::ImporterRegistry() {
    importers_.push_back(std::make_unique<IbnetdiscoverImporter>());
    importers_.push_back(std::make_unique<LongCsvImporter>());
}

const Importer* ImporterRegistry::byName(std::string_view name) const {
    for (const auto& i : importers_)
        if (i->name() == name) return i.get();
    return nullptr;
}

const Importer* ImporterRegistry::detect(std::string_view head) const {
    const Importer* best = nullptr;
    int bestScore = 0;
    for (const auto& i : importers_) {
        const int s = i->detect(head);
        if (s > bestScore) {
            best = i.get();
            bestScore = s;
        }
    }
    return best;
}

std::vector<std::string_view> ImporterRegistry::names() const {
    std::vector<std::string_view> out;
    for (const auto& i : importers_) out.push_back(i->name());
    return out;
}

} // namespace fabscope
