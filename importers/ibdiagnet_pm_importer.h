#pragma once
// `ibdiagnet2.pm`: the port counters of one ibdiagnet run (the same reads as its db_csv PM_INFO),
// one block per port: "Port=N Lid=0x.. GUID=0x.. Device=.. Port Name=.." between dashed lines,
// then "counter_name=0x<hex>" lines, "NA" where the port lacks the counter. Read when a folder has
// no db_csv, or alone: two runs' files give each counter's rate. Ports are placed on the stored
// fabric by their port GUID. Names, units and quirks: docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class IbdiagnetPmImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ibdiagnet-pm"; }
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                      const ProgressFn& progress) const override;
};

} // namespace fabscope
