// Sections built from the findings: degraded, erroring and flapping links, the incidents and every
// finding by kind, the GPU time at risk, and the annotations of the window.
#include "core/analysis/format.h"
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <map>
#include <optional>

namespace fabscope::docsec {
namespace {

// "3.2e-10 (1e-12)" for an error_link judged on a bit error rate (net_dump_ext); "" for a counter's.
std::string berText(const Finding& f) {
    std::optional<double> ber, threshold;
    for (const auto& [k, v] : f.metrics)
        if (const double* x = std::get_if<double>(&v); x && (k == "ber" || k == "threshold_ber")) (k == "ber" ? ber : threshold) = *x;
    return ber && threshold ? numfmt::ber(*ber) + " (" + numfmt::ber(*threshold) + ")" : std::string();
}

} // namespace

Section degradedLinks(const ReportData& d) {
    Section s{"degraded_links", "Degraded links", {}};
    Table t{"degraded_links",
            "Links running below the width or speed of their class",
            {"Link", "Class", "Runs", "Expected", "Runs (Gb/s)", "Expected (Gb/s)", "Lost (Gb/s)"},
            {false, false, false, false, true, true, true},
            {},
            "No degraded link: every link runs at the width and speed most links of its class run at."};
    double lost = 0;
    for (const auto& f : d.findings.findings) {
        if (f.kind != FindingKind::DegradedLink) continue;
        const double l = metricNumber(f, "capacity_lost_gbps").value_or(0);
        lost += l;
        const std::string runs = metricText(f, "actual_width") + "x" + metricText(f, "actual_speed");
        const std::string want = metricText(f, "expected_width") + "x" + metricText(f, "expected_speed");
        t.rows.push_back({{linkLabel(f, "<->"), metricText(f, "link_class"), runs, want, metricText(f, "actual_gbps"),
                           metricText(f, "expected_gbps"), reportfmt::number(l)},
                          toneOf(f.severity)});
    }
    if (!t.rows.empty())
        s.blocks.emplace_back(Paragraph{std::to_string(t.rows.size()) + (t.rows.size() == 1 ? " link runs" : " links run") +
                                            " below its class, losing " + reportfmt::number(lost) + " Gb/s of capacity in total.",
                                        false});
    s.blocks.emplace_back(std::move(t));
    return s;
}

Section errorLinks(const ReportData& d) {
    Section s{"error_links", "Erroring and flapping links", {}};
    Table e{"error_links",
            "Error counters rising faster than their thresholds, and bit error rates above theirs (receiving port first)",
            {"Severity", "Link (receiver <- transmitter)", "Counter", "Increase", "Rate (/s)", "Threshold (/s)", "Bit error rate (threshold)", "From", "To"},
            {false, false, false, true, true, true, true, false, false},
            {},
            "No error counter rose faster than its threshold."};
    Table fl{"link_flaps", "Links that went down in the window", {"Severity", "Link", "Times down", "First", "Last"},
             {false, false, true, false, false}, {}, "No link went down in the window."};
    for (const auto& f : d.findings.findings) {
        if (f.kind == FindingKind::ErrorLink)
            e.rows.push_back({{std::string(toString(f.severity)), linkLabel(f, "<-"), metricText(f, "counter"), metricText(f, "increase"),
                               metricText(f, "rate_per_s"), metricText(f, "threshold_per_s"), berText(f), reportfmt::utc(f.start),
                               reportfmt::utc(f.end)},
                              toneOf(f.severity)});
        if (f.kind == FindingKind::LinkFlap)
            fl.rows.push_back({{std::string(toString(f.severity)), linkLabel(f, "<->"), metricText(f, "count"), reportfmt::utc(f.start),
                                reportfmt::utc(f.end)},
                               toneOf(f.severity)});
    }
    s.blocks.emplace_back(std::move(e));
    s.blocks.emplace_back(std::move(fl));
    return s;
}

std::string incidentOthers(const FindingsReport& r, const Incident& inc) {
    std::string out;
    for (std::size_t i = 1; i < inc.members.size(); ++i) out += (out.empty() ? "" : ", ") + r.findings[inc.members[i]].id;
    return out;
}

Section findings(const ReportData& d) {
    Section s{"findings", "All findings", {}};
    Table in{"incidents",
             "Incidents: the findings that are one problem, the cause first (docs/ANALYSIS.md)",
             {"Incident", "Severity", "Cause", "With", "Start", "End"},
             {true, false, false, false, false, false},
             {},
             "No findings."};
    for (const auto& inc : d.findings.incidents) {
        const Finding& cause = d.findings.findings[inc.members.front()];
        const std::string others = incidentOthers(d.findings, inc);
        in.rows.push_back({{std::to_string(inc.id), std::string(toString(inc.severity)), cause.id + ": " + cause.summary,
                            others.empty() ? "-" : others, reportfmt::utc(inc.start), reportfmt::utc(inc.end)},
                           toneOf(inc.severity)});
    }
    s.blocks.emplace_back(std::move(in));
    std::map<std::string, std::map<FindingSeverity, std::size_t>> byKind;
    for (const auto& f : d.findings.findings) ++byKind[std::string(kindName(f.kind))][f.severity];
    Table k{"findings_by_kind", "Findings by kind", {"Kind", "Critical", "Warning", "Info"}, {false, true, true, true}, {}, "No findings."};
    for (auto& [kind, sev] : byKind)
        k.rows.push_back({{kind, std::to_string(sev[FindingSeverity::Critical]), std::to_string(sev[FindingSeverity::Warning]),
                           std::to_string(sev[FindingSeverity::Info])}});
    s.blocks.emplace_back(std::move(k));
    Table t{"findings",
            "Every finding, by incident, the cause first (as in the JSON findings contract)",
            {"Id", "Severity", "Start", "End", "Summary"},
            {false, false, false, false, false},
            {},
            "No findings."};
    for (const auto& f : d.findings.findings)
        t.rows.push_back({{f.id, std::string(toString(f.severity)), reportfmt::utc(f.start), reportfmt::utc(f.end), f.summary},
                          toneOf(f.severity)});
    s.blocks.emplace_back(std::move(t));
    return s;
}

Section gpuRisk(const ReportData& d) {
    Section s{"gpu_time_at_risk", "GPU time at risk", {}};
    const GpuRisk& r = d.gpuRisk;
    s.blocks.emplace_back(Paragraph{
        "Definition: for each critical finding, the GPUs whose traffic can cross it are those attached below its lowest node "
        "(its own host for a host link, every host under a leaf for that leaf's uplinks). A GPU's time at risk is the union "
        "of the intervals of the critical findings that reach it; the total adds these over GPUs. Findings of benchmark sweeps "
        "(slow pairs and hosts from nccl-tests runs) are tests on idle hosts and count for no time. " +
            std::string(r.fromJobs ? "Jobs are in the store: a job's time at risk is the union over the findings that reach any "
                                     "of its hosts, counted for all of its GPUs (ranks), since a collective waits for its slowest member. A job's own "
                                     "straggler path counts for it even as a warning: its ring runs at that path's bound."
                                   : "No jobs are in the store, so every host channel adapter counts as one GPU (one NIC per "
                                     "GPU, as in rail-optimised servers)."),
        false});
    s.blocks.emplace_back(Paragraph{
        "This is an upper bound, not a measured slowdown: it assumes every counted GPU was busy and sent traffic over the "
        "affected link for the whole finding, while routing may have kept its traffic elsewhere. Warnings (such as degraded "
        "links) are not counted." +
            std::string(r.fromJobs ? "" : " Without job data it does not count GPUs elsewhere that waited on these in a collective."),
        true});
    Figures fig{"gpu_time_at_risk_total", {}, {}};
    fig.items = {{"GPU time at risk", reportfmt::number(r.totalGpuSeconds / 3600.0) + " GPU-hours (" +
                                          reportfmt::number(r.totalGpuSeconds, 6) + " GPU-s)"},
                 {r.fromJobs ? "GPUs in jobs" : "GPUs counted (host NICs)", std::to_string(r.gpusCounted)},
                 {"Window", reportfmt::duration(r.windowSeconds)}};
    fig.tones = {r.totalGpuSeconds > 0 ? Tone::Critical : Tone::Good, Tone::None, Tone::None};
    s.blocks.emplace_back(std::move(fig));

    Table t{"gpu_time_at_risk",
            "Critical findings and the GPUs they reach (summaries under All findings)",
            {"Finding", "Reaches", "GPUs", "Duration (s)", "GPU-s (before overlaps)"},
            {false, false, true, true, true},
            {},
            "No critical finding: no GPU time at risk."};
    for (const auto& f : r.findings)
        t.rows.push_back({{f.findingId, f.scope, std::to_string(f.gpus), reportfmt::number(f.seconds, 9),
                           reportfmt::number(static_cast<double>(f.gpus) * f.seconds, 9)},
                          Tone::Critical});
    s.blocks.emplace_back(std::move(t));
    if (r.fromJobs) {
        Table j{"gpu_time_at_risk_by_job",
                "Per job (a straggler path's bound is the ring's bus bandwidth bound: its slowest hop's free capacity)",
                {"Job", "GPUs (ranks)", "Hosts found", "Ranks not found", "At risk (s)", "GPU-hours", "Straggler path",
                 "Ring bound (Gb/s)", "Bound without its hop (Gb/s)", "Predicted slowdown (x)"},
                {false, true, true, true, true, true, false, true, true, true}, {}, "No jobs."};
        for (const auto& job : r.jobs) {
            const bool known = !job.straggler.empty();
            j.rows.push_back({{job.job, std::to_string(job.gpus), std::to_string(job.hostsMapped), std::to_string(job.ranksUnmapped),
                               reportfmt::number(job.seconds, 9), reportfmt::number(job.gpuSeconds() / 3600.0),
                               known ? job.straggler : "none", known ? reportfmt::number(job.boundGbps) : "-",
                               known && job.boundWithoutGbps > 0 ? reportfmt::number(job.boundWithoutGbps) : "-",
                               known && job.slowdown > 0 ? reportfmt::number(job.slowdown) : "-"},
                              job.seconds > 0 ? Tone::Critical : Tone::None});
        }
        s.blocks.emplace_back(std::move(j));
    }
    return s;
}

Section annotations(const ReportData& d) {
    Section s{"annotations", "Annotations", {}};
    Table t{"annotations", "Notes pinned to the window", {"From", "To", "Ports", "Author", "Note"}, {false, false, false, false, false}, {},
            "No annotations overlap the window."};
    for (const auto& a : d.annotations) {
        std::string ports;
        for (const auto& p : a.ports) ports += (ports.empty() ? "" : ", ") + portLabel(p);
        t.rows.push_back({{reportfmt::utc(a.start), reportfmt::utc(a.end), ports.empty() ? "whole fabric" : ports, a.author, a.note}});
    }
    s.blocks.emplace_back(std::move(t));
    return s;
}

} // namespace fabscope::docsec
