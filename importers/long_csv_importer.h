#pragma once
// The documented long CSV: `timestamp,node,port,counter,value` (docs/FORMATS.md).
#include "importers/importer.h"

namespace fabscope {

class LongCsvImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "csv"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    [[nodiscard]] bool usesFabricIndex() const override { return false; }  // the writer maps names
    [[nodiscard]] bool parsesOnAllCores() const override { return true; }
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

} // namespace fabscope
