#pragma once
// LST topology (`ibdiagnet2.lst`, ibutils' subnet.lst): one line per link end pair,
// `{ endpoint } { endpoint } PHY=4x LOG=ACT [SPD=..]`. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class LstImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "lst"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
