// Methods and definitions: how every number of the report was made, with the thresholds used.
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

namespace fabscope::docsec {

Section methods(const ReportData& d) {
    Section s{"methods", "Methods and definitions", {}};
    const AnalysisConfig& c = d.config;
    const std::string hot = reportfmt::number(c.hotLink.util * 100);
    const auto kind = [](FindingKind k) { return std::string(kindName(k)); };
    Definitions defs;
    defs.items = {
        {"Window", "All figures cover the window in the header; without --from/--to it is the span of the stored samples."},
        {"Counters and rates",
         "The store keeps raw cumulative counters. A rate is the increase between consecutive samples divided by the time "
         "between them. An interval whose counter went backwards (reset), hit a legacy counter's ceiling (saturated), or is "
         "longer than " + reportfmt::number(c.gapFactor) + "x the median interval (gap) gives no rate and is left out."},
        {"Utilisation",
         "Bytes sent per second x 8 over the capacity the link runs at (width x lane rate, e.g. 4x HDR = 200 Gb/s). A "
         "direction is read from the transmitter's xmit_bytes, else the receiver's rcv_bytes. Directions with neither are "
         "counted as not measured."},
        {"Percentiles",
         "Time-weighted. Per tier they are read from a histogram of 0.1-point bins and rounded up to the bin's upper edge; per "
         "link they are exact. Max is the highest single interval."},
        {"Time \u2265 " + hot + "%", "The share of measured link-time (and the link-seconds) at or above the hot threshold."},
        {"Tiers", "Hosts are tier 0; switches touching a host are leaves (1); other switches sit one above their nearest lower "
                  "switch (spine 2, core 3)."},
        {"Oversubscription", "Per switch, the capacity of its links to the tier below over that of its links to the tier above "
                             "(2.00 means 2:1). Nominal assumes each link ran at its class's most common rate."},
        {kind(FindingKind::HotLink), "A link direction at >= " + hot + "% of capacity for >= " + std::to_string(c.hotLink.minSamples) +
                         " consecutive intervals; critical when its peak reaches " +
                         reportfmt::number(c.hotLink.criticalUtil * 100) + "%."},
        {kind(FindingKind::DegradedLink), "A link running narrower or slower than most links of its class (host links; switch links per pair "
                          "of tiers) or than the configured width/speed; the capacity lost is expected minus actual Gb/s."},
        {kind(FindingKind::ErrorLink), "An error counter (symbol errors, link error recovery, receive errors, FEC uncorrectable, transmit "
                       "discards) whose increase over the window and mean rate exceed its threshold; critical at " +
                           reportfmt::number(c.errorLink.criticalFactor) + "x the threshold rate."},
        {kind(FindingKind::LinkFlap), "LinkDownedCounter increased in the window (by at least " + reportfmt::number(c.linkFlap.minCount) + ")."},
        {kind(FindingKind::EcmpImbalance), "Among a switch's up-links to the next tier, the busiest carries more than " +
                               reportfmt::number(c.ecmpImbalance.ratio) + "x the group mean while the mean is at least " +
                               reportfmt::number(c.ecmpImbalance.minMeanUtil * 100) + "%, for >= " +
                               std::to_string(c.ecmpImbalance.minSamples) + " consecutive intervals."},
        {kind(FindingKind::PfcStorm), "A port sending PFC pauses for >= " + reportfmt::number(c.pfcStorm.share * 100) +
                          "% of an interval over >= " + std::to_string(c.pfcStorm.minSamples) +
                          " intervals; the origin sends pauses without receiving any, the spread follows the paused "
                          "neighbours upstream."},
        {kind(FindingKind::CongestionTree), "Ports whose PortXmitWait (x " + reportfmt::number(c.congestionTree.tickNs) +
                                " ns per tick, an assumption) covers >= " + reportfmt::number(c.congestionTree.share * 100) +
                                "% of the interval, joined into the tree that points at its root."},
        {kind(FindingKind::StragglerPath), "Per job, the pair of ranks whose routes (forwarding tables, else equal-cost) have the least headroom, when it is at most " +
                               reportfmt::number(c.stragglerPath.outlierRatio * 100) + "% of the job's median pair."},
        {kind(FindingKind::TopologyChange), "Links added, removed, moved or running at another width/speed between the latest topology "
                            "snapshot and the one before it."},
        {"Findings", "Sorted by severity, then start time; the JSON output holds them in FabScope's findings format "
                     "(fabscope_findings: 1) with the report tables under \"report\"."},
        {"GPU time at risk", "See its section: an upper bound over critical findings, stated in GPU-hours."},
    };
    s.blocks.emplace_back(std::move(defs));
    return s;
}

} // namespace fabscope::docsec
