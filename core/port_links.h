#pragma once
// Which link each port ends: the index the analyses, routers and benchmarks look a hop's link up
// in (a port ends at most one link: FabricBuilder keeps the first neighbour a port reports).
#include "core/model.h"

#include <optional>
#include <vector>

namespace fabscope {

[[nodiscard]] inline std::vector<std::optional<LinkId>> linkOfEachPort(const Fabric& f) {
    std::vector<std::optional<LinkId>> out(f.ports.size());
    for (std::size_t i = 0; i < f.links.size(); ++i)
        for (const PortId p : {f.links[i].a, f.links[i].b})
            if (!out[p.value()]) out[p.value()] = LinkId(i);
    return out;
}

} // namespace fabscope
