// The what-if prediction as a document (whatif_document.h). Numbers carry their units in the
// column headers and figure labels; the window reads in UTC with the date.
#include "core/report/whatif_document.h"

#include "core/analysis/context.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fabscope {
namespace {

constexpr std::size_t kLinkRows = 200;  // a switch of a large fabric touches thousands; --json has them all

std::string linkText(const std::vector<PortRef>& ports) {
    if (ports.size() != 2) return "-";
    return AnalysisContext::label(ports[0]) + " -> " + AnalysisContext::label(ports[1]);
}

std::string changesText(const WhatIfReport& r) {
    std::string s;
    for (const auto& c : r.changes) s += (s.empty() ? "" : ", ") + c.label();
    return s;
}

std::string signedPp(double fraction) {
    const double pp = std::round(fraction * 1000) / 10;  // as the % cells round
    return (pp > 0 ? "+" : "") + reportfmt::percent(pp / 100);
}

std::string hours(double h) {
    char buf[32];
    std::snprintf(buf, sizeof buf, h > 0 && h < 0.01 ? "%.2g" : "%.2f", h);
    return buf;
}

const JobImpact* worstJob(const WhatIfReport& r) {
    const JobImpact* w = nullptr;
    for (const JobImpact& j : r.jobs)
        if (!w || (j.disconnected && !w->disconnected) || (j.disconnected == w->disconnected && j.slowdown > w->slowdown)) w = &j;
    return w;
}

std::size_t turningHot(const WhatIfReport& r) {
    return static_cast<std::size_t>(std::count_if(r.links.begin(), r.links.end(), [](const WhatIfLink& l) { return l.turnsHot; }));
}

Section prediction(const WhatIfReport& r, const WhatIfDocumentInfo& info) {
    Section s{"prediction", "Prediction, not a measurement", {}};
    s.blocks.emplace_back(Paragraph{
        "What the fabric is predicted to carry if " + changesText(r) + ", worked out from the load measured from " +
            reportfmt::utc(r.windowStart) + " to " + reportfmt::utc(r.windowEnd) + " (" + reportfmt::duration(r.windowEnd - r.windowStart) +
            "). Nothing here was measured after the change.",
        false});
    const bool lft = r.routing == "lft";
    s.blocks.emplace_back(Paragraph{
        std::string("Model (docs/ANALYSIS.md \"What-if\"), routing: ") +
            (lft ? "the imported forwarding tables (lft). A failed direction's p95 and peak load is split evenly over the host "
                   "LIDs its switch's table sends out of that port; each share keeps its table entry where that port is live and "
                   "still min-hop, else the switch's remaining min-hop ports share it evenly, onward along the next tables; a "
                   "transit switch the change puts farther from a destination hands the share back to the links whose tables "
                   "pointed at it. Every destination LID is assumed to carry the same load, and peaks are moved as if they "
                   "coincided."
                 : "ECMP re-spreading (no forwarding table for every switch). A failed link's up load moves in equal shares onto "
                   "its lower switch's other live links one tier up, its down load onto those links' down direction; beyond a "
                   "top-tier switch that stays up, the traffic it carried to and from its other neighbours moves onto the "
                   "siblings' top-tier switches in proportion to its per-link load. Forwarding tables are not replayed, peaks "
                   "are moved as if they coincided, and a job's traffic is assumed to spread like the rest.") +
            " A degraded link keeps its load on its new capacity.",
        true});
    Figures fig{"whatif_summary", {}, {}};
    const std::size_t hot = turningHot(r);
    const JobImpact* job = worstJob(r);
    double risk = 0;
    for (const JobImpact& j : r.jobs) risk += j.gpuHoursAtRisk;
    fig.items = {{"Link directions touched", std::to_string(r.links.size())},
                 {"Turning hot (directions, p95 >= " + reportfmt::number(info.hotUtil * 100) + " %)", std::to_string(hot)},
                 {"Total p95 load before (Gb/s)", reportfmt::number(r.totalBeforeGbps, 4)},
                 {"Total p95 load after (Gb/s)", reportfmt::number(r.totalAfterGbps, 4)},
                 {"Hosts cut off", std::to_string(r.disconnected.size())},
                 {"Highest job slowdown (x)", job ? (job->disconnected ? "cut off" : reportfmt::number(job->slowdown, 4)) : "no job"},
                 {"GPU-hours at risk (GPU h)", hours(risk)}};
    fig.tones = {Tone::None,
                 hot ? Tone::Warning : Tone::Good,
                 Tone::None,
                 Tone::None,
                 r.disconnected.empty() ? Tone::Good : Tone::Critical,
                 job && (job->disconnected || job->slowdown > 1) ? Tone::Warning : Tone::None,
                 risk > 0 ? Tone::Warning : Tone::None};
    s.blocks.emplace_back(std::move(fig));
    const double lost = r.totalBeforeGbps - r.totalAfterGbps;
    const bool conserved = std::abs(lost) <= 0.01 * std::max(r.totalBeforeGbps, 1e-9);
    s.blocks.emplace_back(Paragraph{
        "Total p95 load over the link directions touched: " + reportfmt::number(r.totalBeforeGbps, 4) + " Gb/s before, " +
            reportfmt::number(r.totalAfterGbps, 4) + " Gb/s after" +
            (conserved ? " (conserved: what the failed links carried is carried by the others)."
                       : " (" + reportfmt::number(std::abs(lost), 4) + (lost > 0 ? " Gb/s less" : " Gb/s more") +
                             ": load with no equal-cost alternative left, such as that of hosts cut off, is dropped)."),
        false});
    return s;
}

Section changes(const WhatIfReport& r) {
    Section s{"changes", "Changes", {}};
    Table t{"whatif_changes", "What is assumed to change", {"Change", "Node", "Port", "Runs at (width x speed)"}, {false, false, false, false},
            {}, "none"};
    for (const auto& c : r.changes)
        t.rows.push_back({{c.kind == WhatIfChange::Fail ? "fail" : "degrade", c.node, c.port.empty() ? "every link of the node" : c.port,
                           c.kind == WhatIfChange::Degrade ? c.widthSpeed : "-"}});
    s.blocks.emplace_back(std::move(t));
    return s;
}

Section links(const WhatIfReport& r, const WhatIfDocumentInfo& info) {
    Section s{"links", "Links the change touches", {}};
    Table t{"whatif_links",
            "Link directions whose load changes, turning hot first, then by p95 after; hot: p95 after >= " +
                reportfmt::number(info.hotUtil * 100) + " %",
            {"Link (tx -> rx)", "Capacity after (Gb/s)", "p95 before (%)", "p95 after (%)", "Peak before (%)", "Peak after (%)",
             "\u0394 p95 (pp)", "Hot after"},
            {false, true, true, true, true, true, true, false},
            {},
            "The change moves no measured load."};
    for (std::size_t i = 0; i < r.links.size() && i < kLinkRows; ++i) {
        const WhatIfLink& l = r.links[i];
        const double before = l.before.p95Util(), after = l.after.p95Util();
        const bool hot = !l.failed && after >= info.hotUtil;
        Tone tone = Tone::None;
        if (l.failed) tone = Tone::Info;
        else if (after >= info.criticalUtil && before < info.criticalUtil) tone = Tone::Critical;
        else if (l.turnsHot) tone = Tone::Warning;
        t.rows.push_back({{linkText(l.ports), l.failed ? "failed" : reportfmt::number(l.after.capacityGbps, 4), reportfmt::percent(before),
                           l.failed ? "failed" : reportfmt::percent(after), reportfmt::percent(l.before.peakUtil()),
                           l.failed ? "failed" : reportfmt::percent(l.after.peakUtil()), l.failed ? "-" : signedPp(after - before),
                           l.failed ? "failed" : l.turnsHot ? "yes (turns hot)" : hot ? "yes (was hot)" : "no"},
                          tone});
    }
    s.blocks.emplace_back(std::move(t));
    if (r.links.size() > kLinkRows)
        s.blocks.emplace_back(Paragraph{std::to_string(r.links.size() - kLinkRows) + " more link directions with smaller changes are "
                                                                                      "left out; fabscope whatif --json lists them all.",
                                        true});
    return s;
}

Section disconnected(const WhatIfReport& r) {
    Section s{"disconnected", "Hosts cut off", {}};
    if (r.disconnected.empty()) {
        s.blocks.emplace_back(Paragraph{"None: every host keeps a route.", false});
        return s;
    }
    Table t{"whatif_disconnected", "Hosts left without any route", {"Host"}, {false}, {}, "none"};
    for (const auto& h : r.disconnected) t.rows.push_back({{h}, Tone::Critical});
    s.blocks.emplace_back(std::move(t));
    return s;
}

Section jobs(const WhatIfReport& r) {
    Section s{"jobs", "Jobs", {}};
    Table t{"whatif_jobs",
            "Each job's worst link on its ring's routes, before and after, and its predicted slowdown",
            {"Job", "Ranks (GPUs)", "Worst p95 before (%)", "Worst p95 after (%)", "Bottleneck link after (tx -> rx)", "Slowdown (x)",
             "GPU-hours at risk (GPU h)"},
            {false, true, true, true, false, true, true},
            {},
            "No job with two or more hosts in the store: no slowdown is predicted (import a job's rank map to see one)."};
    for (const JobImpact& j : r.jobs)
        t.rows.push_back({{j.name, std::to_string(j.ranks), reportfmt::percent(j.worstBefore),
                           j.disconnected ? "cut off" : reportfmt::percent(j.worstAfter), linkText(j.bottleneck),
                           j.disconnected ? "cut off" : reportfmt::number(j.slowdown, 4), hours(j.gpuHoursAtRisk)},
                          j.disconnected ? Tone::Critical : j.slowdown > 1 ? Tone::Warning : Tone::None});
    s.blocks.emplace_back(std::move(t));
    s.blocks.emplace_back(Paragraph{
        "Slowdown = max(1, worst p95 utilisation after) / max(1, worst before) over the equal-cost routes between the job's ring "
        "neighbours: a link driven past 100 % slows what crosses it by that factor, one below 100 % not at all. GPU-hours at risk "
        "= (slowdown - 1) x ranks x the window's hours (" +
            reportfmt::number((r.windowEnd - r.windowStart) / 3600, 4) + " h).",
        false});
    return s;
}

} // namespace

