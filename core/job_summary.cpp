#include "core/job_summary.h"

#include <algorithm>
#include <set>

namespace fabscope {

JobSummary summarise(const StoredJob& job) {
    JobSummary s;
    s.name = job.name;
    s.file = job.file;
    s.ncclVersion = job.details.ncclVersion;
    s.nranks = job.details.nranks;
    s.ranksSeen = job.ranks.size();
    for (const JobRank& r : job.ranks)
        if (std::find(s.hosts.begin(), s.hosts.end(), r.host) == s.hosts.end()) s.hosts.push_back(r.host);
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
