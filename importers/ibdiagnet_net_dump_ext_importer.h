#pragma once
// `ibdiagnet2.net_dump_ext` (`ibdiagnet --get_phy_info`): one ':'-separated row per port under a
// `Ty : # : #IB : GUID : ... : FEC mode : RTR : Raw BER : Effective BER : Symbol BER : Symbol Err
// : Effective Err : Node Desc` header; the FEC mode and bit error rates of each port. Stored as
// port_ber beside the snapshot of the same call, else the latest one. Quirks: docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbdiagnetNetDumpExtImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibdiagnet-net-dump-ext"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    [[nodiscard]] bool usesFabricIndex() const override { return false; }
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
