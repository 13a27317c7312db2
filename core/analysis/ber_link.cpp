// error_link from bit error rates: a port whose BER after FEC (effective) or after FEC and
// retransmission (symbol), as ibdiagnet read it (ibdiagnet2.net_dump_ext, core/store/port_ber.h),
// is above its threshold. BER is measured where the signal arrives, so the receiving port comes
// first and its link peer (the transmitter) second, as for the counter-based error_link. A
// reading has no time of its own beyond the snapshot's: the finding spans the window and names
// the snapshot's time, as degraded_link does.
#include "core/analysis/ber_rule.h"
#include "core/analysis/detectors.h"
#include "core/analysis/format.h"

#include <unordered_map>

namespace fabscope {

std::string BerExcess::text() const {
    return numfmt::ber(ber) + (afterRetransmission ? " after FEC and retransmission" : " after FEC") + " (threshold " + numfmt::ber(threshold) + ")";
}

std::optional<BerExcess> berExcess(const PortBer& b, const ErrorLinkConfig& cfg) {
    // How far above its threshold each judged rate is; the worse one names the finding.
    const double effectiveFactor = b.effectiveBer && cfg.effectiveBer > 0 ? *b.effectiveBer / cfg.effectiveBer : 0;
    const double symbolFactor = b.symbolBer && cfg.symbolBer > 0 ? *b.symbolBer / cfg.symbolBer : 0;
    if (effectiveFactor <= 1 && symbolFactor <= 1) return std::nullopt;
    BerExcess e;
    e.effectiveOver = effectiveFactor > 1;
    e.symbolOver = symbolFactor > 1;
    if (effectiveFactor >= symbolFactor) {
        e.ber = *b.effectiveBer, e.threshold = cfg.effectiveBer, e.factor = effectiveFactor;
    } else {
        e.afterRetransmission = true;
        e.ber = *b.symbolBer, e.threshold = cfg.symbolBer, e.factor = symbolFactor;
    }
    return e;
}

void detectBerLinks(const AnalysisContext& ctx, std::vector<Finding>& out) {
    if (ctx.snapshotId() == 0) return;
    const std::vector<PortBer> readings = loadPortBer(ctx.store(), ctx.snapshotId());
    if (readings.empty()) return;
    const ErrorLinkConfig& cfg = ctx.config().errorLink;
    const Fabric& f = ctx.fabric();
    std::unordered_map<std::string, std::uint32_t> nodeOfGuid;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (!f.nodes[i].guid.empty()) nodeOfGuid.emplace(f.nodes[i].guid, i);

    for (const PortBer& b : readings) {
        const auto excess = berExcess(b, cfg);
        if (!excess) continue;
        const auto node = nodeOfGuid.find(b.nodeGuid);
        if (node == nodeOfGuid.end()) continue;

        Finding fd;
        fd.kind = FindingKind::ErrorLink;
        fd.severity = excess->factor >= cfg.criticalFactor ? FindingSeverity::Critical : FindingSeverity::Warning;
        fd.start = ctx.windowStart();
        fd.end = ctx.windowEnd();
        const SeriesPort sp{node->second, b.port};
        fd.ports.push_back(ctx.ref(sp));
        if (auto p = ctx.fabricPort(sp))
            if (auto l = ctx.linkOf(*p)) fd.ports.push_back(ctx.ref(ctx.peer(*l, *p)));

        std::string rates;
        auto add = [&rates](const std::string& clause) { rates += (rates.empty() ? "" : ", ") + clause; };
        if (b.effectiveBer) add("after FEC " + numfmt::ber(*b.effectiveBer) + (excess->effectiveOver ? " (threshold " + numfmt::ber(cfg.effectiveBer) + ")" : ""));
        if (b.symbolBer) add("after FEC and retransmission " + numfmt::ber(*b.symbolBer) + (excess->symbolOver ? " (threshold " + numfmt::ber(cfg.symbolBer) + ")" : ""));
        if (b.rawBer) add("before FEC " + numfmt::ber(*b.rawBer));
        fd.summary = AnalysisContext::label(fd.ports[0]) + (fd.ports.size() > 1 ? " <- " + AnalysisContext::label(fd.ports[1]) : std::string()) +
                     ": bit error rate " + rates + (b.fecMode.empty() ? std::string() : "; FEC " + b.fecMode) +
                     (b.symbolErrors ? "; " + std::to_string(*b.symbolErrors) + " symbol errors" : std::string()) +
                     " (read by ibdiagnet with the topology captured " + numfmt::utc(ctx.snapshotTime()) + ")";
        fd.metrics = {{"counter", std::string(excess->counter())}, {"ber", excess->ber}, {"threshold_ber", excess->threshold}};
        if (b.effectiveBer) fd.metrics.emplace_back("effective_ber", *b.effectiveBer);
        if (b.symbolBer) fd.metrics.emplace_back("symbol_ber", *b.symbolBer);
        if (b.rawBer) fd.metrics.emplace_back("raw_ber", *b.rawBer);
        if (!b.fecMode.empty()) fd.metrics.emplace_back("fec_mode", b.fecMode);
        if (b.symbolErrors) fd.metrics.emplace_back("symbol_errors", static_cast<double>(*b.symbolErrors));
        if (b.effectiveErrors) fd.metrics.emplace_back("effective_errors", static_cast<double>(*b.effectiveErrors));
        fd.metrics.emplace_back("snapshot_time", ctx.snapshotTime());
        out.push_back(std::move(fd));
    }
}

} // namespace fabscope
