#include "importers/importer.h"

namespace fabscope {

ImportInput Importer::checked(const ImportInput& in, const DiagnosticSink& diag) const {
    if (in.bytes.find('\0') != std::string_view::npos)
        diag.fail(0, "binary data (NUL bytes) in a file read as " + std::string(name()));
    ImportInput out = in;
    if (out.bytes.starts_with("\xEF\xBB\xBF")) out.bytes.remove_prefix(3);
    return out;
}

std::int64_t ProbeImportResult::rows() const {
    std::int64_t n = static_cast<std::int64_t>(probes.size());
    for (const auto& r : runs) n += static_cast<std::int64_t>(r.rows.size());
    return n;
}

} // namespace fabscope
