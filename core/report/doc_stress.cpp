// "Single points of stress" section (issue 22): each top-tier switch failed in turn with the
// what-if model (core/report/stress.h), and each leaf's most loaded uplink (a second table), ranked
// by the worst link utilisation it leaves behind, with the links turning hot, the hosts cut off and
// the jobs' predicted slowdown. Built only when the store has counters and a topology with a tier
// above the leaves (document.cpp).
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

// The columns both tables share, from the worst link after on.
void outcome(const ReportData& d, const SwitchStress& x, TableRow& row) {
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
    row.tone = !x.report.disconnected.empty() || u >= d.config.hotLink.criticalUtil ? Tone::Critical
               : x.turningHot || u >= d.config.hotLink.util                        ? Tone::Warning
                                                                                   : Tone::Good;
    row.cells.insert(row.cells.end(), {link, before, after, std::to_string(x.turningHot), hostsCut(x.report.disconnected), job, slowdown, risk});
}

const std::vector<std::string> kOutcomeColumns{"Worst link after", "p95 before (%)", "p95 after (%)", "Turning hot (directions)", "Hosts cut off",
                                               "Worst job", "Job slowdown (x)", "GPU-hours at risk (GPU h)"};
const std::vector<bool> kOutcomeNumeric{false, true, true, true, false, false, true, true};

std::string leafScope(const StressReport& st) {
    const std::string n = std::to_string(st.uplinkGroups);
    if (st.uplinkRows.size() == st.uplinkGroups) return "all " + n + " leaves with uplinks";
    return std::to_string(st.uplinkRows.size()) + " of the " + n + " leaves with uplinks" +
           (st.uplinksByLoad ? ", those whose uplinks carry the most p95 load (summed over both directions); the others were not evaluated" : "");
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
        "Which switch or uplink can the fabric least afford to lose? Each top-tier switch is failed in turn, and each leaf's "
        "uplink group loses one uplink (its most loaded, by p95 summed over both directions); the load measured in the "
        "window is moved onto what remains, as fabscope whatif --fail does (the model of docs/ANALYSIS.md \"What-if\"): with a "
        "forwarding table for every switch it is re-routed along the tables, else a failed link's p95 and peak load moves in "
        "equal shares onto its lower switch's other live links one tier up (ECMP re-spreading), down traffic likewise. "
        "Evaluated: " +
            scope + "; " + leafScope(st) +
            ". A job's predicted slowdown is max(1, worst p95 utilisation on its ring's routes after) / max(1, worst before); "
            "GPU-hours at risk = (slowdown - 1) x its GPUs (ranks) x the window's hours, summed over the jobs.",
        false});
    const bool lft = (!st.rows.empty() && st.rows.front().report.routing == "lft") ||
                     (!st.uplinkRows.empty() && st.uplinkRows.front().report.routing == "lft");
    s.blocks.emplace_back(Paragraph{
        std::string("A prediction from the window's measured p95, not a simulation: ") +
            (lft ? "the load was re-routed with the imported forwarding tables (every destination LID assumed to carry the same "
                   "load)"
                 : "forwarding tables are not replayed (none imported, or not for every switch)") +
            ", peaks are moved as if they coincided, and traffic is assumed to spread as the measured load does. Links turning hot reach " +
            hot + "% p95 (the hot_link threshold) after and were below it before, counted per direction.",
        true});
    Table t{"single_points_of_stress",
            "Top-tier switches failed in turn, by the worst link utilisation they leave (p95)",
            {"Switch", "Links failed"},
            {false, true},
            {},
            "No top-tier switch was evaluated."};
    t.columns.insert(t.columns.end(), kOutcomeColumns.begin(), kOutcomeColumns.end());
    t.numeric.insert(t.numeric.end(), kOutcomeNumeric.begin(), kOutcomeNumeric.end());
    for (const SwitchStress& x : st.rows) {
        TableRow row{{x.node, std::to_string(x.linksFailed)}, Tone::None};
        outcome(d, x, row);
        t.rows.push_back(std::move(row));
    }
    s.blocks.emplace_back(std::move(t));

    Table u{"single_points_of_stress_uplinks",
            "Leaf uplink groups, each losing its most loaded uplink, by the worst link utilisation they leave (p95)",
            {"Leaf", "Uplinks", "Uplink failed (tx -> rx)", "Its p95 up (%)"},
            {false, true, false, true},
            {},
            "No leaf uplink group was evaluated."};
    u.columns.insert(u.columns.end(), kOutcomeColumns.begin(), kOutcomeColumns.end());
    u.numeric.insert(u.numeric.end(), kOutcomeNumeric.begin(), kOutcomeNumeric.end());
    for (const SwitchStress& x : st.uplinkRows) {
        const bool known = x.failedUplink && x.failedUplink->ports.size() == 2;
        TableRow row{{x.node, std::to_string(x.uplinks),
                      known ? portLabel(x.failedUplink->ports[0]) + " -> " + portLabel(x.failedUplink->ports[1]) : x.node + " " + x.port,
                      known ? reportfmt::percent(x.failedUplink->before.p95Util()) : "-"},
                     Tone::None};
        outcome(d, x, row);
        u.rows.push_back(std::move(row));
    }
    s.blocks.emplace_back(std::move(u));

    bool jobs = false;
    for (const SwitchStress& x : st.rows) jobs = jobs || x.worstJob;
    for (const SwitchStress& x : st.uplinkRows) jobs = jobs || x.worstJob;
    if ((!st.rows.empty() || !st.uplinkRows.empty()) && !jobs)
        s.blocks.emplace_back(Paragraph{"No job with two or more hosts in the store: no slowdown is predicted (import a job's rank "
                                        "map to see one).",
                                        true});
    return s;
}

} // namespace fabscope::docsec
