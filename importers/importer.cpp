#include "importers/importer.h"

#include "core/parallel_slices.h"

#include <cstring>

namespace fabscope {

ImportInput Importer::checked(const ImportInput& in, const DiagnosticSink& diag) const {
    const std::string_view bytes = in.bytes;
    if (!in.nulFree && anyOfSlices(bytes.size(), 8 << 20, 0, [bytes](std::size_t from, std::size_t to) {
            return from < to && std::memchr(bytes.data() + from, '\0', to - from) != nullptr;
        }))
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
