#pragma once
// `ibdiagnet2.db_csv`: START_<SECTION> / header row / CSV rows / END_<SECTION> blocks. NODES,
// PORTS and LINKS give the topology; PM_INFO gives one counter sample per port, carried in the
// result so the runner writes it in the snapshot's transaction. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbdiagnetDbCsvImporter final : public TopologyImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibdiagnet-db-csv"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
