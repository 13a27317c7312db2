#include "views/finding_focus.h"

#include "core/analysis/findings.h"
#include "views/store_snapshot.h"

#include <algorithm>
#include <unordered_set>

namespace fabscope {
namespace {

void addOnce(std::vector<std::uint32_t>& v, std::uint32_t x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// Every link a route of the job's scored pairs crosses, once each, in the order met (a search of
// the list per hop was quadratic: seconds on the GUI thread for a job of thousands of ranks).
void addJobLinks(const StoreSnapshot& s, const JobRoutes& job, FindingFocus& out) {
    std::unordered_set<std::uint32_t> seen(out.jobLinks.begin(), out.jobLinks.end());
    for (const JobPairRoute& p : job.pairs)
        for (const PortRef& r : p.path)
            if (const auto port = s.findPort(r))
                if (const auto l = s.linkOf(*port); l && seen.insert(l->value()).second) out.jobLinks.push_back(l->value());
}

} // namespace

FindingFocus focusOf(const StoreSnapshot& s, const Finding& f) {
    FindingFocus out;
    auto linkOfRef = [&](const PortRef& r) -> int {
        const auto port = s.findPort(r);
        if (!port) return -1;
        const auto l = s.linkOf(*port);
        return l ? static_cast<int>(l->value()) : -1;
    };
    std::vector<const PortRef*> refs;
    for (const auto& p : f.ports) refs.push_back(&p);
    if (f.origin) refs.push_back(&*f.origin);
    for (const auto& p : f.path) refs.push_back(&p);
    for (const PortRef* r : refs) {
        const auto port = s.findPort(*r);
        if (!port) {
            // A port not in the topology (link down when it was taken): still frame its node.
            auto it = s.nodeByName.find(r->guid.empty() ? r->node : r->guid);
            if (it == s.nodeByName.end()) it = s.nodeByName.find(r->node);
            if (it != s.nodeByName.end()) addOnce(out.nodes, it->second);
            continue;
        }
        const std::uint32_t node = s.fabric.port(*port).node.value();
        addOnce(out.nodes, node);
        if (out.primaryNode < 0) out.primaryNode = static_cast<int>(node);
        if (auto l = s.linkOf(*port)) {
            addOnce(out.links, l->value());
            if (out.primaryLink < 0) out.primaryLink = static_cast<int>(l->value());
        }
    }
    // The path: one link per hop (each hop names its transmitting and receiving port).
    for (const auto& p : f.path)
        if (const int l = linkOfRef(p); l >= 0) addOnce(out.pathLinks, static_cast<std::uint32_t>(l));
    if (f.origin) {
        if (const auto port = s.findPort(*f.origin)) out.originNode = static_cast<int>(s.fabric.port(*port).node.value());
        out.originLink = linkOfRef(*f.origin);
        // The spread: the finding's other ports (the origin comes first among them).
        for (const auto& p : f.ports)
            if (const int l = linkOfRef(p); l >= 0 && l != out.originLink) addOnce(out.spreadLinks, static_cast<std::uint32_t>(l));
    }
    return out;
}

FindingFocus focusOfJob(const StoreSnapshot& s, const JobRoutes& job, std::size_t pair) {
    FindingFocus out;
    if (pair < job.pairs.size()) {
        const JobPairRoute& p = job.pairs[pair];
        Finding f;
        f.path = p.path;
        if (2 * p.bottleneckHop + 1 < p.path.size()) f.ports = {p.path[2 * p.bottleneckHop], p.path[2 * p.bottleneckHop + 1]};
        out = focusOf(s, f);
    }
    addJobLinks(s, job, out);
    return out;
}

FindingFocus focusOfRank(const StoreSnapshot& s, const JobRoutes& job, std::size_t rank) {
    FindingFocus out;
    if (rank < job.rankPlaces.size() && job.rankPlaces[rank].port) {
        const JobRankPlace& place = job.rankPlaces[rank];
        Finding f;
        f.ports = {*place.port};
        if (place.switchPort) f.ports.push_back(*place.switchPort);
        out = focusOf(s, f);
    }
    addJobLinks(s, job, out);
    return out;
}

} // namespace fabscope
