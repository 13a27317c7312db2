// The comparison report as a document (compare_document.h): What changed, the fabric, each kind's
// changes, the sides. Values keep the units their key names carry ("util_p95_pct" reads
// "util p95: 42.1 %"); times read in UTC with the date.
#include "core/report/compare_document.h"

#include "core/report/text_format.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

namespace fabscope {
namespace {

constexpr std::size_t kTopRows = 50;     // rows of What changed; all of them are in the kind tables
constexpr std::size_t kMaxKeyColumns = 5;  // per kind table: more keys are written as text

struct UnitSuffix {
    const char* suffix;
    const char* unit;
};
// Longest first where one ends another ("_per_s" before "_s").
constexpr std::array<UnitSuffix, 16> kUnits{{{"_percent", "%"},
                                            {"_pct", "%"},
                                            {"_gbps", "Gb/s"},
                                            {"_mbps", "Mb/s"},
                                            {"_gbs", "GB/s"},
                                            {"_bps", "b/s"},
                                            {"_per_s", "/s"},
                                            {"_per_min", "/min"},
                                            {"_per_h", "/h"},
                                            {"_us", "\u00b5s"},
                                            {"_ms", "ms"},
                                            {"_seconds", "s"},
                                            {"_s", "s"},
                                            {"_bytes", "B"},
                                            {"_gb", "GB"},
                                            {"_x", "x"}}};

bool isTimeKey(const std::string& k) {
    return k == "time" || k == "start" || k == "end" || k.ends_with("_time") || k.ends_with("_utc") || k.ends_with("_at") ||
           k.ends_with("_start") || k.ends_with("_end");
}

struct KeyLabel {
    std::string name, unit;  // "p95 util", "%"
    bool time = false;
    bool fraction = false;   // 0..1 in the value, written as %
};

KeyLabel labelOf(const std::string& key) {
    KeyLabel l;
    std::string base = key;
    if (isTimeKey(key)) {
        l.time = true;
        l.unit = "UTC";
    } else if (key.ends_with("_util") || key.ends_with("_share") || key.ends_with("_fraction")) {
        l.fraction = true;  // utilisation and shares are fractions in the compare JSON
        l.unit = "%";
    } else if (key == "seconds") {
        l.unit = "s";
    } else {
        for (const auto& u : kUnits) {
            const std::string s = u.suffix;
            if (base.size() > s.size() && base.ends_with(s)) {
                base.resize(base.size() - s.size());
                l.unit = u.unit;
                break;
            }
        }
    }
    std::replace(base.begin(), base.end(), '_', ' ');
    l.name = base;
    return l;
}

bool noData(const ChangeValues& v) {
    return v.size() == 1 && v[0].first == "data" && std::holds_alternative<std::string>(v[0].second) &&
           std::get<std::string>(v[0].second) == "none";
}

// One value without its name: "42.1 %", "2023-11-14 22:13:20 UTC", "down".
std::string valueOnly(const KeyLabel& l, const MetricValue& v) {
    if (const auto* s = std::get_if<std::string>(&v)) return *s;
    const double x = std::get<double>(v);
    if (l.time && x > 1e8) return reportfmt::utc(x);
    return reportfmt::number(l.fraction ? x * 100 : x, 3) + (l.unit.empty() ? "" : " " + l.unit);
}

const MetricValue* find(const ChangeValues& values, const std::string& key) {
    for (const auto& [k, v] : values)
        if (k == key) return &v;
    return nullptr;
}

// "p95 util: 93 %; hot: 120 s". With `other` (the other side), the values both sides give alike
// are left out unless nothing differs: the table says what changed, the kind tables say it all.
std::string valuesText(const ChangeValues& values, const ChangeValues* other = nullptr) {
    if (values.empty()) return "-";
    if (noData(values)) return "no data";
    const auto same = [&](const std::string& k, const MetricValue& v) {
        const MetricValue* o = other ? find(*other, k) : nullptr;
        return o && *o == v;
    };
    const bool anyDiffers = std::any_of(values.begin(), values.end(), [&](const auto& kv) { return !same(kv.first, kv.second); });
    std::string out;
    for (const auto& [k, v] : values) {
        if (anyDiffers && same(k, v)) continue;
        const KeyLabel l = labelOf(k);
        out += (out.empty() ? "" : "; ") + l.name + ": " + valueOnly(l, v);
    }
    return out;
}

std::string portText(const PortRef& p) {
    const bool number = !p.port.empty() && p.port.find_first_not_of("0123456789") == std::string::npos;
    return p.node + (number ? " p" : " ") + p.port;
}

std::string whereText(const Change& c) {
    std::string out;
    for (std::size_t i = 0; i < c.ports.size(); ++i) out += (i ? " \u2192 " : "") + portText(c.ports[i]);
    if (!c.hosts.empty()) {
        std::string hosts;
        for (const auto& h : c.hosts) hosts += (hosts.empty() ? "" : ", ") + h;
        out += (out.empty() ? "hosts " : "; hosts ") + hosts;
    }
    return out.empty() ? "-" : out;
}

Tone toneOfScore(double s) { return s >= 70 ? Tone::Critical : s >= 40 ? Tone::Warning : Tone::None; }

std::string score(double s) { return reportfmt::number(std::round(s * 10) / 10, 3); }

std::string kindMeaning(ChangeKind k) {
    switch (k) {
    case ChangeKind::Topology: return "a link added, removed, or running at another width, speed or state";
    case ChangeKind::Routes: return "the forwarding tables send traffic another way";
    case ChangeKind::Load: return "a link carries more or less traffic";
    case ChangeKind::Errors: return "a link's error counters rose or fell";
    case ChangeKind::Pauses: return "a port was paused (PFC) more or less";
    case ChangeKind::Congestion: return "a port waited to transmit (congestion) more or less";
    case ChangeKind::Job: return "a job's hosts, ranks or placement differ";
    case ChangeKind::Benchmark: return "a benchmark between the same hosts gave another figure";
    case ChangeKind::Probe: return "probes between the same hosts gave other latency or loss";
    }
    return "";
}

constexpr std::array<ChangeKind, 9> kKinds{ChangeKind::Topology, ChangeKind::Routes,      ChangeKind::Load,
                                           ChangeKind::Errors,   ChangeKind::Pauses,     ChangeKind::Congestion,
                                           ChangeKind::Job,      ChangeKind::Benchmark,  ChangeKind::Probe};

std::string sideLine(const CompareSide& s) {
    return s.store + ", " + reportfmt::utc(s.start) + " .. " + reportfmt::utc(s.end);
}

Section whatChanged(const CompareReport& r) {
    Section s{"what-changed", "What changed", {}};
    const auto& ch = r.changes;
    if (ch.empty()) {
        s.blocks.emplace_back(Paragraph{"No change between the good and the bad side: the topology, routes, load, errors, pauses, "
                                        "congestion, jobs, benchmarks and probes compared alike.",
                                        false});
        return s;
    }
    std::map<ChangeKind, std::size_t> perKind;
    std::size_t links = 0;
    for (const auto& c : ch) {
        ++perKind[c.kind];
        links += c.ports.size() >= 2;
    }
    std::string kinds;
    for (ChangeKind k : kKinds)
        if (perKind.count(k)) kinds += (kinds.empty() ? "" : ", ") + std::string(toString(k)) + " " + std::to_string(perKind[k]);
    s.blocks.emplace_back(Paragraph{std::to_string(ch.size()) + (ch.size() == 1 ? " change" : " changes") +
                                        " from the good side to the bad side, ranked by their likely impact on a job (score 0-100, "
                                        "highest first). The first: " + ch.front().summary,
                                    false});
    Figures fig{"compare_summary", {}, {}};
    fig.items = {{"Changes", std::to_string(ch.size())},
                 {"Highest score (0-100)", score(ch.front().score)},
                 {"Links changed", std::to_string(links)},
                 {"By kind", kinds}};
    fig.tones = {Tone::None, toneOfScore(ch.front().score), Tone::None, Tone::None};
    s.blocks.emplace_back(std::move(fig));

    Table t{"what_changed",
            "Changes by likely impact on a job, highest first",
            {"Rank", "Kind", "Where", "Good", "Bad", "Score (0-100)", "Summary"},
            {true, false, false, false, false, true, false},
            {},
            "none"};
    for (std::size_t i = 0; i < ch.size() && i < kTopRows; ++i) {
        const Change& c = ch[i];
        t.rows.push_back({{std::to_string(i + 1), std::string(toString(c.kind)), whereText(c), valuesText(c.good, &c.bad),
                           valuesText(c.bad, &c.good), score(c.score), c.summary},
                          toneOfScore(c.score)});
    }
    s.blocks.emplace_back(std::move(t));
    if (ch.size() > kTopRows)
        s.blocks.emplace_back(Paragraph{std::to_string(ch.size() - kTopRows) + " more changes, ranked " + std::to_string(kTopRows + 1) +
                                            " and below, are in Changes by kind.",
                                        true});
    return s;
}

Section fabricSection(const CompareReport& r, const CompareFabrics& f) {
    Section s{"fabric", "Fabric, changed links marked", {}};
    if (!f.bad && !f.good) {
        s.blocks.emplace_back(Paragraph{"Neither side has a topology snapshot: there is no fabric to draw. The changes are in the table above.",
                                        true});
        return s;
    }
    if (!f.bad)
        s.blocks.emplace_back(Paragraph{"The bad side has no topology snapshot: the good side's fabric is drawn.", true});
    s.blocks.emplace_back(compareFabricDiagram(r, f));
    return s;
}

// One kind's changes with a column per value key (its unit in the header), each cell
// "good -> bad" or one value when both sides agree; as text when the kind has many keys.
Table kindTable(ChangeKind kind, const CompareReport& r) {
    std::vector<std::string> keys;
    for (const auto& c : r.changes) {
        if (c.kind != kind) continue;
        for (const auto* side : {&c.good, &c.bad}) {
            if (noData(*side)) continue;
            for (const auto& [k, v] : *side)
                if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
        }
    }
    const bool columns = keys.size() <= kMaxKeyColumns;
    Table t{"changes_" + std::string(toString(kind)),
            "Changes of kind " + std::string(toString(kind)) + " (" + kindMeaning(kind) + ")" + (columns ? "; a cell reads good \u2192 bad" : ""),
            {"Rank", "Where"},
            {true, false},
            {},
            "none"};
    if (columns) {
        for (const auto& k : keys) {
            const KeyLabel l = labelOf(k);
            t.columns.push_back(l.name + (l.unit.empty() ? "" : " (" + l.unit + ")"));
            t.numeric.push_back(false);
        }
    } else {
        t.columns.insert(t.columns.end(), {"Good", "Bad"});
        t.numeric.insert(t.numeric.end(), {false, false});
    }
    t.columns.push_back("Score (0-100)");
    t.numeric.push_back(true);
    const auto cell = [](const ChangeValues& side, const std::string& k) -> std::string {
        if (noData(side)) return "no data";
        const MetricValue* v = find(side, k);
        if (!v) return "-";
        const KeyLabel l = labelOf(k);
        if (const auto* x = std::get_if<double>(v); x && !l.time) return reportfmt::number(*x * (l.fraction ? 100 : 1), 3);
        return valueOnly(l, *v);
    };
    for (std::size_t i = 0; i < r.changes.size(); ++i) {
        const Change& c = r.changes[i];
        if (c.kind != kind) continue;
        TableRow row{{std::to_string(i + 1), whereText(c)}, toneOfScore(c.score)};
        if (columns) {
            for (const auto& k : keys) {
                const std::string g = cell(c.good, k), b = cell(c.bad, k);
                row.cells.push_back(g == b ? g : g + " \u2192 " + b);
            }
        } else {
            row.cells.push_back(valuesText(c.good));
            row.cells.push_back(valuesText(c.bad));
        }
        row.cells.push_back(score(c.score));
        t.rows.push_back(std::move(row));
    }
    return t;
}

Section byKind(const CompareReport& r) {
    Section s{"by-kind", "Changes by kind", {}};
    Table summary{"changes_by_kind", "Changes per kind", {"Kind", "Changes", "Highest score (0-100)", "Meaning"},
                  {false, true, true, false}, {}, "none"};
    for (ChangeKind k : kKinds) {
        std::size_t n = 0;
        double best = 0;
        for (const auto& c : r.changes)
            if (c.kind == k) ++n, best = std::max(best, c.score);
        summary.rows.push_back({{std::string(toString(k)), std::to_string(n), n ? score(best) : "-", kindMeaning(k)},
                                n ? toneOfScore(best) : Tone::None});
    }
    s.blocks.emplace_back(std::move(summary));
    for (ChangeKind k : kKinds)
        if (std::any_of(r.changes.begin(), r.changes.end(), [&](const Change& c) { return c.kind == k; }))
            s.blocks.emplace_back(kindTable(k, r));
    s.blocks.emplace_back(Paragraph{"Units are in the column headers; \"no data\" means the side has no data for the link or host "
                                    "(never read as zero); \"-\" means the side does not give that value.",
                                    false});
    return s;
}

Section sides(const CompareReport& r) {
    Section s{"sides", "Sides", {}};
    Table t{"compare_sides",
            "The two sides compared",
            {"Side", "Store", "Window start (UTC)", "Window end (UTC)", "Length", "Snapshot", "Snapshot time (UTC)"},
            {false, false, false, false, false, false, false},
            {},
            ""};
    for (const auto* side : {&r.good, &r.bad}) {
        const bool none = side->snapshot.empty();
        t.rows.push_back({{side == &r.good ? "good" : "bad", side->store, reportfmt::utc(side->start), reportfmt::utc(side->end),
                           reportfmt::duration(side->end - side->start), none ? "none (no topology)" : side->snapshot,
                           none ? "-" : reportfmt::utc(side->snapshotTime)}});
    }
    s.blocks.emplace_back(std::move(t));
    std::string text = "Each side is read with the topology snapshot in force at its window's end; a link or host with data on one "
                       "side only is reported as such, never as zero.";
    if (r.good.store == r.bad.store) text += " Both sides are windows of one store.";
    const double goodLen = r.good.end - r.good.start, badLen = r.bad.end - r.bad.start;
    if (goodLen > 0 && badLen > 0 && std::max(goodLen, badLen) > 2 * std::min(goodLen, badLen))
        text += " The windows differ in length by more than 2x: rates and shares compare, totals do not.";
    s.blocks.emplace_back(Paragraph{text, false});
    return s;
}

} // namespace

ReportDocument buildCompareDocument(const CompareReport& report, const CompareFabrics& fabrics) {
    ReportDocument doc;
    doc.title = "FabScope comparison: what changed from the good run to the bad run";
    const double now =
        static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
    doc.meta = {{"Good", sideLine(report.good)},
                {"Bad", sideLine(report.bad)},
                {"Changes", std::to_string(report.changes.size())},
                {"Generated", reportfmt::utc(now)}};
    doc.sections.push_back(whatChanged(report));
    doc.sections.push_back(fabricSection(report, fabrics));
    if (!report.changes.empty()) doc.sections.push_back(byKind(report));
    doc.sections.push_back(sides(report));
    return doc;
}

void writeCompareReport(const CompareReport& report, const CompareFabrics& fabrics, ReportFormat format, const std::string& path) {
    if (format != ReportFormat::Html && format != ReportFormat::Pdf)
        throw std::runtime_error(path + ": a comparison report is written as .html, .pdf or .json");
    writeDocument(buildCompareDocument(report, fabrics), format, path);
}

} // namespace fabscope
