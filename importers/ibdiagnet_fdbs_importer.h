#pragma once
// `ibdiagnet2.fdbs` unicast forwarding tables (`ibdiagnet -r`), in OpenSM's dump layout:
// `osm_ucast_mgr_dump_ucast_routes: Switch 0x<GUID>` then `0xLLLL : PPP : HH : yes` or
// `0xLLLL : UNREACHABLE` per destination LID. Stored as routes, like ibroute. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbdiagnetFdbsImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibdiagnet-fdbs"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
