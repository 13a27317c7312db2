#pragma once
// UFM Telemetry JSON (`{"timestamp": ..., "type": "full", "values": [{node_guid, port_guid,
// port_num, "Infiniband_<Counter>_u_<Unit>": value, ...}]}`): one sample per port and counter.
// See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class UfmTelemetryImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ufm-telemetry"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

} // namespace fabscope
