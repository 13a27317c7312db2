// Traffic sections: how full each tier is, and which links are the busiest.
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <cmath>

namespace fabscope::docsec {
namespace {

constexpr const char* kMaxColour = "#d35400";
constexpr const char* kMeanColour = "#1f5fa8";

std::vector<double> asPercent(const std::vector<double>& v) {
    std::vector<double> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] * 100.0;
    return out;
}

ChartSpec utilChart(const ReportData& d, std::string title) {
    ChartSpec c;
    c.title = std::move(title);
    c.yLabel = "Utilisation (%)";
    c.threshold = d.utilisation.threshold * 100.0;
    c.thresholdLabel = "hot \u2265 " + reportfmt::number(d.utilisation.threshold * 100) + "%";
    c.tStart = d.findings.windowStart;
    c.tEnd = d.findings.windowEnd;
    return c;
}

std::string hotLabel(const ReportData& d) { return "\u2265 " + reportfmt::number(d.utilisation.threshold * 100) + "%"; }

} // namespace

Section utilisation(const ReportData& d) {
    Section s{"utilisation", "Utilisation per tier and direction", {}};
    s.blocks.emplace_back(Paragraph{
        "Utilisation is the rate of bytes sent over a link direction divided by the capacity it runs at, per sampling "
        "interval. Percentiles are time-weighted over every measured interval of every link direction in the group.",
        false});
    Table t{"utilisation_by_tier",
            "Utilisation per tier and direction (%)",
            {"Direction", "Links", "Not measured", "p50 (%)", "p95 (%)", "p99 (%)", "Max (%)", "Mean (%)",
             "Time " + hotLabel(d) + " (%)", "Time " + hotLabel(d) + " (link-s)"},
            {false, true, true, true, true, true, true, true, true, true},
            {},
            "No link has byte counters in the window."};
    for (const auto& g : d.utilisation.groups) {
        const UtilStats& u = g.stats;
        t.rows.push_back({{g.label, std::to_string(g.directions), std::to_string(g.unmeasured), reportfmt::percent(u.p50),
                           reportfmt::percent(u.p95), reportfmt::percent(u.p99), reportfmt::percent(u.max), reportfmt::percent(u.mean),
                           reportfmt::percent(u.fractionAbove()), reportfmt::number(std::round(u.secondsAbove), 9)},
                          u.p95 >= d.utilisation.threshold ? Tone::Critical : u.secondsAbove > 0 ? Tone::Warning : Tone::None});
    }
    s.blocks.emplace_back(std::move(t));
    for (const auto& g : d.utilisation.groups) {
        if (g.t.empty()) continue;
        ChartSpec c = utilChart(d, g.label + ": across " + std::to_string(g.directions) + " link directions");
        c.series.push_back({"max", kMaxColour, g.t, asPercent(g.max), false});
        c.series.push_back({"mean", kMeanColour, g.t, asPercent(g.mean), false});
        s.blocks.emplace_back(Chart{std::move(c)});
    }
    return s;
}

Section hotLinks(const ReportData& d) {
    Section s{"hot_links", "Busiest links", {}};
    s.blocks.emplace_back(Paragraph{"Link directions ranked by their 95th percentile of utilisation (sustained load), then "
                                    "by their peak. The transmitting port is named first.",
                                    false});
    Table t{"top_links",
            "Busiest link directions",
            {"#", "Link (transmitter -> receiver)", "Direction", "Capacity (Gb/s)", "p50 (%)", "p95 (%)", "p99 (%)", "Max (%)",
             "Time " + hotLabel(d) + " (s)"},
            {true, false, false, true, true, true, true, true, true},
            {},
            "No link has byte counters in the window."};
    const double critical = d.config.hotLink.criticalUtil;
    for (std::size_t i = 0; i < d.utilisation.top.size(); ++i) {
        const auto& l = d.utilisation.top[i];
        const Tone tone = l.stats.max >= critical && l.stats.secondsAbove > 0 ? Tone::Critical
                          : l.stats.secondsAbove > 0                        ? Tone::Warning
                                                                            : Tone::None;
        t.rows.push_back({{std::to_string(i + 1), portLabel(l.tx) + " -> " + portLabel(l.rx), l.group, reportfmt::number(l.capacityGbps),
                           reportfmt::percent(l.stats.p50), reportfmt::percent(l.stats.p95), reportfmt::percent(l.stats.p99),
                           reportfmt::percent(l.stats.max), reportfmt::number(std::round(l.stats.secondsAbove), 9)},
                          tone});
    }
    s.blocks.emplace_back(std::move(t));
    for (std::size_t i = 0; i < d.utilisation.top.size(); ++i) {
        const auto& l = d.utilisation.top[i];
        if (l.t.empty()) continue;
        ChartSpec c = utilChart(d, "#" + std::to_string(i + 1) + " " + portLabel(l.tx) + " -> " + portLabel(l.rx) + " (" +
                                       reportfmt::number(l.capacityGbps) + " Gb/s)");
        c.series.push_back({"utilisation", kMeanColour, l.t, asPercent(l.u), false});
        s.blocks.emplace_back(Chart{std::move(c)});
    }
    return s;
}

} // namespace fabscope::docsec
