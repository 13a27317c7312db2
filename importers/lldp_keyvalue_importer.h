#pragma once
// `lldpctl -f keyvalue` (`lldp.<if>.<path>=<value>` lines): the neighbours seen on each local
// interface, turned into the same fabric as the -f json form of the same capture. One file per
// device, named after it unless the file carries the local chassis (docs/FORMATS.md).
#include "importers/importer.h"

namespace fabscope {

class LldpKeyvalueImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "lldpctl-keyvalue"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
