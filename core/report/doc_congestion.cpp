// PFC storms and congestion trees: where the pauses or the XmitWait started (origin / root) and
// how far they spread, as levels of ports upstream of it.
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <map>

namespace fabscope::docsec {
namespace {

// Level of each port of a finding (origin 0, each hop upstream +1), read from its spread edges.
// Edges name ports by label; they are matched against the finding's own ports rather than split
// on the arrow, since a node description may itself contain " -> ".
std::map<std::size_t, int> levels(const Finding& f, bool pfc) {
    std::map<std::size_t, int> level{{0, 0}};
    const std::string spread = metricText(f, "spread");
    std::vector<std::string> edges;
    for (std::size_t at = 0; at <= spread.size();) {
        const std::size_t semi = spread.find("; ", at);
        edges.push_back(spread.substr(at, semi == std::string::npos ? std::string::npos : semi - at));
        if (semi == std::string::npos) break;
        at = semi + 2;
    }
    // Congestion: "upstream -> downstream". PFC: "X paused by P (s%) -> Q pauses (s%)", Q one level above P.
    for (std::size_t pass = 0; pass < f.ports.size(); ++pass)
        for (const auto& e : edges)
            for (const auto& [known, lv] : std::map<std::size_t, int>(level))
                for (std::size_t j = 0; j < f.ports.size(); ++j) {
                    if (level.count(j)) continue;
                    const std::string a = portLabel(f.ports[known]), b = portLabel(f.ports[j]);
                    // PFC edges carry each hop's pause share: "X paused by A (95%) -> B pauses (70%)".
                    const auto by = e.find(" paused by " + a + " (");
                    const bool match = pfc ? by != std::string::npos && e.find("%) -> " + b + " pauses (", by) != std::string::npos &&
                                                 e.ends_with("%)")
                                           : e == b + " -> " + a;
                    if (match) level[j] = lv + 1;
                }
    return level;
}

// "level 1: spine01 p2; level 2: leaf01 p9".
std::string spreadText(const Finding& f, const std::map<std::size_t, int>& level) {
    std::map<int, std::string> byLevel;
    for (const auto& [i, lv] : level)
        if (lv > 0) byLevel[lv] += (byLevel[lv].empty() ? "" : ", ") + portLabel(f.ports[i]);
    std::string out;
    for (const auto& [lv, ports] : byLevel) out += (out.empty() ? "" : "; ") + ("level " + std::to_string(lv) + ": " + ports);
    return out.empty() ? "origin only" : out;
}

int maxLevel(const std::map<std::size_t, int>& level) {
    int m = 0;
    for (const auto& [i, lv] : level) m = std::max(m, lv);
    return m;
}

Table spreadTable(const char* id, const char* caption) {
    return Table{id, caption, {"Finding", "Level (hops upstream)", "Port"}, {false, true, false}, {}, "None in this window."};
}

void addSpreadRows(Table& t, const Finding& f, const std::map<std::size_t, int>& level) {
    for (const auto& [i, lv] : level) t.rows.push_back({{f.id, std::to_string(lv), portLabel(f.ports[i])}, toneOf(f.severity)});
}

} // namespace

Section pfcCongestion(const ReportData& d) {
    Section s{"pfc_congestion", "PFC storms and congestion trees", {}};
    s.blocks.emplace_back(Paragraph{
        "A PFC storm is a port sending pause frames for at least " + reportfmt::number(d.config.pfcStorm.share * 100) +
            "% of an interval over " + std::to_string(d.config.pfcStorm.minSamples) +
            " or more intervals; its origin sends pauses without receiving any (typically a NIC that stopped draining). A "
            "congestion tree joins InfiniBand ports whose PortXmitWait covers at least " +
            reportfmt::number(d.config.congestionTree.share * 100) + "% of the interval; its root is the port that feeds no "
            "other congested port. Level 0 is the origin or root; level n is n hops upstream.",
        false});

    Table pfc{"pfc_storms",
              "PFC storms: origin and spread",
              {"Severity", "Finding", "Origin", "Paused mean (%)", "Paused peak (%)", "Priority", "Ports reached", "Levels",
               "Spread", "From", "Duration (s)"},
              {false, false, false, true, true, false, true, true, false, false, true},
              {},
              "None in this window: no port sent pauses for a storm's share of time."};
    Table pfcSpread = spreadTable("pfc_storm_spread", "PFC storms: every port the pauses reached, by level");
    Table tree{"congestion_trees",
               "Congestion trees: root and spread",
               {"Severity", "Finding", "Root -> receiver", "Root wait mean (%)", "Root wait peak (%)", "Ports in tree", "Levels",
                "Lost at root, est. (Gb/s)", "Spread", "From", "Duration (s)"},
               {false, false, false, true, true, true, true, true, false, false, true},
               {},
               "None in this window: no port's XmitWait reached the congestion share."};
    Table treeSpread = spreadTable("congestion_tree_spread", "Congestion trees: every congested port, by level");

    for (const auto& f : d.findings.findings) {
        if (f.kind == FindingKind::PfcStorm) {
            if (!f.origin) {  // a pause cycle: no origin, no levels
                std::string ports;
                for (const auto& p : f.ports) ports += (ports.empty() ? "" : ", ") + portLabel(p);
                pfc.rows.push_back({{std::string(toString(f.severity)), f.id, "none: pause cycle (deadlock risk)", "",
                                     reportfmt::percent(metricNumber(f, "peak_pause_share").value_or(0)), "",
                                     std::to_string(f.ports.size()), "", ports, reportfmt::utc(f.start),
                                     reportfmt::number(f.end - f.start, 9)},
                                    toneOf(f.severity)});
                continue;
            }
            const auto level = levels(f, true);
            pfc.rows.push_back({{std::string(toString(f.severity)), f.id, portLabel(*f.origin),
                                 reportfmt::percent(metricNumber(f, "origin_pause_share").value_or(0)),
                                 reportfmt::percent(metricNumber(f, "origin_peak_pause_share").value_or(0)), metricText(f, "priorities"),
                                 std::to_string(f.ports.size() - 1), std::to_string(maxLevel(level)), spreadText(f, level),
                                 reportfmt::utc(f.start), reportfmt::number(f.end - f.start, 9)},
                                toneOf(f.severity)});
            addSpreadRows(pfcSpread, f, level);
        } else if (f.kind == FindingKind::CongestionTree && f.ports.size() >= 2) {
            // ports: root, the receiver it sends to, then the congested ports upstream. The
            // receiver is not part of the tree: level it out before reading the spread.
            Finding tree0 = f;
            tree0.ports.erase(tree0.ports.begin() + 1);
            const auto level = levels(tree0, false);
            tree.rows.push_back({{std::string(toString(f.severity)), f.id, portLabel(f.ports[0]) + " -> " + portLabel(f.ports[1]),
                                  reportfmt::percent(metricNumber(f, "root_wait_share").value_or(0)),
                                  reportfmt::percent(metricNumber(f, "root_peak_wait_share").value_or(0)), metricText(f, "tree_ports"),
                                  std::to_string(maxLevel(level)), metricText(f, "root_lost_gbps_est"), spreadText(tree0, level),
                                  reportfmt::utc(f.start), reportfmt::number(f.end - f.start, 9)},
                                 toneOf(f.severity)});
            addSpreadRows(treeSpread, tree0, level);
        }
    }
    const bool anyPfc = !pfc.rows.empty(), anyTree = !tree.rows.empty();
    s.blocks.emplace_back(std::move(pfc));
    if (anyPfc) s.blocks.emplace_back(std::move(pfcSpread));
    s.blocks.emplace_back(std::move(tree));
    if (anyTree) s.blocks.emplace_back(std::move(treeSpread));
    return s;
}

} // namespace fabscope::docsec
