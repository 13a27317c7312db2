#pragma once
// The small dragonfly and rail-optimised fabrics of `fabscope demo --topology`, with the ports
// where the demo plants its faults. Group and rail membership is returned for tests and the
// manifest only; nothing in the written files marks it (the layout finds it from the graph).
#include "core/model.h"

#include <string>
#include <vector>

namespace fabscope {

struct DemoPortRef {
    std::string node;  // node description
    int port = 0;
};

struct DemoTopology {
    Fabric fabric;
    DemoPortRef hot;       // carries ~95% for a stretch (hot_link)
    DemoPortRef errors;    // rising symbol errors (error_link)
    DemoPortRef degraded;  // a link at 1x instead of 4x (degraded_link)
    // Dragonfly: the switches of each group; rail: the NICs of each rail (node descriptions).
    std::vector<std::vector<std::string>> groups;
};

// 5 groups of 4 switches, all-to-all inside a group, one global link between every pair of groups,
// 4 hosts per switch. Switch names interleave the groups, so no name gives a group away.
DemoTopology dragonflyDemo();

// 2 scalable units of 8 hosts with 8 NICs each ("gpu001 mlx5_0".."gpu001 mlx5_7"); NIC r of every
// host of a unit goes to that unit's rail-r leaf; 16 leaves under 4 spines.
DemoTopology railDemo();

} // namespace fabscope
