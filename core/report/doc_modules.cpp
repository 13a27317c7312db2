// Port modules and the tools' own checks: the optics and cables to look at (near their
// temperature alarm, receive lanes far apart, flags set), how many ports' bit error rates were
// read and how many are above the threshold, and what ibdiagnet and ibswinfo themselves reported.
// Only in a report of a store holding any (ibdiagnet2.cables, .net_dump_ext, db_csv
// WARNINGS_/ERRORS_, ibswinfo).
#include "core/analysis/optic_evidence.h"
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <map>

namespace fabscope::docsec {
namespace {

std::string optional(const std::optional<double>& v) { return v ? reportfmt::number(*v) : std::string(); }

std::string identity(const PortOptics& o) {
    std::string s;
    for (const std::string* part : {&o.vendor, &o.partNumber, &o.serial})
        if (!part->empty()) s += (s.empty() ? "" : " ") + *part;
    return s;
}

// "RS_FEC_544_514 on 312 ports, MLNX_RS_271_257_PLR on 198"; "none read".
std::string fecModes(const std::map<std::string, std::size_t>& modes) {
    std::vector<std::pair<std::size_t, std::string>> byCount;
    for (const auto& [mode, n] : modes) byCount.emplace_back(n, mode);
    std::sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string s;
    for (const auto& [n, mode] : byCount) s += (s.empty() ? "" : ", ") + mode + " on " + std::to_string(n) + (s.empty() ? " ports" : "");
    return s.empty() ? "none read" : s;
}

} // namespace

Section modules(const ReportData& d) {
    Section s{"port_modules", "Port modules and the diagnostic tools' checks", {}};
    const OpticsConfig& cfg = d.config.optics;
    std::size_t sensed = 0, near = 0, apart = 0, flagged = 0;
    Table t{"port_modules",
            "Modules to look at: near their temperature alarm, receive lanes far apart, or flags set (flagged first; ports without a link last)",
            {"Port", "Link", "Module (vendor, part, serial)", "Temperature (°C)", "Alarm (°C)", "Weakest RX lane (dBm)",
             "RX lane spread (dB)", "Flags"},
            {false, false, false, true, true, true, true, false},
            {},
            "None: every module read is more than " + reportfmt::number(cfg.temperatureMarginC) + " °C below its alarm, has receive lanes within " +
                reportfmt::number(cfg.rxLaneSpreadDb) + " dB of each other and no flag set."};
    std::vector<std::pair<int, TableRow>> rows;  // (order, row): flagged, then near the alarm, then lanes apart
    for (const auto& [where, onLink, o] : d.optics) {
        sensed += o.temperatureC.has_value();
        const OpticConcerns c = opticConcerns(o, cfg);
        near += c.nearAlarm;
        apart += c.lanesApart;
        flagged += c.flagged;
        if (!c.any()) continue;
        std::string flags;
        for (const auto& f : o.alarms) flags += (flags.empty() ? "" : "; ") + f;
        const auto lo = o.rxMinDbm(), hi = o.rxMaxDbm();
        // A port without a link: its module sees no light, so loss-of-lock flags are expected there.
        rows.push_back({onLink ? (c.flagged ? 0 : c.nearAlarm ? 1 : 2) : 3,
                        {{where, onLink ? "up" : "none in the snapshot", identity(o), optional(o.temperatureC),
                          optional(o.temperatureAlarmC), optional(lo), lo && hi ? reportfmt::number(*hi - *lo) : std::string(), flags},
                         onLink && (c.flagged || c.nearAlarm) ? Tone::Warning : Tone::Info}});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [order, row] : rows) t.rows.push_back(std::move(row));

    std::size_t errors = 0;
    for (const auto& [where, e] : d.toolEvents) errors += e.error;
    s.blocks.emplace_back(Figures{"port_modules_summary",
                                  {{"Modules read (ibdiagnet2.cables)", std::to_string(d.optics.size())},
                                   {"With a temperature sensor", std::to_string(sensed)},
                                   {"Near their temperature alarm", std::to_string(near)},
                                   {"Receive lanes far apart", std::to_string(apart)},
                                   {"With flags set", std::to_string(flagged)},
                                   {"Ports with bit error rates read (ibdiagnet2.net_dump_ext)", std::to_string(d.bitErrors.withRates)},
                                   {"Above the bit error rate threshold (in Erroring links)", std::to_string(d.bitErrors.above)},
                                   {"FEC modes in use", fecModes(d.bitErrors.fecModes)},
                                   {"Tool warnings (ibdiagnet, ibswinfo)", std::to_string(d.toolEvents.size() - errors)},
                                   {"Tool errors (ibdiagnet, ibswinfo)", std::to_string(errors)}},
                                  {Tone::None, Tone::None, near ? Tone::Warning : Tone::Good, apart ? Tone::Info : Tone::Good,
                                   flagged ? Tone::Warning : Tone::Good, Tone::None, d.bitErrors.above ? Tone::Critical : Tone::Good,
                                   Tone::None, Tone::None, errors ? Tone::Critical : Tone::Good}});
    s.blocks.emplace_back(Paragraph{"ibdiagnet reads the modules once, when it runs: the temperatures are that moment's. Passive "
                                    "copper cables have no sensor and report nothing to judge.",
                                    true});
    s.blocks.emplace_back(std::move(t));

    Table checks{"ibdiagnet_checks",
                 "What the tools themselves reported (ibdiagnet's db_csv WARNINGS_ and ERRORS_ sections, ibswinfo's power "
                 "supplies and fans not OK), errors first",
                 {"Tool", "Severity", "Check", "Event", "Node or port", "Summary"},
                 {false, false, false, false, false, false},
                 {},
                 "No tool reported a warning or error for this snapshot (or no db_csv or ibswinfo output was imported)."};
    for (const bool wantError : {true, false})
        for (const auto& [where, e] : d.toolEvents)
            if (e.error == wantError)
                checks.rows.push_back({{e.tool, e.error ? "error" : "warning", e.check, e.name, where, e.summary},
                                       e.error ? Tone::Critical : Tone::Warning});
    s.blocks.emplace_back(std::move(checks));
    return s;
}

} // namespace fabscope::docsec
