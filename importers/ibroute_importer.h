#pragma once
// Unicast forwarding tables as printed by `ibroute <switch>` and `dump_fts` (`dump_lfts.sh` in
// old releases): one block per switch, one line per destination LID. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbrouteImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibroute"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
