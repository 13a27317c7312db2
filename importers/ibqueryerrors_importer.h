#pragma once
// `ibqueryerrors` output (infiniband-diags): per node, the ports whose error counters passed the
// thresholds, and with --counters the data counters of every port. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbqueryerrorsImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibqueryerrors"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

} // namespace fabscope
