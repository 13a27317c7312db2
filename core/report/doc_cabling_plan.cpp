// The fabric against its cabling plan (an ibdm topology file or an ibsim net file): how many of
// the planned cables are in place, and each one missing, on another port than planned, not
// planned, or at another width/speed (the plan check's topology_change findings).
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <map>

namespace fabscope::docsec {

Section cablingPlan(const ReportData& d) {
    Section s{"cabling_plan", "Cabling plan", {}};
    if (!d.plan) return s;
    Table t{"cabling_plan",
            "Where the fabric differs from the cabling plan",
            {"Severity", "Change", "Cable or port", "Planned", "Found"},
            {false, false, false, false, false},
            {},
            "None: every planned cable is cabled as planned, and no cable between planned nodes is missing from the plan."};
    std::map<std::string, std::size_t> count;
    for (const auto& f : d.findings.findings) {
        if (f.kind != FindingKind::TopologyChange || metricText(f, "plan").empty()) continue;
        const std::string change = metricText(f, "change");
        ++count[change];
        std::string where = linkLabel(f, "<->"), planned, found;
        if (change == "removed") {
            planned = "cabled, " + metricText(f, "old"), found = "not cabled";
        } else if (change == "moved" && f.ports.size() >= 3) {  // ports: the port, its peer found, its peer planned
            where = portLabel(f.ports[0]);
            planned = "to " + portLabel(f.ports[2]), found = "to " + portLabel(f.ports[1]);
        } else if (change == "added") {
            planned = "not planned", found = "cabled";
        } else if (change == "width_speed") {
            planned = metricText(f, "old"), found = metricText(f, "new");
        }
        t.rows.push_back({{std::string(toString(f.severity)), change, where, planned, found}, toneOf(f.severity)});
    }
    const std::size_t missing = count["removed"], moved = count["moved"], wrongRate = count["width_speed"];
    // A moved cable is one planned cable not in place (its peer's, if also planned, shows as its own move).
    const std::size_t notInPlace = std::min(d.plan->cables, missing + moved + wrongRate);
    s.blocks.emplace_back(Paragraph{
        "Checked against the cabling plan " + d.plan->label + " (file of " + reportfmt::utc(d.plan->time) + "): " +
            std::to_string(d.plan->cables - notInPlace) + " of " + std::to_string(d.plan->cables) + " planned cables in place; " +
            std::to_string(missing) + " not cabled, " + std::to_string(moved) + " on another port than planned, " +
            std::to_string(wrongRate) + " at another width or speed, " + std::to_string(count["added"]) +
            " cabled between planned nodes but not planned.",
        false});
    s.blocks.emplace_back(std::move(t));
    return s;
}

} // namespace fabscope::docsec
