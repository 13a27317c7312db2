#include "core/report/document.h"

#include "core/analysis/context.h"
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"
#include "core/version.h"

#include <algorithm>

namespace fabscope {

namespace docsec {

Tone toneOf(FindingSeverity s) {
    switch (s) {
    case FindingSeverity::Critical: return Tone::Critical;
    case FindingSeverity::Warning: return Tone::Warning;
    case FindingSeverity::Info: return Tone::Info;
    }
    return Tone::None;
}

std::optional<double> metricNumber(const Finding& f, const std::string& key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key)
            if (const double* d = std::get_if<double>(&v)) return *d;
    return std::nullopt;
}

std::string metricText(const Finding& f, const std::string& key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key) return std::holds_alternative<double>(v) ? reportfmt::number(std::get<double>(v), 4) : std::get<std::string>(v);
    return {};
}

std::string portLabel(const PortRef& p) { return AnalysisContext::label(p); }

std::string linkLabel(const Finding& f, const char* arrow) {
    std::string s;
    for (const auto& p : f.ports) s += (s.empty() ? "" : std::string(" ") + arrow + " ") + portLabel(p);
    return s;
}

std::size_t countKind(const FindingsReport& r, FindingKind kind) {
    std::size_t n = 0;
    for (const auto& f : r.findings) n += f.kind == kind;
    return n;
}

} // namespace docsec

ReportDocument buildDocument(const ReportData& d) {
    ReportDocument doc;
    doc.title = "FabScope fabric report";
    doc.meta = {{"Store", d.storePath},
                {"Topology snapshot", d.snapshotLabel.empty() ? "none" : d.snapshotLabel + " (" + reportfmt::utc(d.snapshotTime) + ")"},
                {"Window", reportfmt::utc(d.findings.windowStart) + " to " + reportfmt::utc(d.findings.windowEnd) + " (" +
                               reportfmt::duration(d.findings.windowEnd - d.findings.windowStart) + ")"},
                {"Generated", reportfmt::utc(d.generatedAt) + " by FabScope " + kVersion}};
    doc.sections = {docsec::summary(d),       docsec::fabric(d),        docsec::utilisation(d),   docsec::hotLinks(d),
                    docsec::ecmpImbalance(d), docsec::degradedLinks(d), docsec::errorLinks(d),    docsec::pfcCongestion(d),
                    docsec::stragglers(d),    docsec::topologyChanges(d), docsec::findings(d),    docsec::gpuRisk(d),
                    docsec::benchmarks(d),    docsec::latency(d),       docsec::annotations(d),   docsec::methods(d)};
    // Pairwise benchmarks only for a store with two-host runs, after Benchmarks.
    if (!d.pairBenchmarks.empty()) {
        const auto at = std::find_if(doc.sections.begin(), doc.sections.end(), [](const Section& s) { return s.id == "benchmarks"; });
        doc.sections.insert(at == doc.sections.end() ? at : at + 1, docsec::pairwise(d));
    }
    // Port modules and ibdiagnet's checks only when the store has them, after the erroring links.
    if (!d.optics.empty() || !d.toolEvents.empty() || d.bitErrors.ports > 0) {
        const auto at = std::find_if(doc.sections.begin(), doc.sections.end(), [](const Section& s) { return s.id == "error_links"; });
        doc.sections.insert(at == doc.sections.end() ? at : at + 1, docsec::modules(d));
    }
    // The fabric against its cabling plan only when the store holds one, after the topology changes.
    if (d.plan) {
        const auto at = std::find_if(doc.sections.begin(), doc.sections.end(), [](const Section& s) { return s.id == "topology_changes"; });
        doc.sections.insert(at == doc.sections.end() ? at : at + 1, docsec::cablingPlan(d));
    }
    // Single points of stress only with counters and a topology, after the GPU time at risk.
    if (d.stress.evaluated) {
        const auto at = std::find_if(doc.sections.begin(), doc.sections.end(), [](const Section& s) { return s.id == "gpu_time_at_risk"; });
        doc.sections.insert(at == doc.sections.end() ? at : at + 1, docsec::stress(d));
    }
    return doc;
}

bool isCompact(const Table& t) {
    if (t.columns.size() > 5) return false;
    for (const auto& r : t.rows)
        for (const auto& c : r.cells)
            if (c.size() > 40) return false;
    return true;
}

std::vector<Table> allTables(const ReportDocument& doc) {
    std::vector<Table> out;
    for (const auto& s : doc.sections)
        for (const auto& b : s.blocks) {
            if (const auto* t = std::get_if<Table>(&b)) out.push_back(*t);
            if (const auto* fig = std::get_if<Figures>(&b)) {
                Table t{fig->id, s.title, {"item", "value"}, {false, false}, {}, ""};
                for (const auto& [k, v] : fig->items) t.rows.push_back({{k, v}, Tone::None});
                out.push_back(std::move(t));
            }
        }
    return out;
}

} // namespace fabscope
