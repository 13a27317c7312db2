#pragma once
// `lldpctl -f json` (and the stable `-f json0` form) of lldpd: the neighbours seen on each local
// interface. One file per device, named after it (`leaf03.json`) unless the file carries the
// local chassis. See docs/FORMATS.md for the shapes accepted.
#include "importers/lldp_fabric.h"

namespace fabscope {

class LldpJsonImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "lldpctl-json"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
