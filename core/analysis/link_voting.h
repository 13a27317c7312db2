#pragma once
// Localising a faulty link from end-to-end probes by voting (after 007, NSDI'18, and
// NetBouncer, NSDI'19): every bad pair spreads one vote over the links its routes may cross
// (a link on half its equal-cost routes gets 1/2), good pairs put the same weight on the links
// they cross as evidence of health. Greedily, the link that explains most of the remaining bad
// votes, and whose good evidence stays low, is blamed; the bad pairs it explains are removed
// and the votes recounted. Links no probe can tell apart (every pair crosses them with the same
// weight, e.g. equal-cost up-links when no route is known) are blamed together as one group.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fabscope {

struct VotingPair {
    bool bad = false;
    // The routes of the probe and of its reply: each a weight (summing to 1) and the links it crosses.
    using Routes = std::vector<std::pair<double, std::vector<std::uint32_t>>>;
    Routes forward, reply;
};

struct BlamedLinks {
    std::vector<std::uint32_t> links;   // one link, or the tied links the probes cannot tell apart
    double badVotes = 0, goodVotes = 0; // summed over pairs, per member (the tie shares them)
    std::vector<std::size_t> explained; // the bad pairs whose routes may cross it
    std::size_t goodPairs = 0;          // good pairs that certainly crossed it
};

// Blamed links, strongest first: bad votes >= minBadVotes and good / (good + bad) <= maxGoodShare.
std::vector<BlamedLinks> blameLinks(const std::vector<VotingPair>& pairs, double minBadVotes, double maxGoodShare);

} // namespace fabscope
