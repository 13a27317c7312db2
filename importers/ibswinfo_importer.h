#pragma once
// `ibswinfo` (a script over mlxreg reading an unmanaged Mellanox switch's registers, one run per
// switch; outputs may be concatenated): the switch's identity, firmware, uptime, each power
// supply's state and watts, temperature and fans. Kept as what the tool reported about the
// switch (fabric_events, tool "ibswinfo") on the stored fabric: every status that is not OK.
// Layout, units and quirks: docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbswinfoImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibswinfo"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    [[nodiscard]] bool usesFabricIndex() const override { return false; }
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
