#pragma once
// RDMA device counters of a host: `rdma statistic show` (one `link DEV/PORT name value ...` record
// per port, wrapped or `-p` one counter per line) and sysfs hw_counters dumps
// (`grep . /sys/class/infiniband/*/ports/*/hw_counters/*`), repeated with a `date +%s` line before
// each capture, like the ethtool importer. The node is the file name's host part. `ibdev2netdev`
// or `rdma link show` output in the same file names each device's netdev, and the series are
// then stored on that interface (the port LLDP knows); else on `DEV/PORT`. See docs/FORMATS.md.
#include "importers/importer.h"

namespace fabscope {

class RdmaStatImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "rdma-stat"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

// hw_counters name -> counter stored (canonical cnp_sent / cnp_handled / ecn_marked, else the
// name itself); nullopt for values that are not counters (`lifespan`).
std::optional<CounterInfo> rdmaCounter(std::string_view name);

} // namespace fabscope
