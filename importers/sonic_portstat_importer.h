#pragma once
// SONiC `show interfaces counters` (portstat) tables as counter series: the cumulative packet,
// error, drop and oversize counts per port; the rate and utilisation columns are derived values
// and are not stored (docs/FORMATS.md). Same conventions as `show pfc counters`: one file per
// switch named after it (or a `# node: NAME` line), a `date +%s` line before each capture.
#include "importers/importer.h"

namespace fabscope {

class SonicPortstatImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "sonic-portstat"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

// Column header -> the counter stored for it; nullopt for derived (rate, %) and unknown columns.
std::optional<CounterInfo> portstatCounter(std::string_view column);

} // namespace fabscope
