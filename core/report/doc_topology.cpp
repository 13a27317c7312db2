// Topology changes between the latest snapshot and the one before it: links added, removed,
// moved to another port, or running at another width/speed.
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

namespace fabscope::docsec {

Section topologyChanges(const ReportData& d) {
    Section s{"topology_changes", "Topology changes", {}};
    Table t{"topology_changes",
            "Links that changed between the two latest topology snapshots",
            {"Severity", "Change", "Link or port", "Before", "After", "Capacity change (Gb/s)"},
            {false, false, false, false, false, true},
            {},
            "None in this window: the latest topology snapshot has the same links as the one before it (or the store holds only one)."};
    double before = 0, after = 0;
    for (const auto& f : d.findings.findings) {
        if (f.kind != FindingKind::TopologyChange || !metricText(f, "plan").empty()) continue;  // a plan's: its own section
        before = f.start, after = f.end;
        const std::string change = metricText(f, "change");
        std::string link = linkLabel(f, "<->"), was, now, capacity;
        if (change == "width_speed") {
            was = metricText(f, "old"), now = metricText(f, "new"), capacity = metricText(f, "capacity_change_gbps");
        } else if (change == "moved" && f.ports.size() >= 3) {
            // ports: the port that kept its cable, its new peer, its old peer.
            link = portLabel(f.ports[0]);
            was = "cabled to " + portLabel(f.ports[2]);
            now = "cabled to " + portLabel(f.ports[1]);
        } else if (change == "added") {
            was = "not cabled", now = "cabled";
        } else if (change == "removed") {
            was = "cabled, " + metricText(f, "old"), now = "not cabled";
        }
        t.rows.push_back({{std::string(toString(f.severity)), change, link, was, now, capacity}, toneOf(f.severity)});
    }
    if (!t.rows.empty())
        s.blocks.emplace_back(Paragraph{std::to_string(t.rows.size()) + (t.rows.size() == 1 ? " change" : " changes") +
                                            " between the topology snapshot of " + reportfmt::utc(before) + " and that of " +
                                            reportfmt::utc(after) + ".",
                                        false});
    s.blocks.emplace_back(std::move(t));
    return s;
}

} // namespace fabscope::docsec
