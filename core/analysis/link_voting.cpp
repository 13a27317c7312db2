#include "core/analysis/link_voting.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fabscope {
namespace {

double weightCrossing(const VotingPair::Routes& routes, const std::set<std::uint32_t>& links) {
    double w = 0;
    for (const auto& [weight, route] : routes)
        if (std::any_of(route.begin(), route.end(), [&](std::uint32_t l) { return links.count(l) > 0; })) w += weight;
    return std::min(w, 1.0);
}

// Share of a pair's round trips that may cross any of `links`: its probe's or its reply's route.
double crossing(const VotingPair& p, const std::set<std::uint32_t>& links) {
    const double f = weightCrossing(p.forward, links), r = weightCrossing(p.reply, links);
    return 1 - (1 - f) * (1 - r);
}

using Signature = std::vector<std::pair<std::size_t, long long>>;  // (pair, weight in 1e-6)

} // namespace

std::vector<BlamedLinks> blameLinks(const std::vector<VotingPair>& pairs, double minBadVotes, double maxGoodShare) {
    // Each link's pairs and the weight with which each crosses it.
    std::map<std::uint32_t, std::vector<std::pair<std::size_t, double>>> byLink;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        std::set<std::uint32_t> links;
        for (const auto* routes : {&pairs[i].forward, &pairs[i].reply})
            for (const auto& r : *routes) links.insert(r.second.begin(), r.second.end());
        for (auto l : links) byLink[l].emplace_back(i, crossing(pairs[i], {l}));
    }
    std::vector<bool> open(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) open[i] = pairs[i].bad;

    std::vector<BlamedLinks> out;
    while (true) {
        // Links crossed by open bad pairs, grouped by who crosses them and how much.
        std::map<Signature, std::vector<std::uint32_t>> groups;
        for (const auto& [link, crossers] : byLink) {
            Signature sig;
            bool voted = false;
            for (const auto& [p, w] : crossers) {
                if (pairs[p].bad && !open[p]) continue;
                voted = voted || pairs[p].bad;
                sig.emplace_back(p, std::llround(w * 1e6));
            }
            if (voted) groups[sig].push_back(link);
        }
        struct Candidate {
            BlamedLinks b;
            double groupBad = 0;
        };
        std::vector<Candidate> candidates;
        for (const auto& [sig, links] : groups) {
            const std::set<std::uint32_t> members(links.begin(), links.end());
            Candidate c;
            c.b.links = links;
            double good = 0;
            for (const auto& [p, unused] : sig) {
                const double w = crossing(pairs[p], members);
                if (pairs[p].bad) {
                    c.groupBad += w;
                    c.b.explained.push_back(p);
                } else {
                    good += w;
                    if (w > 0.999) ++c.b.goodPairs;
                }
            }
            // Per member: a tie of n links shares the votes it would take as one.
            c.b.badVotes = c.groupBad / static_cast<double>(links.size());
            c.b.goodVotes = good / static_cast<double>(links.size());
            candidates.push_back(std::move(c));
        }
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate& a, const Candidate& b) { return a.groupBad > b.groupBad; });
        const Candidate* pick = nullptr;
        for (const auto& c : candidates) {
            const double total = c.b.badVotes + c.b.goodVotes;
            if (c.groupBad >= minBadVotes && total > 0 && c.b.goodVotes / total <= maxGoodShare) {
                pick = &c;
                break;
            }
        }
        if (!pick) break;
        for (auto p : pick->b.explained) open[p] = false;
        out.push_back(pick->b);
    }
    return out;
}

} // namespace fabscope
