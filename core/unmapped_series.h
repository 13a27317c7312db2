#pragma once
// Series that cannot be placed on a port of the latest topology snapshot: their node is unknown
// (the store's unmapped series) or the node has no port of that name (`mlx5_0` counters of a host
// whose LLDP names its port `ens1f0np0`). `fabscope info` lists them; nothing is dropped.
#include "core/store/store.h"

#include <string>
#include <vector>

namespace fabscope {

struct UnmappedSeries {
    std::string node;     // as the input named it
    std::string port;
    std::string counter;
    std::string reason;   // "node" or "port"
};

std::vector<UnmappedSeries> unmappedSeries(const Store& store);

} // namespace fabscope
