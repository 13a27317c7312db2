// Methods and definitions: how every number of the report was made, with the thresholds used.
#include "core/report/doc_sections.h"
#include "core/report/kind_definitions.h"
#include "core/report/text_format.h"

namespace fabscope::docsec {

Section methods(const ReportData& d) {
    Section s{"methods", "Methods and definitions", {}};
    const AnalysisConfig& c = d.config;
    const std::string hot = reportfmt::number(c.hotLink.util * 100);
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
        {"Findings", "Sorted by severity, then start time; the JSON output holds them in FabScope's findings format "
                     "(fabscope_findings: 1) with the report tables under \"report\"."},
        {"GPU time at risk", "See its section: an upper bound over critical findings, stated in GPU-hours."},
    };
    // The kinds' definitions (the GUI shows the same), before "Findings" and "GPU time at risk".
    std::vector<std::pair<std::string, std::string>> kinds;
    for (auto& [k, text] : kindDefinitions(c)) kinds.emplace_back(std::string(kindName(k)), std::move(text));
    defs.items.insert(defs.items.end() - 2, kinds.begin(), kinds.end());
    s.blocks.emplace_back(std::move(defs));
    return s;
}

} // namespace fabscope::docsec
