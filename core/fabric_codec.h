#pragma once
// A snapshot's fabric as one compact blob, stored beside the snap_* tables (schema v5) so that
// opening an 83k-link fabric is one read instead of 280k SQLite rows. The tables stay the
// queryable truth; a blob that is missing, of another format or damaged is ignored.
#include "core/model.h"

#include <optional>
#include <string>
#include <string_view>

namespace fabscope {

inline constexpr int kFabricBlobFormat = 1;

std::string encodeFabric(const Fabric& fabric);
// nullopt when the bytes are not a whole, consistent fabric of kFabricBlobFormat.
std::optional<Fabric> decodeFabric(std::string_view bytes);

// What `fabscope info` counts of a snapshot, walked from the blob without building the fabric
// (the snap_* tables take ~50 ms to count for an 83k-link fabric); nullopt where decodeFabric
// would fail.
struct FabricCounts {
    std::size_t switches = 0, cas = 0, routers = 0;
    std::size_t ports = 0;  // not Down
    std::size_t links = 0;
};
std::optional<FabricCounts> countFabric(std::string_view bytes);

} // namespace fabscope
