#pragma once
// `ibnetdiscover -p` ports report: one line per port, both ends of a link on connected lines.
// See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbnetdiscoverPortsImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibnetdiscover-p"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
