#pragma once
// `perfquery` and `perfquery -x` output (infiniband-diags), one port block after another, with
// optional `date +%s` lines between snapshots. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class PerfqueryImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "perfquery"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

} // namespace fabscope
