#pragma once
// ibutils/ibdm topology file (`ibdiagnet -t`, ibtopodiff, ibmgtsim): a cabling plan by system
// name, one section per system, `P1 -> MTS800 SW-0-1 P3` (optionally `-4x-5G->`). Stored as a
// plan the discovered fabric is checked against. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbdmTopoImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibdm-topo"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    [[nodiscard]] bool usesFabricIndex() const override { return false; }
    [[nodiscard]] bool describesPlan() const override { return true; }
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
