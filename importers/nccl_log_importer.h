#pragma once
// NCCL logs written with NCCL_DEBUG=INFO: which host and NIC each rank of a job used, from the
// `comm 0x.. rank R nranks N cudaDev D ... - Init COMPLETE` lines, the `NET/IB : Using [0]mlx5_0:1/IB`
// lines and the `Channel NN/0 : a[d] -> b[d] [send] via NET/IB/k` lines. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class NcclLogImporter final : public JobImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "nccl-log"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    JobResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

// "logs/train-42.log" -> "train-42": the job name when the file gives none.
std::string jobNameFromFileName(std::string_view path);

} // namespace fabscope
