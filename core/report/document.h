#pragma once
// A report as a document: sections of paragraphs, key figures, tables and charts, in reading
// order. Built once from ReportData; the HTML, PDF and CSV writers only lay it out, so every
// format says the same thing.
#include "core/report/report_data.h"
#include "core/report/svg_chart.h"

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace fabscope {

enum class Tone { None, Critical, Warning, Info, Good };

struct Paragraph {
    std::string text;  // plain text; writers escape it
    bool note = false; // a caveat, set apart
};

struct Figures {  // headline numbers: label -> value
    std::string id;  // CSV table name
    std::vector<std::pair<std::string, std::string>> items;
    std::vector<Tone> tones;  // per item
};

struct Definitions {  // term -> meaning
    std::vector<std::pair<std::string, std::string>> items;
};

struct TableRow {
    std::vector<std::string> cells;  // numbers unformatted beyond rounding; units live in the header
    Tone tone = Tone::None;
};

struct Table {
    std::string id;       // CSV table name: "leaf_oversubscription"
    std::string caption;
    std::vector<std::string> columns;
    std::vector<bool> numeric;  // right-aligned
    std::vector<TableRow> rows;
    std::string emptyText;      // shown when rows is empty
};

struct Chart {
    ChartSpec spec;
};

struct Diagram {  // a drawing that is not a time chart (a route), as standalone SVG
    std::string svg;         // already escaped by its builder
    std::string caption;     // plain text; writers escape it
    int width = 0, height = 0;  // SVG user units (px)
};

using Block = std::variant<Paragraph, Figures, Definitions, Table, Chart, Diagram>;

struct Section {
    std::string id, title;
    std::vector<Block> blocks;
};

struct ReportDocument {
    std::string title;
    std::vector<std::pair<std::string, std::string>> meta;  // store, window, generated, ...
    std::vector<Section> sections;
};

ReportDocument buildDocument(const ReportData& data);

// A table of few, short columns: laid out compact rather than stretched across the page.
bool isCompact(const Table& t);

// Every table of a document in order, Figures included as two-column tables (for CSV).
std::vector<Table> allTables(const ReportDocument& doc);

} // namespace fabscope
