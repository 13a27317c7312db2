#include "views/store_snapshot.h"

#include "core/tiers.h"

namespace fabscope {

std::shared_ptr<const StoreSnapshot> loadStoreSnapshot(const std::string& path) {
    auto s = std::make_shared<StoreSnapshot>();
    Store store(path, Store::Mode::ReadOnly);
    s->path = path;
    s->info = store.info();
    if (auto latest = store.latestSnapshot()) s->fabric = store.loadFabric(latest->id);
    s->tiers = computeTiers(s->fabric);
    return s;
}

} // namespace fabscope
