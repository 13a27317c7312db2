// Summary and fabric sections: what the reader needs first, and what the fabric is.
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace fabscope::docsec {
namespace {

std::string ratio(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", r);
    return buf;
}

std::string count(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

Section summary(const ReportData& d) {
    Section s{"summary", "Summary", {}};
    std::size_t crit = 0, warn = 0, info = 0;
    for (const auto& f : d.findings.findings)
        (f.severity == FindingSeverity::Critical ? crit : f.severity == FindingSeverity::Warning ? warn : info)++;
    double lost = 0;
    for (const auto& f : d.findings.findings)
        if (f.kind == FindingKind::DegradedLink) lost += metricNumber(f, "capacity_lost_gbps").value_or(0);

    Figures fig{"summary", {}, {}};
    auto add = [&](std::string k, std::string v, Tone t = Tone::None) {
        fig.items.emplace_back(std::move(k), std::move(v));
        fig.tones.push_back(t);
    };
    add("Switches", std::to_string(d.fabric.switches));
    add("Hosts (CAs)", std::to_string(d.fabric.cas));
    add("Links", std::to_string(d.fabric.links));
    add("Findings", count(crit, "critical", "critical") + ", " + count(warn, "warning", "warnings") +
                        (info ? ", " + count(info, "info", "info") : ""),
        crit ? Tone::Critical : warn ? Tone::Warning : Tone::Good);
    add("Capacity lost to degraded links", reportfmt::number(lost) + " Gb/s", lost > 0 ? Tone::Warning : Tone::Good);
    const TierDirection* busiest = nullptr;
    for (const auto& g : d.utilisation.groups)
        if (g.directions && (!busiest || g.stats.p95 > busiest->stats.p95)) busiest = &g;
    if (busiest)
        add("Busiest tier (p95)", busiest->label + ": " + reportfmt::percent(busiest->stats.p95) + "%",
            busiest->stats.p95 >= d.utilisation.threshold ? Tone::Warning : Tone::None);
    add("GPU time at risk (upper bound)", reportfmt::number(d.gpuRisk.totalGpuSeconds / 3600.0) + " GPU-hours",
        d.gpuRisk.totalGpuSeconds > 0 ? Tone::Critical : Tone::Good);
    s.blocks.emplace_back(std::move(fig));

    if (d.findings.findings.empty()) {
        s.blocks.emplace_back(Paragraph{"No findings over the window: no link crossed a threshold of the analysis.", false});
    } else {
        // One line per incident: its cause, then the findings it explains (docs/ANALYSIS.md "Incidents").
        Table t{"key_findings", "Most severe incidents, the cause first", {"Severity", "Finding"}, {false, false}, {}, ""};
        for (const auto& inc : d.findings.incidents) {
            if (inc.severity != FindingSeverity::Critical && t.rows.size() >= 3) break;
            const std::string others = incidentOthers(d.findings, inc);
            t.rows.push_back({{std::string(toString(inc.severity)), d.findings.findings[inc.members.front()].summary +
                                                                        (others.empty() ? "" : " (with " + others + ")")},
                              toneOf(inc.severity)});
        }
        s.blocks.emplace_back(std::move(t));
    }
    return s;
}

Section fabric(const ReportData& d) {
    Section s{"fabric", "Fabric", {}};
    const FabricSummary& f = d.fabric;
    s.blocks.emplace_back(Paragraph{
        "The latest topology snapshot holds " + count(f.switches, "switch", "switches") + ", " + count(f.cas, "host channel adapter", "host channel adapters") +
            (f.routers ? ", " + count(f.routers, "router", "routers") : "") + " and " + count(f.links, "link", "links") + " (" +
            std::to_string(f.ports) + " connected ports). Tiers are read from the graph: hosts are tier 0, switches that "
            "touch a host are leaves, every other switch sits one above its nearest lower switch.",
        false});

    Table tiers{"tiers", "Nodes per tier", {"Tier", "Role", "Switches", "CAs", "Routers"}, {false, false, true, true, true}, {}, "No nodes."};
    for (const auto& t : f.tiers)
        tiers.rows.push_back({{t.tier >= 0 ? std::to_string(t.tier) : "-", t.role, std::to_string(t.switches),
                               std::to_string(t.cas), std::to_string(t.routers)}});
    s.blocks.emplace_back(std::move(tiers));

    Table gens{"link_generations", "Link generations (width x lane speed as the links run now)",
               {"Link class", "Width x speed", "Per link (Gb/s)", "Links", "Total (Gb/s)"}, {false, false, true, true, true}, {}, "No links."};
    std::map<std::string, std::size_t> usual;
    for (const auto& g : f.generations) usual.emplace(g.linkClass, g.links);  // first = most common of its class
    for (const auto& g : f.generations)
        gens.rows.push_back({{g.linkClass, g.widthSpeed, reportfmt::number(g.gbps), std::to_string(g.links),
                              reportfmt::number(g.gbps * static_cast<double>(g.links), 6)},
                             usual.at(g.linkClass) == g.links ? Tone::None : Tone::Warning});
    s.blocks.emplace_back(std::move(gens));

    Table over{"oversubscription", "Oversubscription per switch: capacity from the tier below vs to the tier above",
               {"Switch", "Tier", "Down links", "Down (Gb/s)", "Up links", "Up (Gb/s)", "Down:up (x:1)", "Nominal down:up (x:1)"},
               {false, false, true, true, true, true, true, true}, {}, "No switch has links both below and above it."};
    std::map<int, std::map<std::string, std::size_t>> ratiosByTier;
    for (const auto& o : f.oversubscription) {
        const bool degraded = ratio(o.ratio()) != ratio(o.nominalRatio());
        over.rows.push_back({{o.node, tierRole(o.tier), std::to_string(o.downLinks), reportfmt::number(o.downGbps, 6),
                              std::to_string(o.upLinks), reportfmt::number(o.upGbps, 6), ratio(o.ratio()), ratio(o.nominalRatio())},
                             degraded ? Tone::Warning : Tone::None});
        ++ratiosByTier[o.tier][ratio(o.ratio())];
    }
    std::string text;
    for (const auto& [tier, ratios] : ratiosByTier) {
        std::vector<std::pair<std::size_t, std::string>> byCount;  // most common ratio first
        for (const auto& [r, n] : ratios) byCount.emplace_back(n, r);
        std::stable_sort(byCount.begin(), byCount.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
        std::string parts;
        for (const auto& [n, r] : byCount) parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " at " + r + ":1";
        text += (text.empty() ? "" : " ") + tierRole(tier) + " switches: " + parts + ".";
    }
    if (!text.empty())
        s.blocks.emplace_back(Paragraph{text + " Ratios use the capacity links run at now; the nominal ratio assumes every link "
                                               "ran at the rate most links of its class run, so a gap between the two is a degraded link.",
                                        false});
    s.blocks.emplace_back(std::move(over));
    return s;
}

} // namespace fabscope::docsec
