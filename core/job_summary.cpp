#include "core/job_summary.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace fabscope {

JobSummary summarise(const StoredJob& job) {
    JobSummary s;
    s.name = job.name;
    s.file = job.file;
    s.ncclVersion = job.details.ncclVersion;
    s.nranks = job.details.nranks;
    s.ranksSeen = job.ranks.size();
    std::unordered_set<std::string> seen;  // a search of the list per rank was quadratic in a large job
    for (const JobRank& r : job.ranks)
        if (seen.insert(r.host).second) s.hosts.push_back(r.host);
    std::set<int> rings, trees;
    for (const JobEdge& e : job.details.edges) {
        switch (e.kind) {
        case JobEdge::Kind::Ring: rings.insert(e.channel); break;
        case JobEdge::Kind::Tree: trees.insert(e.channel); break;
        case JobEdge::Kind::Connection: ++s.transports[e.transport]; break;
        }
    }
    s.ringChannels = rings.size();
    s.treeChannels = trees.size();
    return s;
}

}  // namespace fabscope
