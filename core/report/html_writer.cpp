#include "core/report/html_writer.h"

#include "core/report/escape.h"

#include <sstream>

namespace fabscope {
namespace {

constexpr const char* kCss = R"css(
:root { --ink: #1d2329; --muted: #5b6670; --rule: #d5dbe0; --crit: #b3261e; --warn: #b06000; --good: #1e7b34; --info: #2a5db0; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: var(--ink); margin: 0 auto; max-width: 1120px;
       padding: 28px 32px 48px; font-size: 13px; line-height: 1.45; background: #fff; }
header { border-bottom: 3px solid var(--ink); padding-bottom: 10px; margin-bottom: 18px; }
h1 { font-size: 24px; margin: 0 0 8px; }
h2 { font-size: 17px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--rule); break-after: avoid; }
table.meta { border-collapse: collapse; font-size: 12px; }
table.meta th { text-align: left; color: var(--muted); font-weight: normal; padding: 1px 14px 1px 0; }
table.meta td { padding: 1px 0; word-break: break-all; }
nav { font-size: 12px; color: var(--muted); margin: 8px 0 0; }
nav a { color: var(--info); text-decoration: none; margin-right: 12px; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 8px; margin: 8px 0 14px; }
.figure { border: 1px solid var(--rule); border-left: 4px solid var(--rule); border-radius: 3px; padding: 6px 10px; break-inside: avoid; }
.figure .label { color: var(--muted); font-size: 11px; }
.figure .value { font-size: 15px; font-weight: bold; }
.figure.critical { border-left-color: var(--crit); } .figure.warning { border-left-color: var(--warn); }
.figure.good { border-left-color: var(--good); } .figure.info { border-left-color: var(--info); }
table.data { border-collapse: collapse; width: 100%; margin: 4px 0 14px; font-size: 12px; }
table.data.narrow { width: auto; min-width: 45%; }
table.data caption { text-align: left; font-weight: bold; padding: 4px 0; caption-side: top; }
table.data th { background: #eef1f4; text-align: left; padding: 4px 6px; border-bottom: 1px solid #9aa5ae; vertical-align: bottom; }
table.data td { padding: 3px 6px; border-bottom: 1px solid #e7eaed; vertical-align: top; }
table.data .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.data tr { break-inside: avoid; }
table.data thead { display: table-header-group; }
tr.critical td:first-child { border-left: 4px solid var(--crit); } tr.critical { background: #fdf0ef; }
tr.warning td:first-child { border-left: 4px solid var(--warn); } tr.warning { background: #fff6e8; }
tr.info td:first-child { border-left: 4px solid var(--info); }
p.empty { color: var(--muted); font-style: italic; }
p.note { border-left: 3px solid var(--warn); background: #fffaf0; padding: 6px 10px; }
dl.defs { display: grid; grid-template-columns: 180px 1fr; gap: 4px 14px; margin: 0; }
dl.defs dt { font-weight: bold; } dl.defs dd { margin: 0; }
.charts { display: flex; flex-wrap: wrap; gap: 10px; margin: 6px 0 14px; }
figure.chart { margin: 0; flex: 1 1 480px; max-width: 560px; border: 1px solid var(--rule); border-radius: 3px; padding: 4px; break-inside: avoid; }
figure.chart svg { width: 100%; height: auto; display: block; }
figure.diagram { margin: 6px 0 12px; border: 1px solid var(--rule); border-radius: 3px; padding: 4px; break-inside: avoid; }
figure.diagram svg { width: 100%; height: auto; display: block; }
figure.diagram figcaption { font-size: 11px; color: var(--muted); padding: 2px 4px; }
footer { margin-top: 30px; color: var(--muted); font-size: 11px; border-top: 1px solid var(--rule); padding-top: 6px; }
@page { size: A4; margin: 14mm 12mm; }
@media print { body { padding: 0; max-width: none; font-size: 11px; } nav { display: none; }
  h2 { break-before: auto; } .charts { display: block; } figure.chart { display: inline-block; width: 49%; margin: 0 0 6px; } }
)css";

const char* toneClass(Tone t) {
    switch (t) {
    case Tone::Critical: return "critical";
    case Tone::Warning: return "warning";
    case Tone::Info: return "info";
    case Tone::Good: return "good";
    case Tone::None: return "";
    }
    return "";
}

void writeTable(std::ostringstream& o, const Table& t) {
    if (t.rows.empty()) {
        o << "<p class=\"empty\">" << htmlEscape(t.caption) << ": " << htmlEscape(t.emptyText) << "</p>\n";
        return;
    }
    o << "<table class=\"data" << (isCompact(t) ? " narrow" : "") << "\" id=\"t-" << htmlEscape(t.id) << "\">\n<caption>" << htmlEscape(t.caption) << "</caption>\n<thead><tr>";
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        o << "<th" << (i < t.numeric.size() && t.numeric[i] ? " class=\"num\"" : "") << ">" << htmlEscape(t.columns[i]) << "</th>";
    o << "</tr></thead>\n<tbody>\n";
    for (const auto& r : t.rows) {
        const char* tone = toneClass(r.tone);
        o << "<tr" << (*tone ? std::string(" class=\"") + tone + "\"" : std::string()) << ">";
        for (std::size_t i = 0; i < r.cells.size(); ++i)
            o << "<td" << (i < t.numeric.size() && t.numeric[i] ? " class=\"num\"" : "") << ">" << htmlEscape(r.cells[i]) << "</td>";
        o << "</tr>\n";
    }
    o << "</tbody></table>\n";
}

void writeBlock(std::ostringstream& o, const Block& b) {
    if (const auto* p = std::get_if<Paragraph>(&b)) {
        o << "<p" << (p->note ? " class=\"note\"" : "") << ">" << htmlEscape(p->text) << "</p>\n";
    } else if (const auto* f = std::get_if<Figures>(&b)) {
        o << "<div class=\"figures\">\n";
        for (std::size_t i = 0; i < f->items.size(); ++i)
            o << "<div class=\"figure " << toneClass(i < f->tones.size() ? f->tones[i] : Tone::None) << "\"><div class=\"label\">"
              << htmlEscape(f->items[i].first) << "</div><div class=\"value\">" << htmlEscape(f->items[i].second) << "</div></div>\n";
        o << "</div>\n";
    } else if (const auto* d = std::get_if<Definitions>(&b)) {
        o << "<dl class=\"defs\">\n";
        for (const auto& [term, meaning] : d->items) o << "<dt>" << htmlEscape(term) << "</dt><dd>" << htmlEscape(meaning) << "</dd>\n";
        o << "</dl>\n";
    } else if (const auto* t = std::get_if<Table>(&b)) {
        writeTable(o, *t);
    } else if (const auto* c = std::get_if<Chart>(&b)) {
        o << "<figure class=\"chart\">" << renderSvgChart(c->spec) << "</figure>\n";
    } else if (const auto* g = std::get_if<Diagram>(&b)) {
        o << "<figure class=\"diagram\" style=\"max-width:" << g->width << "px\">" << g->svg << "<figcaption>" << htmlEscape(g->caption)
          << "</figcaption></figure>\n";
    }
}

} // namespace

std::string renderHtml(const ReportDocument& doc) {
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // No network, no scripts: the file is safe to open from a ticket even if the fabric data is hostile.
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" << htmlEscape(doc.title) << "</title>\n<style>"
      << kCss << "</style>\n</head>\n<body>\n<header>\n<h1>" << htmlEscape(doc.title) << "</h1>\n<table class=\"meta\">\n";
    for (const auto& [k, v] : doc.meta) o << "<tr><th>" << htmlEscape(k) << "</th><td>" << htmlEscape(v) << "</td></tr>\n";
    o << "</table>\n<nav>";
    for (const auto& s : doc.sections) o << "<a href=\"#" << htmlEscape(s.id) << "\">" << htmlEscape(s.title) << "</a>";
    o << "</nav>\n</header>\n<main>\n";
    for (const auto& s : doc.sections) {
        o << "<section id=\"" << htmlEscape(s.id) << "\">\n<h2>" << htmlEscape(s.title) << "</h2>\n";
        bool inCharts = false;  // consecutive charts share one flowing container
        for (const auto& b : s.blocks) {
            const bool chart = std::holds_alternative<Chart>(b);
            if (chart && !inCharts) o << "<div class=\"charts\">\n";
            if (!chart && inCharts) o << "</div>\n";
            inCharts = chart;
            writeBlock(o, b);
        }
        if (inCharts) o << "</div>\n";
        o << "</section>\n";
    }
    o << "</main>\n<footer>Written by FabScope. Figures are derived from the counters and topology in the store named above; "
         "see Methods and definitions.</footer>\n</body>\n</html>\n";
    return o.str();
}

} // namespace fabscope
