#include "core/report/csv_writer.h"

#include "core/report/escape.h"

#include <sstream>

namespace fabscope {
namespace {

void row(std::ostringstream& o, const std::vector<std::string>& cells, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i) o << (i ? "," : "") << (i < cells.size() ? csvField(cells[i]) : "");
    o << "\r\n";
}

} // namespace

std::string renderCsv(const ReportDocument& doc) {
    std::ostringstream o;
    o << "# fabscope_report,1\r\n";
    for (const auto& [k, v] : doc.meta) o << "# " << csvField(k) << ',' << csvField(v) << "\r\n";
    for (const Table& t : allTables(doc)) {
        o << "\r\n# table," << csvField(t.id) << "\r\n";
        row(o, t.columns, t.columns.size());
        for (const auto& r : t.rows) row(o, r.cells, t.columns.size());
    }
    return o.str();
}

} // namespace fabscope
