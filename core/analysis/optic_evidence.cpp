#include "core/analysis/optic_evidence.h"

#include "core/analysis/context.h"
#include "core/analysis/format.h"

#include <map>

namespace fabscope {
namespace {

bool aboutLinkHealth(FindingKind k) {
    return k == FindingKind::ErrorLink || k == FindingKind::LinkFlap || k == FindingKind::DegradedLink;
}

} // namespace

OpticConcerns opticConcerns(const PortOptics& o, const OpticsConfig& config) {
    OpticConcerns c;
    c.nearAlarm = o.temperatureC && o.temperatureAlarmC && *o.temperatureAlarmC > 0 &&
                  *o.temperatureC >= *o.temperatureAlarmC - config.temperatureMarginC;
    const auto lo = o.rxMinDbm(), hi = o.rxMaxDbm();
    c.lanesApart = lo && hi && *hi - *lo >= config.rxLaneSpreadDb;
    c.flagged = !o.alarms.empty();
    return c;
}

std::string opticIdentity(const PortOptics& o) {
    std::string s = o.vendor;
    for (const std::string* part : {&o.partNumber, &o.type})
        if (!part->empty()) s += (s.empty() ? "" : " ") + *part;
    if (!o.serial.empty()) s += " SN " + o.serial;
    return s.empty() ? "unnamed module" : s;
}

std::string opticConcernText(const PortOptics& o, const OpticsConfig& config) {
    const OpticConcerns c = opticConcerns(o, config);
    std::string s;
    auto add = [&s](const std::string& clause) { s += (s.empty() ? "" : ", ") + clause; };
    if (c.nearAlarm) add("at " + numfmt::num(*o.temperatureC) + " °C (its alarm " + numfmt::num(*o.temperatureAlarmC) + " °C)");
    if (c.lanesApart)
        add("receive lanes " + numfmt::num(*o.rxMaxDbm() - *o.rxMinDbm()) + " dB apart (" + numfmt::num(*o.rxMinDbm()) + " to " +
            numfmt::num(*o.rxMaxDbm()) + " dBm)");
    for (const std::string& flag : o.alarms) add("flag " + flag);
    return s;
}

void addOpticEvidence(const std::vector<PortOptics>& optics, const OpticsConfig& config, std::vector<Finding>& findings) {
    if (optics.empty()) return;
    std::map<std::pair<std::string, std::string>, const PortOptics*> byPort;
    for (const PortOptics& o : optics) byPort[{o.nodeGuid, o.port}] = &o;
    for (Finding& f : findings) {
        if (!aboutLinkHealth(f.kind)) continue;
        std::optional<double> hottest, alarmOfHottest, rxMin, rxSpread;
        std::string modules, clauses;
        for (const PortRef& p : f.ports) {
            const auto it = byPort.find({p.guid, p.port});
            if (it == byPort.end()) continue;
            const PortOptics& o = *it->second;
            const std::string label = AnalysisContext::label(p);
            modules += (modules.empty() ? "" : "; ") + label + ": " + opticIdentity(o);
            if (o.temperatureC && (!hottest || *o.temperatureC > *hottest)) {
                hottest = o.temperatureC;
                alarmOfHottest = o.temperatureAlarmC;
            }
            if (const auto lo = o.rxMinDbm(), hi = o.rxMaxDbm(); lo && hi) {
                if (!rxMin || *lo < *rxMin) rxMin = lo;
                if (!rxSpread || *hi - *lo > *rxSpread) rxSpread = *hi - *lo;
            }
            if (const std::string n = opticConcernText(o, config); !n.empty()) clauses += "; " + label + " module " + n;
        }
        if (modules.empty()) continue;
        f.metrics.emplace_back("optic_modules", modules);
        if (hottest) f.metrics.emplace_back("optic_temperature_c", *hottest);
        if (hottest && alarmOfHottest) f.metrics.emplace_back("optic_temperature_alarm_c", *alarmOfHottest);
        if (rxMin) f.metrics.emplace_back("optic_rx_min_dbm", *rxMin);
        if (rxSpread) f.metrics.emplace_back("optic_rx_spread_db", *rxSpread);
        f.summary += clauses;
    }
}

} // namespace fabscope
