// ECMP imbalance: the equal-cost up-link groups where one member carried far more than the rest.
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

namespace fabscope::docsec {

Section ecmpImbalance(const ReportData& d) {
    Section s{std::string(kindName(FindingKind::EcmpImbalance)), "ECMP imbalance", {}};
    s.blocks.emplace_back(Paragraph{
        "A group is a switch's up-links to the next tier (its equal-cost next hops). A group is imbalanced while its busiest "
        "member carries more than " + reportfmt::number(d.config.ecmpImbalance.ratio) + "x the group mean and the mean is at least " +
            reportfmt::number(d.config.ecmpImbalance.minMeanUtil * 100) + "%, for " + std::to_string(d.config.ecmpImbalance.minSamples) +
            " or more consecutive intervals. Utilisations are means over that stretch.",
        false});
    Table t{std::string(kindName(FindingKind::EcmpImbalance)),
            "Imbalanced up-link groups (busiest member against the group mean)",
            {"Severity", "Group", "Busiest link (transmitter -> receiver)", "Busiest (%)", "Group mean (%)", "Mean ratio (x)",
             "Peak ratio (x)", "From", "Duration (s)"},
            {false, false, false, true, true, true, true, false, true},
            {},
            "None in this window: no up-link group was imbalanced."};
    for (const auto& f : d.findings.findings) {
        if (f.kind != FindingKind::EcmpImbalance || f.ports.size() < 2) continue;
        // ports: the busiest link (both ends), then the other members' local ports.
        std::string members = f.ports[0].port;
        for (std::size_t i = 2; i < f.ports.size(); ++i) members += ", " + f.ports[i].port;
        const std::string group = f.ports[0].node + ": " + metricText(f, "group_size") + " up-links (ports " + members + ")";
        t.rows.push_back({{std::string(toString(f.severity)), group, portLabel(f.ports[0]) + " -> " + portLabel(f.ports[1]),
                           reportfmt::percent(metricNumber(f, "busiest_util").value_or(0)),
                           reportfmt::percent(metricNumber(f, "group_mean_util").value_or(0)), metricText(f, "mean_ratio"),
                           metricText(f, "peak_ratio"), reportfmt::utc(f.start), reportfmt::number(f.end - f.start, 9)},
                          toneOf(f.severity)});
    }
    s.blocks.emplace_back(std::move(t));
    return s;
}

} // namespace fabscope::docsec