ReportDocument buildWhatIfDocument(const WhatIfReport& report, const WhatIfDocumentInfo& info) {
    ReportDocument doc;
    doc.title = "What-if prediction: " + changesText(report);
    const double now = info.generatedAt > 0 ? info.generatedAt
                                            : std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    doc.meta = {{"Kind", "prediction from measured load (what-if model), not a measurement"},
                {"Routing", report.routing == "lft" ? "forwarding tables (lft)" : "ECMP (no forwarding table for every switch)"},
                {"Store", info.store},
                {"Window", reportfmt::utc(report.windowStart) + " .. " + reportfmt::utc(report.windowEnd)},
                {"Changes", changesText(report)},
                {"Generated", reportfmt::utc(now)}};
    doc.sections.push_back(prediction(report, info));
    doc.sections.push_back(changes(report));
    doc.sections.push_back(links(report, info));
    doc.sections.push_back(disconnected(report));
    doc.sections.push_back(jobs(report));
    return doc;
}

void writeWhatIfReport(const WhatIfReport& report, const WhatIfDocumentInfo& info, ReportFormat format, const std::string& path) {
    if (format != ReportFormat::Html && format != ReportFormat::Pdf)
        throw std::runtime_error(path + ": a what-if prediction is written as .html, .pdf or .json");
    writeDocument(buildWhatIfDocument(report, info), format, path);
}

} // namespace fabscope
