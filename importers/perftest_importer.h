#pragma once
// perftest outputs (ib_write_lat, ib_read_lat, ib_send_lat, ib_write_bw, ib_read_bw, ib_send_bw):
// one ProbeResult per table row. The host pair comes from a `# fabscope: src=HOST dst=HOST` line or
// from the file name `<test>_<src>_<dst>.txt`; the time from a `date +%s` line, else the file's
// mtime (docs/FORMATS.md).
#include "importers/importer.h"

namespace fabscope {

class PerftestImporter final : public ProbeImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "perftest"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    ProbeImportResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
