#include "importers/ibdiagnet_cables_importer.h"

#include "core/fabric_builder.h"
#include "importers/ibdiagnet_folder.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <charconv>
#include <cmath>
#include <map>

namespace fabscope {
namespace {

// "Port=1 Lid=0x0018 GUID=0xb0cf0e0300e5b940 Port Name=S.../P1/1/1"
struct PortLine {
    std::string guid;
    std::string port;
};

std::optional<PortLine> parsePortLine(std::string_view l) {
    const auto lid = l.find(" Lid="), guid = l.find(" GUID=");
    if (lid == std::string_view::npos || guid == std::string_view::npos || guid < lid) return std::nullopt;
    const auto number = parseU64(l.substr(5, lid - 5));
    const std::string_view g = l.substr(guid + 6, l.find(' ', guid + 6) - (guid + 6));
    PortLine p{normaliseGuid(g), number ? std::to_string(*number) : std::string()};
    if (!number || *number == 0 || *number > 255 || p.guid.empty()) return std::nullopt;
    return p;
}

// The leading number of "58C", "7.242 mA", "-3.010 dBm"; nullopt for "N/A", "NA", "inf".
std::optional<double> leadingNumber(std::string_view s) {
    s = trim(s);
    double v = 0;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc{} || !std::isfinite(v)) return std::nullopt;
    return v;
}

// "1.585 mW, 2.000 dBm": the dBm figure; none when the mW figure says there is no reading
// (-999.999 mW beside 0.000 dBm, or inf mW beside 65496 dBm).
std::optional<double> powerDbm(std::string_view s) {
    const auto comma = s.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    const auto mw = leadingNumber(s.substr(0, comma));
    if (!mw || *mw < 0) return std::nullopt;
    const auto dbm = leadingNumber(s.substr(comma + 1));
    if (!dbm || *dbm < -60 || *dbm > 30) return std::nullopt;
    return dbm;
}

// "RX3 Power" -> ("RX", 3, "Power"); lane 0 when the key is not a lane's.
struct LaneKey {
    std::string_view prefix;
    unsigned lane = 0;
    std::string_view what;
};
LaneKey laneKey(std::string_view key) {
    if (key.size() < 4 || !(key.starts_with("RX") || key.starts_with("TX"))) return {};
    unsigned lane = 0;
    const auto res = std::from_chars(key.data() + 2, key.data() + key.size(), lane);
    if (res.ec != std::errc{} || lane == 0 || lane > 16 || res.ptr == key.data() + key.size() || *res.ptr != ' ') return {};
    return {key.substr(0, 2), lane, trim(std::string_view(res.ptr, static_cast<std::size_t>(key.data() + key.size() - res.ptr)))};
}

void setLane(std::vector<std::optional<double>>& lanes, unsigned lane, std::optional<double> v) {
    if (lanes.size() < lane) lanes.resize(lane);
    lanes[lane - 1] = v;
}

// Keys that hold latched alarm, warning, loss or fault flags as hex.
bool isFlagKey(std::string_view key) {
    return key.find("Alarm and Warning") != std::string_view::npos || key.ends_with("Indicator") || key.ends_with("Fault");
}

std::string collapsedSpaces(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
    return out;
}

// A module without monitoring (a passive copper cable) reports 0C against a 0C alarm threshold,
// 0 mA of bias and flags that mean nothing: its readings are dropped, its identity kept.
void dropUnmonitored(PortOptics& o) {
    if (!o.temperatureC || *o.temperatureC != 0 || (o.temperatureAlarmC && *o.temperatureAlarmC != 0)) return;
    o.temperatureC.reset();
    o.temperatureAlarmC.reset();
    o.rxPowerDbm.clear();
    o.txPowerDbm.clear();
    o.txBiasMa.clear();
    o.alarms.clear();
}

void apply(PortOptics& o, std::string_view key, std::string_view value) {
    static const std::map<std::string_view, std::string PortOptics::*> kText{
        {"Vendor", &PortOptics::vendor}, {"PN", &PortOptics::partNumber}, {"SN", &PortOptics::serial},
        {"Type", &PortOptics::type},     {"Length", &PortOptics::length}, {"FW Version", &PortOptics::firmware}};
    if (const auto it = kText.find(key); it != kText.end()) {
        o.*(it->second) = value == "NA" || value == "N/A" ? std::string() : std::string(value);
    } else if (key == "Temperature") {
        o.temperatureC = leadingNumber(value);
    } else if (key == "AlarmTemperatureHighThresh") {
        o.temperatureAlarmC = leadingNumber(value);
    } else if (const LaneKey lk = laneKey(key); lk.lane != 0) {
        if (lk.what == "Power") setLane(lk.prefix == "RX" ? o.rxPowerDbm : o.txPowerDbm, lk.lane, powerDbm(value));
        else if (lk.prefix == "TX" && lk.what == "Bias") setLane(o.txBiasMa, lk.lane, leadingNumber(value));
    } else if (isFlagKey(key)) {
        if (const auto flags = parseU64(value); flags && *flags != 0) o.alarms.push_back(collapsedSpaces(key) + " " + std::string(value));
    }
}

} // namespace

