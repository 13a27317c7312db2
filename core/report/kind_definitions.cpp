#include "core/report/kind_definitions.h"

#include "core/report/text_format.h"

#include <algorithm>
#include <cctype>

namespace fabscope {

std::vector<std::pair<FindingKind, std::string>> kindDefinitions(const AnalysisConfig& c) {
    const std::string hot = reportfmt::number(c.hotLink.util * 100);
    // The rules with their thresholds; a kind without one here is defined by its table line.
    const std::vector<std::pair<FindingKind, std::string>> rules = {
        {FindingKind::HotLink, "A link direction at >= " + hot +
                                   "% of capacity for >= " + std::to_string(c.hotLink.minSamples) +
                                   " consecutive intervals; critical when its peak reaches " +
                                   reportfmt::number(c.hotLink.criticalUtil * 100) + "%."},
        {FindingKind::DegradedLink,
         "A link running narrower or slower than most links of its class (host links; switch links per pair "
         "of tiers) or than the configured width/speed; the capacity lost is expected minus actual Gb/s."},
        {FindingKind::ErrorLink,
         "An error counter (symbol errors, link error recovery, receive errors, FEC uncorrectable, transmit "
         "discards) whose increase over the window and mean rate exceed its threshold; critical at " +
             reportfmt::number(c.errorLink.criticalFactor) + "x the threshold rate."},
        {FindingKind::LinkFlap, "LinkDownedCounter increased in the window (by at least " +
                                    reportfmt::number(c.linkFlap.minCount) + ")."},
        {FindingKind::EcmpImbalance,
         "Among a switch's up-links to the next tier, the busiest carries more than " +
             reportfmt::number(c.ecmpImbalance.ratio) + "x the group mean while the mean is at least " +
             reportfmt::number(c.ecmpImbalance.minMeanUtil * 100) +
             "%, for >= " + std::to_string(c.ecmpImbalance.minSamples) + " consecutive intervals."},
        {FindingKind::PfcStorm,
         "A port sending PFC pauses for >= " + reportfmt::number(c.pfcStorm.share * 100) +
             "% of an interval over >= " + std::to_string(c.pfcStorm.minSamples) +
             " intervals; the origin sends pauses without receiving any, the spread follows the paused "
             "neighbours upstream."},
        {FindingKind::CongestionTree,
         "Ports whose PortXmitWait (x " + reportfmt::number(c.congestionTree.tickNs) +
             " ns per tick, an assumption) covers >= " + reportfmt::number(c.congestionTree.share * 100) +
             "% of the interval, joined into the tree that points at its root."},
        {FindingKind::StragglerPath, "Per job, the pair of ranks whose routes (forwarding tables, else "
                                     "equal-cost) have the least headroom, when it is at most " +
                                         reportfmt::number(c.stragglerPath.outlierRatio * 100) +
                                         "% of the job's median pair."},
        {FindingKind::TopologyChange,
         "Links added, removed, moved or running at another width/speed between the latest topology "
         "snapshot and the one before it."},
    };
    std::vector<std::pair<FindingKind, std::string>> out;
    for (const FindingKindInfo& info : kFindingKinds) {
        const auto rule =
            std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return r.first == info.kind; });
        if (rule != rules.end()) {
            out.push_back(*rule);
        } else {
            std::string text(info.meaning);
            text.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(text.front())));
            out.emplace_back(info.kind, text + ".");
        }
    }
    return out;
}

} // namespace fabscope
