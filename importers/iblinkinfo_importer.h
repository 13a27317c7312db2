#pragma once
// `iblinkinfo` output (infiniband-diags), default and `-l` forms: one line per port, Down ports
// included, with "Could be ..." hints. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IblinkinfoImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "iblinkinfo"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