int IbdiagnetCablesImporter::detect(std::string_view head) const {
    // ibdiagnet2.pm opens its blocks with the same "Port=.. Lid=.. GUID=.." lines, then
    // "counter=0x.." ones: a module's "Key: Value" lines are what tell the two apart.
    const bool portLines = (head.starts_with("Port=") || head.find("\nPort=") != std::string_view::npos) &&
                           head.find(" Lid=0x") != std::string_view::npos && head.find(" GUID=0x") != std::string_view::npos;
    int keys = 0;
    for (std::string_view key : {"\nVendor: ", "\nIdentifier: ", "\nSource: PHY_", "\nTemperature: ", "\nPN: "})
        keys += head.find(key) != std::string_view::npos;
    if (!portLines || keys == 0) return 0;
    return 70 + 5 * keys + (head.find("automatically generated by IBDIAG") != std::string_view::npos ? 5 : 0);
}

TopologyResult IbdiagnetCablesImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    TopologyResult r;
    std::map<std::pair<std::string, std::string>, std::size_t> at;  // (GUID, port) -> index in r.optics
    PortOptics* current = nullptr;
    auto finish = [&] {
        if (current) dropUnmonitored(*current);
    };
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto n = reader.number();
        const std::string_view l = trim(raw);
        if (l.empty() || l.find_first_not_of('-') == std::string_view::npos) continue;
        if (l.front() == '#') {
            if (const auto colon = l.find(':'); colon != std::string_view::npos && trim(l.substr(1, colon - 1)) == "Running timestamp")
                r.time = parseIbdiagnetDate(trim(l.substr(colon + 1)));
            continue;
        }
        if (l.starts_with("Port=")) {
            finish();
            const auto p = parsePortLine(l);
            if (!p) diag.fail(n, "expected 'Port=<1-255> Lid=0x.. GUID=0x<hex> Port Name=..', got '" + std::string(l.substr(0, 80)) + "'");
            auto [it, added] = at.try_emplace({p->guid, p->port}, r.optics.size());
            if (added) r.optics.push_back({});
            else diag.warn(n, "port " + p->port + " of " + p->guid + " appears again: this block replaces the earlier one");
            current = &r.optics[it->second];
            *current = PortOptics{};
            current->nodeGuid = p->guid;
            current->port = p->port;
            current->line = n;
            continue;
        }
        const auto colon = l.find(':');
        if (colon == std::string_view::npos) diag.fail(n, "expected 'Key: Value' or 'Port=..', got '" + std::string(l.substr(0, 80)) + "'");
        if (!current) diag.fail(n, "module data before any 'Port=.. GUID=..' line");
        apply(*current, trim(l.substr(0, colon)), trim(l.substr(colon + 1)));
    }
    finish();
    if (r.optics.empty()) diag.fail(1, "no 'Port=N Lid=0x.. GUID=0x..' block: not an ibdiagnet2.cables file");
    return r;
}

} // namespace fabscope
