#pragma once
// What the GUI shows of a store, loaded off the GUI thread and then shared read-only.
#include "core/model.h"
#include "core/store.h"

#include <memory>
#include <string>
#include <vector>

namespace fabscope {

struct StoreSnapshot {
    std::string path;
    StoreInfo info;
    Fabric fabric;            // latest topology snapshot
    std::vector<int> tiers;   // per node, see core/tiers.h
};

// Opens the store read-only and loads its summary and latest fabric; throws StoreError.
std::shared_ptr<const StoreSnapshot> loadStoreSnapshot(const std::string& path);

} // namespace fabscope
