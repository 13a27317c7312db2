#pragma once
// What a finding points at on the fabric: its links and nodes (ports, origin, path), resolved by
// GUID or description and port name against the loaded snapshot, and how they relate: the route
// of a straggler path in order, the origin of a PFC storm or congestion tree and the ports it
// spread to. The fabric view draws this as an overlay.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fabscope {

struct Finding;
struct JobRoutes;
struct StoreSnapshot;

struct FindingFocus {
    std::vector<std::uint32_t> links, nodes;  // everything the finding names
    std::vector<std::uint32_t> pathLinks;     // its path's links, source to destination
    std::vector<std::uint32_t> spreadLinks;   // with an origin: the links of the ports it spread to
    std::vector<std::uint32_t> jobLinks;      // a job overlay: the links of every route of the job
    int originNode = -1, originLink = -1;     // the origin's node and link, -1 when none
    int primaryLink = -1;  // the link of the finding's first port, -1 when none
    int primaryNode = -1;  // the node of its first port

    [[nodiscard]] bool empty() const { return links.empty() && nodes.empty() && jobLinks.empty(); }
};

FindingFocus focusOf(const StoreSnapshot& snapshot, const Finding& finding);

// A job on the fabric: the links of all its scored pairs' routes, with pair `pair` (an index into
// job.pairs) as the path in order and its bottleneck hop as the named link.
FindingFocus focusOfJob(const StoreSnapshot& snapshot, const JobRoutes& job, std::size_t pair);

// A rank of the job on the fabric: its host's link as the named link, among the job's links.
FindingFocus focusOfRank(const StoreSnapshot& snapshot, const JobRoutes& job, std::size_t rank);

} // namespace fabscope
