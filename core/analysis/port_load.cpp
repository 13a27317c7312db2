#include "core/analysis/port_load.h"

namespace fabscope {

std::optional<double> DirectionLoad::meanUtil() const {
    double sum = 0, secs = 0;
    for (std::size_t i = 0; i < rates.size(); ++i) {
        if (!rates.ok(i)) continue;
        const double dt = static_cast<double>(rates.endMs[i] - rates.startMs[i]) / 1000.0;
        sum += util[i] * dt;
        secs += dt;
    }
    if (secs <= 0) return std::nullopt;
    return sum / secs;
}

std::optional<DirectionLoad> directionLoad(const AnalysisContext& ctx, PortId tx, PortId rx) {
    return directionLoad(ctx, ctx.store(), tx, rx);
}

std::optional<DirectionLoad> directionLoad(const AnalysisContext& ctx, const Store& via, PortId tx, PortId rx) {
    DirectionLoad d;
    const Port& txPort = ctx.fabric().port(tx);
    d.capacityBps = static_cast<double>(txPort.capacityBps);
    if (d.capacityBps <= 0)
        if (auto l = ctx.linkOf(tx)) d.capacityBps = static_cast<double>(ctx.fabric().link(*l).capacityBps);
    if (d.capacityBps <= 0) return std::nullopt;
    if (auto s = ctx.seriesFor(tx, "xmit_bytes")) d.rates = ctx.rates(via, *s, "xmit_bytes");
    else if (auto r = ctx.seriesFor(rx, "rcv_bytes")) d.rates = ctx.rates(via, *r, "rcv_bytes");
    else return std::nullopt;
    d.util = ctx.capacities().utilisation(d.rates, tx, d.capacityBps);
    return d;
}

} // namespace fabscope
