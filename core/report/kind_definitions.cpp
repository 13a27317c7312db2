#include "core/report/kind_definitions.h"

#include "core/analysis/format.h"
#include "core/byte_size.h"
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
         "discards) whose increase over the window and mean rate exceed its threshold, or a port whose bit error "
         "rate after FEC exceeds " + numfmt::ber(c.errorLink.effectiveBer) + " (after FEC and retransmission, " +
             numfmt::ber(c.errorLink.symbolBer) + ") as ibdiagnet read it; critical at " +
             reportfmt::number(c.errorLink.criticalFactor) + "x the threshold."},
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
        {FindingKind::SlowPair,
         "A host pair that is an outlier against pairs at the same distance. From probes: p99 >= " +
             reportfmt::number(c.slowPair.latencyFactor) + "x the class median p99 (and >= " +
             reportfmt::number(c.slowPair.minExcessUs) + " us above it), jitter >= " + reportfmt::number(c.slowPair.jitterFactor) +
             "x the median jitter, loss, or perftest bandwidth <= " + reportfmt::number(c.slowPair.bwRatio) +
             "x the median. From pairwise benchmarks (nccl-tests runs between two hosts): a run failed, or its figure (mean busbw "
             "over sizes >= " + binarySize(static_cast<std::int64_t>(c.pairBenchmark.minSizeBytes)) + ") is <= " +
             reportfmt::number((1 - c.pairBenchmark.minDrop) * 100) + "% of its class median and >= " +
             reportfmt::number(c.pairBenchmark.madFactor) + " scaled MADs below it (classes of >= " +
             std::to_string(c.pairBenchmark.minRuns) +
             " good runs: same benchmark, GPUs per node, sizes and distance); critical when a run failed or several benchmarks "
             "agree."},
        {FindingKind::SlowHost,
         "A host in slow or failed pairwise-benchmark runs far more often than the other hosts: binomial p-value (its bad runs "
         "against the other hosts' bad share) < " +
             reportfmt::number(c.pairBenchmark.hostAlpha) + " / hosts tested, with >= " +
             reportfmt::number(c.pairBenchmark.hostMinShare * 100) +
             "% of its runs slow or failed; named one at a time, each judged without the hosts already named. The host, its "
             "NIC or its own cable, not the links its pairs share."},
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
