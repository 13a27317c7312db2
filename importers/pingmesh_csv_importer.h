#pragma once
// Pingmesh-style probe CSV: `timestamp,src,dst,rtt_us,sent,lost` plus an optional `path` column
// (hops separated by `>`). One row per probe round between two hosts. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class PingmeshCsvImporter final : public ProbeImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "pingmesh"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    ProbeImportResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
