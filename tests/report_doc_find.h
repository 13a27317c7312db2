#pragma once
// Finding a report document's sections, tables, columns and text by id (the report tests share
// these instead of each keeping its own copy).
#include "core/report/document.h"

#include <QtGlobal>

#include <string>
#include <variant>

namespace docfind {

inline const fabscope::Section* section(const fabscope::ReportDocument& doc, const std::string& id) {
    for (const auto& s : doc.sections)
        if (s.id == id) return &s;
    return nullptr;
}

inline const fabscope::Table* table(const fabscope::Section& s, const std::string& id) {
    for (const auto& b : s.blocks)
        if (const auto* t = std::get_if<fabscope::Table>(&b); t && t->id == id) return t;
    return nullptr;
}

// In any section.
inline const fabscope::Table* table(const fabscope::ReportDocument& doc, const std::string& id) {
    for (const auto& s : doc.sections)
        if (const auto* t = table(s, id)) return t;
    return nullptr;
}

// The first column whose header starts with `prefix`; a missing column stops the test.
inline std::size_t column(const fabscope::Table& t, const std::string& prefix) {
    for (std::size_t i = 0; i < t.columns.size(); ++i)
        if (t.columns[i].starts_with(prefix)) return i;
    qFatal("no column %s in table %s", prefix.c_str(), t.id.c_str());
}

// The section's paragraphs, one a line.
inline std::string paragraphs(const fabscope::Section& s) {
    std::string out;
    for (const auto& b : s.blocks)
        if (const auto* p = std::get_if<fabscope::Paragraph>(&b)) out += p->text + "\n";
    return out;
}

} // namespace docfind
