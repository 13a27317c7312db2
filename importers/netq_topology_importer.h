#pragma once
// NVIDIA NetQ topology export (`topologyGraph.json`: tiers of nodes and links bundling the
// interface pairs of each node pair) as a topology snapshot. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class NetqTopologyImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "netq-topology"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
