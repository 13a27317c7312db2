// "Single points of stress" section (issue 22): each top-tier switch failed in turn with the
// what-if model (core/report/stress.h), ranked by the worst link utilisation it leaves behind,
// with the links turning hot, the hosts cut off and the jobs' predicted slowdown. Built only when
// the store has counters and a topology with a tier above the leaves (document.cpp).
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <cstdio>

namespace fabscope::docsec {
namespace {

std::string role(const ReportData& d, int tier) {
    for (const auto& t : d.fabric.tiers)
        if (t.tier == tier && !t.role.empty()) return t.role;
    return "tier " + std::to_string(tier);
}

std::string hostsCut(const std::vector<std::string>& hosts) {
    if (hosts.empty()) return "0";
    std::string s = std::to_string(hosts.size()) + ": ";
    for (std::size_t i = 0; i < hosts.size() && i < 4; ++i) s += (i ? ", " : "") + hosts[i];
    if (hosts.size() > 4) s += ", \u2026";
    return s;
}

std::string hours(double h) {
    char buf[32];
    std::snprintf(buf, sizeof buf, h > 0 && h < 0.01 ? "%.2g" : "%.2f", h);
    return buf;
}

} // namespace

Section stress(const ReportData& d) {
    Section s{"single_points_of_stress", "Single points of stress", {}};
    const StressReport& st = d.stress;
    const std::string name = role(d, st.tier);
    const std::string hot = reportfmt::number(d.config.hotLink.util * 100);
    std::string scope = st.rows.size() == st.topTierSwitches
                            ? "all " + std::to_string(st.topTierSwitches) + " top-tier switches (" + name + ")"
                            : std::to_string(st.rows.size()) + " of the " + std::to_string(st.topTierSwitches) +
                                  " top-tier switches (" + name + ")" +
                                  (st.byLoad ? ", the " + std::to_string(st.limit) +
                                                   " carrying the most p95 load (summed over their link directions); the others were not evaluated"
                                             : "");
    s.blocks.emplace_back(Paragraph{
        "Which switch can the fabric least afford to lose? Each top-tier switch is failed in turn and the load measured in the "
        "window is moved onto what remains, as fabscope whatif --fail does (the model of docs/ANALYSIS.md \"What-if\"): a failed "
        "link's p95 and peak load moves in equal shares onto its lower switch's other live links one tier up (ECMP "
        "re-spreading), down traffic likewise. Evaluated: " +
            scope +
            ". A job's predicted slowdown is max(1, worst p95 utilisation on its ring's routes after) / max(1, worst before); "
            "GPU-hours at risk = (slowdown - 1) x its GPUs (ranks) x the window's hours, summed over the jobs.",
        false});
    s.blocks.emplace_back(Paragraph{
        "A prediction from the window's measured p95, not a simulation: forwarding tables are not replayed, peaks are moved as if "
        "they coincided, and traffic is assumed to spread as the measured load does. Links turning hot reach " +
            hot + "% p95 (the hot_link threshold) after and were below it before, counted per direction.",
        true});
    Table t{"single_points_of_stress",
            "Top-tier switches failed in turn, by the worst link utilisation they leave (p95)",
            {"Switch", "Links failed", "Worst link after", "p95 before (%)", "p95 after (%)", "Turning hot (directions)", "Hosts cut off",
             "Worst job", "Job slowdown (x)", "GPU-hours at risk (GPU h)"},
            {false, true, false, true, true, true, false, false, true, true},
            {},
            "No top-tier switch was evaluated."};
    for (const SwitchStress& x : st.rows) {
        std::string link = "-", before = "-", after = "-";
        if (x.worst && x.worst->ports.size() == 2) {
            link = portLabel(x.worst->ports[0]) + " -> " + portLabel(x.worst->ports[1]);
            before = reportfmt::percent(x.worst->before.p95Util());
            after = reportfmt::percent(x.worst->after.p95Util());
        }
        std::string job = "-", slowdown = "-", risk = "-";
        if (x.worstJob) {
            job = x.worstJob->name;
            slowdown = x.worstJob->disconnected ? "cut off" : reportfmt::number(x.worstJob->slowdown, 4);
            risk = hours(x.gpuHoursAtRisk);
        }
        const double u = x.worst ? x.worst->after.p95Util() : 0;
        const Tone tone = !x.report.disconnected.empty() || u >= d.config.hotLink.criticalUtil ? Tone::Critical
                          : x.turningHot || u >= d.config.hotLink.util                        ? Tone::Warning
                                                                                              : Tone::Good;
        t.rows.push_back({{x.node, std::to_string(x.linksFailed), link, before, after, std::to_string(x.turningHot),
                           hostsCut(x.report.disconnected), job, slowdown, risk},
                          tone});
    }
    s.blocks.emplace_back(std::move(t));
    bool jobs = false;
    for (const SwitchStress& x : st.rows) jobs = jobs || x.worstJob;
    if (!st.rows.empty() && !jobs)
        s.blocks.emplace_back(Paragraph{"No job with two or more hosts in the store: no slowdown is predicted (import a job's rank "
                                        "map to see one).",
                                        true});
    return s;
}

} // namespace fabscope::docsec
