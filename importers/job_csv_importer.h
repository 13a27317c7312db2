#pragma once
// A job as a CSV `rank,host,device` (header required; device may be empty). See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class JobCsvImporter final : public JobImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "job-csv"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    JobResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const override;
};

} // namespace fabscope
