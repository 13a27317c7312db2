#pragma once
// Prometheus HTTP API responses (`/api/v1/query_range` matrices, `/api/v1/query` vectors), as
// saved by `curl`. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class PrometheusJsonImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "prometheus-json"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

} // namespace fabscope
