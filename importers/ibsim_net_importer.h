#pragma once
// ibsim's net file (`ibsim -s fabric.net`): the fabric a simulation is built from, by node name:
// `Switch 8 "leaf01"` then `[3] "gpu001 mlx5_0"[1] w=2 s=1 e=4`. Stored as a plan the discovered
// fabric (ibnetdiscover run on the simulation, or on the cluster it models) is checked against.
// Net files whose ids are GUIDs (`"S-0008f1..."`, ibnetdiscover output) are ibnetdiscover's. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbsimNetImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibsim-net"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    [[nodiscard]] bool usesFabricIndex() const override { return false; }
    [[nodiscard]] bool describesPlan() const override { return true; }
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
