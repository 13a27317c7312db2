// What changed on links: topology (between the two sides' snapshots), load per link direction,
// and the error / pause / congestion findings one side has and the other not.
#include "core/analysis/format.h"
#include "core/analysis/port_load.h"
#include "core/analysis/probe_pairs.h"
#include "core/analysis/topology_change.h"
#include "core/compare/compare_parts.h"
#include "core/store/port_ber.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace fabscope::compare {
namespace {

std::string metricText(const Finding& f, std::string_view key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key) return std::holds_alternative<std::string>(v) ? std::get<std::string>(v) : numfmt::num(std::get<double>(v));
    return {};
}

// A port's identity across stores and snapshots: its node's GUID when known, else its name.
std::string portKey(const PortRef& p) { return (p.guid.empty() ? p.node : p.guid) + '\x1f' + p.port; }

struct LoadStats {
    double p50 = 0, p95 = 0, p99 = 0, hotSeconds = 0, capacityGbps = 0;
};

std::optional<LoadStats> statsOf(const AnalysisContext& ctx, PortId tx, PortId rx, double hotUtil) {
    const auto load = directionLoad(ctx, tx, rx);
    if (!load) return std::nullopt;
    std::vector<double> u;
    LoadStats s;
    for (std::size_t i = 0; i < load->util.size(); ++i) {
        if (!load->rates.ok(i)) continue;
        u.push_back(load->util[i]);
        if (load->util[i] >= hotUtil) s.hotSeconds += static_cast<double>(load->rates.endMs[i] - load->rates.startMs[i]) / 1000.0;
    }
    if (u.empty()) return std::nullopt;
    std::sort(u.begin(), u.end());
    s.p50 = percentile(u, 0.5);
    s.p95 = percentile(u, 0.95);
    s.p99 = percentile(u, 0.99);
    s.capacityGbps = load->capacityBps / 1e9;
    return s;
}

ChangeValues values(const LoadStats& s) {
    return {{"p50_util", numfmt::round(s.p50)},
            {"p95_util", numfmt::round(s.p95)},
            {"p99_util", numfmt::round(s.p99)},
            {"hot_seconds", numfmt::round(s.hotSeconds)},
            {"capacity_gbps", numfmt::round(s.capacityGbps)}};
}

std::string pct(double u) { return numfmt::num(u * 100) + "%"; }

} // namespace

void topologyChanges(const Side& good, const Side& bad, std::vector<Change>& out) {
    if (!good.snapshotId || !bad.snapshotId) return;
    if (good.store == bad.store && *good.snapshotId == *bad.snapshotId) return;
    for (const Finding& f : diffTopology(good.ctx->fabric(), good.info.snapshotTime, bad.ctx->fabric(), bad.info.snapshotTime)) {
        Change c;
        c.kind = ChangeKind::Topology;
        c.ports = f.ports;
        c.summary = f.summary;
        const std::string change = metricText(f, "change");
        if (change == "removed") {
            c.good = {{"link", metricText(f, "old")}};
            c.bad = {{"link", std::string("none")}};
            c.score = 100;  // its traffic now crowds its ECMP siblings
        } else if (change == "width_speed") {
            c.good = {{"width_speed", metricText(f, "old")}};
            c.bad = {{"width_speed", metricText(f, "new")}};
            double lost = 0;  // share of the capacity lost, from "capacity_change_gbps" and the old rate
            for (const auto& [k, v] : f.metrics)
                if (k == "capacity_change_gbps" && std::holds_alternative<double>(v)) lost = -std::get<double>(v);
            double oldGbps = 0;
            for (const Link& l : good.ctx->fabric().links) {
                const PortRef a = good.ctx->ref(l.a), b = good.ctx->ref(l.b);
                if ((portKey(a) == portKey(f.ports[0]) && portKey(b) == portKey(f.ports[1])) ||
                    (portKey(b) == portKey(f.ports[0]) && portKey(a) == portKey(f.ports[1])))
                    oldGbps = static_cast<double>(l.capacityBps) / 1e9;
            }
            const double share = oldGbps > 0 ? std::clamp(lost / oldGbps, 0.0, 1.0) : 0;
            c.good.emplace_back("capacity_gbps", numfmt::round(oldGbps));
            c.bad.emplace_back("capacity_gbps", numfmt::round(oldGbps - lost));
            c.score = lost > 0 ? 50 + 50 * share : 10;
        } else if (change == "moved") {
            c.good = {{"peer", metricText(f, "from")}};
            c.bad = {{"peer", metricText(f, "to")}};
            c.score = 70;
        } else {  // added
            c.good = {{"link", std::string("none")}};
            c.bad = {{"link", std::string("present")}};
            c.score = 20;
        }
        out.push_back(std::move(c));
    }
}

