#pragma once
// `ibnetdiscover` default output (infiniband-diags): node blocks with one line per connected port.
// See docs/FORMATS.md for the grammar and the capture quirks tolerated.
#include "importers/importer.h"

namespace fabscope {

class IbnetdiscoverImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibnetdiscover"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
