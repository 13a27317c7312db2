#pragma once
// SONiC `show pfc counters` / `pfcstat` tables (`Port Rx` and `Port Tx` x PFC0..PFC7) as counter
// series. Convention (docs/FORMATS.md): one file per switch, the node is the file name's part
// before the first dot (`leaf01.pfc.txt` -> `leaf01`) unless a `# node: NAME` line names it; a
// `date +%s` line before each capture gives its time (else the file's mtime).
#include "importers/importer.h"

namespace fabscope {

class SonicPfcImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "sonic-pfc"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

} // namespace fabscope
