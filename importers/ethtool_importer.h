#pragma once
// `ethtool -S IFACE` snapshots (mlx5 counter names) as counter series. Convention (docs/FORMATS.md):
// a `date +%s` line before each capture and an `ethtool -S IFACE` header line naming the port;
// the node is the file name's host part (`gpu01.ethtool.txt` -> `gpu01`).
#include "importers/importer.h"

namespace fabscope {

class EthtoolImporter final : public CounterImporter {
public:
    [[nodiscard]] std::string_view name() const override { return "ethtool"; }
    [[nodiscard]] std::string nameFromPath(std::string_view path, std::string_view text) const override;
    [[nodiscard]] int detect(std::string_view head) const override;
    std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                       const ProgressFn& progress) const override;
};

// mlx5 ethtool name -> canonical counter (pfc_rx_pause_prio3, xmit_bytes, ...) or a kept mlx5 name
// (rx_discards_phy, rx_out_of_buffer, ...); nullopt for counters not stored (per-queue, sw).
std::optional<CounterInfo> ethtoolCounter(std::string_view name);

} // namespace fabscope
