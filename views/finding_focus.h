#pragma once
// What a finding points at on the fabric: its links and nodes (ports, origin, path), resolved by
// GUID or description and port name against the loaded snapshot.
#include <cstdint>
#include <vector>

namespace fabscope {

struct Finding;
struct StoreSnapshot;

struct FindingFocus {
    std::vector<std::uint32_t> links, nodes;
    int primaryLink = -1;  // the link of the finding's first port, -1 when none
    int primaryNode = -1;  // the node of its first port
};

FindingFocus focusOf(const StoreSnapshot& snapshot, const Finding& finding);

} // namespace fabscope
