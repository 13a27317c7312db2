#pragma once
// `ibdiagnet2.cables` (`ibdiagnet --get_cable_info`): one block per port whose module ibdiagnet
// read, `Port=N Lid=0x.. GUID=0x.. Port Name=..` between dashed lines, then `Key: Value` lines
// (vendor, part and serial numbers, temperature, per-lane RX power, TX bias and power, alarm
// flags). Stored as port_optics beside the snapshot of the same call, else the latest one.
// Quirks and units: docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbdiagnetCablesImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibdiagnet-cables"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    [[nodiscard]] bool usesFabricIndex() const override { return false; }
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
