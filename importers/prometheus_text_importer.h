#pragma once
// Prometheus text exposition and OpenMetrics (`# EOF`), with or without sample timestamps;
// concatenated scrapes may be separated by `date +%s` lines. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class PrometheusTextImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "prometheus"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

} // namespace fabscope
