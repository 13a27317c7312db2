#pragma once
// nccl-tests outputs (all_reduce_perf, all_gather_perf, alltoall_perf, reduce_scatter_perf,
// broadcast_perf, sendrecv_perf, ...): one CollectiveRun per test run in the file, with the hosts
// of the `#  Rank N ... on HOST device ...` lines in rank order and the size/time/algbw/busbw table
// (docs/FORMATS.md).
#include "importers/importer.h"

namespace fabscope {

class NcclTestsImporter final : public ProbeImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "nccl-tests"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    ProbeImportResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
