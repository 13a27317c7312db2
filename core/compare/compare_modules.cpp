// What changed in the port modules ibdiagnet read on both sides (ibdiagnet2.cables): a module
// swapped (another serial number) is a topology change; one that got worse (a flag newly set, its
// weakest receive lane optics.rx_lane_spread_db or more lower, newly near its alarm temperature or
// with lanes newly apart) is an errors change on its link. Rules: docs/ANALYSIS.md "compare".
#include "core/analysis/format.h"
#include "core/analysis/optic_evidence.h"
#include "core/compare/compare_parts.h"
#include "core/store/port_optics.h"

#include <algorithm>
#include <map>

namespace fabscope::compare {
namespace {

using Key = std::pair<std::string, std::string>;  // node GUID, port

// The module's port and, when it is on a link, the port at the far end (the bad side's fabric).
std::vector<PortRef> portsOf(const Side& side, const PortOptics& o) {
    const Fabric& f = side.ctx->fabric();
    for (std::size_t n = 0; n < f.nodes.size(); ++n) {
        if (f.nodes[n].guid != o.nodeGuid) continue;
        for (std::size_t p = 0; p < f.ports.size(); ++p) {
            if (f.ports[p].node.value() != n || f.ports[p].name != o.port) continue;
            const PortId port(p);
            std::vector<PortRef> refs{side.ctx->ref(port)};
            if (const auto link = side.ctx->linkOf(port)) refs.push_back(side.ctx->ref(side.ctx->peer(*link, port)));
            return refs;
        }
    }
    return {PortRef{"", o.nodeGuid, o.port}};
}

ChangeValues readings(const PortOptics& o) {
    ChangeValues v{{"module", opticIdentity(o)}};
    if (o.temperatureC) v.emplace_back("optic_temperature_c", *o.temperatureC);
    if (const auto lo = o.rxMinDbm()) v.emplace_back("optic_rx_min_dbm", numfmt::round(*lo));
    if (const auto lo = o.rxMinDbm(), hi = o.rxMaxDbm(); lo && hi) v.emplace_back("optic_rx_spread_db", numfmt::round(*hi - *lo));
    std::string flags;
    for (const std::string& a : o.alarms) flags += (flags.empty() ? "" : "; ") + a;
    v.emplace_back("optic_flags", flags.empty() ? std::string("none") : flags);
    return v;
}

void addReplaced(const Side& bad, const PortOptics& g, const PortOptics& b, std::vector<Change>& out) {
    Change c;
    c.kind = ChangeKind::Topology;
    c.ports = portsOf(bad, b);
    c.good = {{"module", opticIdentity(g)}};
    c.bad = {{"module", opticIdentity(b)}};
    c.summary = portLabel(c.ports.front()) + ": module replaced, " + opticIdentity(g) + " in the good run, " + opticIdentity(b) +
                " in the bad run";
    c.score = 10;  // a swap is what someone did, not yet harm: its readings tell
    out.push_back(std::move(c));
}

// The ways `b` is worse than `g` in words, and the score of the worst.
std::pair<std::string, double> worse(const PortOptics& g, const PortOptics& b, const OpticsConfig& config) {
    std::string what;
    double score = 0;
    auto add = [&](const std::string& clause, double s) {
        what += (what.empty() ? "" : "; ") + clause;
        score = std::max(score, s);
    };
    for (const std::string& flag : b.alarms)
        if (std::find(g.alarms.begin(), g.alarms.end(), flag) == g.alarms.end()) add("flag " + flag + " newly set", 55);
    if (const auto lg = g.rxMinDbm(), lb = b.rxMinDbm(); lg && lb && *lg - *lb >= config.rxLaneSpreadDb)
        add("weakest receive lane " + numfmt::num(*lg) + " dBm in the good run, " + numfmt::num(*lb) + " dBm in the bad (" +
                numfmt::num(*lg - *lb) + " dB less light)",
            50);
    const OpticConcerns cg = opticConcerns(g, config), cb = opticConcerns(b, config);
    if (cb.lanesApart && !cg.lanesApart)
        add("receive lanes now " + numfmt::num(*b.rxMaxDbm() - *b.rxMinDbm()) + " dB apart", 40);
    if (cb.nearAlarm && !cg.nearAlarm)
        add("now at " + numfmt::num(*b.temperatureC) + " °C, near its alarm at " + numfmt::num(*b.temperatureAlarmC) + " °C" +
                (g.temperatureC ? " (" + numfmt::num(*g.temperatureC) + " °C in the good run)" : std::string()),
            30);
    return {what, score};
}

} // namespace

void moduleChanges(const Side& good, const Side& bad, const OpticsConfig& config, std::vector<Change>& out) {
    if (!good.snapshotId || !bad.snapshotId) return;
    if (good.store == bad.store && *good.snapshotId == *bad.snapshotId) return;
    std::map<Key, PortOptics> before;
    for (PortOptics& o : loadPortOptics(*good.store, *good.snapshotId)) before.emplace(Key{o.nodeGuid, o.port}, std::move(o));
    if (before.empty()) return;
    for (const PortOptics& b : loadPortOptics(*bad.store, *bad.snapshotId)) {
        const auto it = before.find(Key{b.nodeGuid, b.port});
        if (it == before.end()) continue;  // read on one side only: nothing to compare
        const PortOptics& g = it->second;
        if (!g.serial.empty() && !b.serial.empty() && g.serial != b.serial) {
            addReplaced(bad, g, b, out);
            continue;  // another module: its readings are not the old one's getting worse
        }
        const auto [what, score] = worse(g, b, config);
        if (what.empty()) continue;
        Change c;
        c.kind = ChangeKind::Errors;
        c.ports = portsOf(bad, b);
        c.good = readings(g);
        c.bad = readings(b);
        c.summary = portLabel(c.ports.front()) + " module " + opticIdentity(b) + ": " + what;
        c.score = score;
        out.push_back(std::move(c));
    }
}

} // namespace fabscope::compare
