// Straggler paths: per job, the pair of ranks whose route has the least headroom, with the route
// drawn hop by hop and its bottleneck highlighted.
#include "core/report/doc_sections.h"
#include "core/report/route_diagram.h"
#include "core/report/text_format.h"

namespace fabscope::docsec {

Section stragglers(const ReportData& d) {
    Section s{"straggler_paths", "Straggler paths per job", {}};
    s.blocks.emplace_back(Paragraph{
        "For each job, every communicating pair of ranks is scored by the headroom of its equal-cost routes: a hop's headroom is "
        "1 - its mean utilisation, reduced for degraded links and halved for ports with error, flap, congestion or PFC findings; "
        "a route is as good as its worst hop. The worst pair is reported when its headroom is at most " +
            reportfmt::number(d.config.stragglerPath.outlierRatio * 100) + "% of the job's median pair.",
        false});
    Table t{"straggler_paths",
            "The worst pair of each job",
            {"Severity", "Job", "Pair (source -> destination)", "Pair headroom (%)", "Job median headroom (%)", "Bottleneck hop",
             "Bottleneck headroom (%)", "Reason", "Routes", "Pairs scored"},
            {false, false, false, true, true, false, true, false, true, true},
            {},
            "None in this window: no job had a pair standing out against its other pairs (or the store holds no jobs)."};
    Table hops{"straggler_routes", "Routes hop by hop (transmitter -> receiver)", {"Job", "Hop", "Transmitter", "Receiver", "Bottleneck"},
               {false, true, false, false, false}, {}, "None in this window."};
    std::vector<Diagram> diagrams;
    for (const auto& f : d.findings.findings) {
        if (f.kind != "straggler_path") continue;
        const std::string job = metricText(f, "job");
        const std::string pair = "rank " + metricText(f, "src_rank") + " (" + metricText(f, "src_host") + ") -> rank " +
                                 metricText(f, "dst_rank") + " (" + metricText(f, "dst_host") + ")";
        const std::string neck = f.ports.size() >= 2 ? portLabel(f.ports[0]) + " -> " + portLabel(f.ports[1]) : "";
        const double neckHeadroom = metricNumber(f, "bottleneck_headroom").value_or(0);
        t.rows.push_back({{std::string(toString(f.severity)), job, pair, reportfmt::percent(metricNumber(f, "pair_headroom").value_or(0)),
                           reportfmt::percent(metricNumber(f, "job_median_headroom").value_or(0)), neck,
                           reportfmt::percent(neckHeadroom), metricText(f, "bottleneck_reason"), metricText(f, "routes"),
                           metricText(f, "pairs")},
                          toneOf(f.severity)});
        for (std::size_t h = 0; h + 1 < f.path.size(); h += 2) {
            const bool bad = f.ports.size() >= 2 && f.path[h].node == f.ports[0].node && f.path[h].port == f.ports[0].port &&
                             f.path[h + 1].node == f.ports[1].node && f.path[h + 1].port == f.ports[1].port;
            hops.rows.push_back({{job, std::to_string(h / 2 + 1), portLabel(f.path[h]), portLabel(f.path[h + 1]), bad ? "yes" : ""},
                                 bad ? toneOf(f.severity) : Tone::None});
        }
        if (f.path.size() >= 2)
            diagrams.push_back(routeDiagram(f.path, f.ports,
                                            metricText(f, "bottleneck_reason") + ", " + reportfmt::percent(neckHeadroom) + "% headroom",
                                            "Job " + job + ": " + pair));
    }
    s.blocks.emplace_back(std::move(t));
    for (auto& dg : diagrams) s.blocks.emplace_back(std::move(dg));
    if (!hops.rows.empty()) s.blocks.emplace_back(std::move(hops));
    return s;
}

} // namespace fabscope::docsec