void loadChanges(const Side& good, const Side& bad, const CompareConfig& cfg, double hotUtil, std::vector<Change>& out) {
    const Fabric& gf = good.ctx->fabric();
    const Fabric& bf = bad.ctx->fabric();
    if (gf.links.empty() || bf.links.empty()) return;
    std::map<std::string, PortId> goodPort;  // port identity -> the good fabric's port
    for (const Link& l : gf.links) {
        goodPort.emplace(portKey(good.ctx->ref(l.a)), l.a);
        goodPort.emplace(portKey(good.ctx->ref(l.b)), l.b);
    }
    for (const Link& l : bf.links) {
        for (auto [tx, rx] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
            const PortRef txRef = bad.ctx->ref(tx), rxRef = bad.ctx->ref(rx);
            const auto gtx = goodPort.find(portKey(txRef)), grx = goodPort.find(portKey(rxRef));
            if (gtx == goodPort.end() || grx == goodPort.end()) continue;  // a topology change tells it
            const auto before = statsOf(*good.ctx, gtx->second, grx->second, hotUtil);
            const auto after = statsOf(*bad.ctx, tx, rx, hotUtil);
            if (!before && !after) continue;
            Change c;
            c.kind = ChangeKind::Load;
            c.ports = {txRef, rxRef};
            const std::string where = portLabel(txRef) + " -> " + portLabel(rxRef);
            if (!before || !after) {  // no data on one side: said so, never taken as zero
                c.good = before ? values(*before) : ChangeValues{{"data", std::string("none")}};
                c.bad = after ? values(*after) : ChangeValues{{"data", std::string("none")}};
                c.summary = where + ": counters on the " + (before ? "good" : "bad") + " side only (p95 utilisation " +
                            pct(before ? before->p95 : after->p95) + "); the other side has no data for it";
                c.score = 5;
                out.push_back(std::move(c));
                continue;
            }
            const double delta = after->p95 - before->p95;
            if (std::abs(delta) < cfg.minUtilChange || std::abs(delta) < cfg.minRelativeChange * std::max(before->p95, after->p95))
                continue;
            c.good = values(*before);
            c.bad = values(*after);
            const bool turnedHot = after->p95 >= hotUtil && before->p95 < hotUtil;
            c.summary = where + ": p95 utilisation " + pct(before->p95) + " -> " + pct(after->p95) + " (" +
                        (delta > 0 ? "+" : "") + numfmt::num(delta * 100) + " points), " + numfmt::num(before->hotSeconds) +
                        " s -> " + numfmt::num(after->hotSeconds) + " s at or above " + pct(hotUtil) +
                        (after->capacityGbps != before->capacityGbps ? ", capacity " + numfmt::num(before->capacityGbps) + " -> " +
                                                                           numfmt::num(after->capacityGbps) + " Gb/s"
                                                                     : "");
            c.score = std::min(60.0, std::abs(delta) * 100) + (turnedHot ? 20 : 0);
            out.push_back(std::move(c));
        }
    }
}

void findingChanges(const Side& good, const Side& bad, std::vector<Change>& out) {
    const auto kindOf = [](FindingKind k) -> std::optional<ChangeKind> {
        switch (k) {
        case FindingKind::ErrorLink:
        case FindingKind::LinkFlap: return ChangeKind::Errors;
        case FindingKind::PfcStorm: return ChangeKind::Pauses;
        case FindingKind::CongestionTree: return ChangeKind::Congestion;
        default: return std::nullopt;
        }
    };
    const auto keyOf = [](const Finding& f) {
        std::string k(kindName(f.kind));
        for (std::size_t i = 0; i < f.ports.size() && i < 2; ++i) k += '\x1e' + portKey(f.ports[i]);
        return k + '\x1e' + metricText(f, "counter");
    };
    // An error_link judged on bit error rates (net_dump_ext) says nothing against a run that read
    // none (ibdiagnet without --get_phy_info, or no port's PHY read): told so, and ranked below a
    // measured change.
    const auto readRates = [](const Side& s) { return s.store && s.snapshotId && hasPortBerRates(*s.store, *s.snapshotId); };
    const bool goodRates = readRates(good), badRates = readRates(bad);
    std::map<std::string, const Finding*> inGood, inBad;
    for (const Finding& f : good.findings.findings)
        if (kindOf(f.kind)) inGood.emplace(keyOf(f), &f);
    for (const Finding& f : bad.findings.findings)
        if (kindOf(f.kind)) inBad.emplace(keyOf(f), &f);
    const auto add = [&](const Finding& f, bool appeared) {
        Change c;
        c.kind = *kindOf(f.kind);
        c.ports = f.ports;
        ChangeValues seen{{"finding", std::string(kindName(f.kind))}, {"severity", std::string(toString(f.severity))}};
        for (const auto& m : f.metrics) seen.push_back(m);
        const ChangeValues none{{"finding", std::string("none")}};
        c.good = appeared ? none : seen;
        c.bad = appeared ? seen : none;
        c.summary = std::string(appeared ? "new in the bad run: " : "gone in the bad run: ") + f.summary;
        const double weight = c.kind == ChangeKind::Pauses ? 70 : 60;
        c.score = appeared ? (f.severity == FindingSeverity::Critical ? weight : weight - 20) : 15;
        const std::string counter = metricText(f, "counter");
        if ((counter == "effective_ber" || counter == "symbol_ber") && !(appeared ? goodRates : badRates)) {
            c.summary += std::string(" (the ") + (appeared ? "good" : "bad") + " run read no bit error rates)";
            c.score = 10;
        }
        out.push_back(std::move(c));
    };
    for (const auto& [key, f] : inBad)
        if (!inGood.count(key)) add(*f, true);
    for (const auto& [key, f] : inGood)
        if (!inBad.count(key)) add(*f, false);
}

} // namespace fabscope::compare
