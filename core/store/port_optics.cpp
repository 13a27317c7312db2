// The store's pluggable-module readings per snapshot (schema v12, port_optics). See port_optics.h.
#include "core/store/port_optics.h"

#include "core/store/snapshot_devices.h"
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

#include <algorithm>
#include <charconv>

namespace fabscope {

namespace {

std::optional<double> extreme(const std::vector<std::optional<double>>& lanes, bool lowest) {
    std::optional<double> out;
    for (const auto& v : lanes)
        if (v && (!out || (lowest ? *v < *out : *v > *out))) out = v;
    return out;
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : "\n") + i;
    return s;
}

} // namespace

std::optional<double> PortOptics::rxMinDbm() const { return extreme(rxPowerDbm, true); }
std::optional<double> PortOptics::rxMaxDbm() const { return extreme(rxPowerDbm, false); }

std::string lanesText(const std::vector<std::optional<double>>& lanes) {
    std::string s;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (i) s += ',';
        if (!lanes[i]) {
            s += '-';  // not empty: a single lane without a reading must not read back as no lanes
            continue;
        }
        char buf[32];
        const auto res = std::to_chars(buf, buf + sizeof buf, *lanes[i]);
        s.append(buf, res.ptr);
    }
    return s;
}

std::vector<std::optional<double>> lanesFromText(const std::string& text) {
    std::vector<std::optional<double>> out;
    if (text.empty()) return out;
    std::size_t at = 0;
    for (;;) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        double v = 0;
        const auto res = std::from_chars(text.data() + at, text.data() + comma, v);
        out.push_back(comma > at && res.ec == std::errc{} ? std::optional<double>(v) : std::nullopt);
        if (comma == text.size()) break;
        at = comma + 1;
    }
    return out;
}

std::size_t writePortOptics(Store& store, std::int64_t snapshotId, const std::vector<PortOptics>& optics) {
    if (optics.empty()) return 0;
    SnapshotPorts ports(store.handle(), snapshotId);
    sql::Stmt ins(store.handle(), "INSERT OR REPLACE INTO port_optics VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)");
    std::size_t written = 0;
    for (const PortOptics& o : optics) {
        const auto at = ports.find(o.nodeGuid, o.port);
        if (!at) continue;
        ins.bind(1, snapshotId).bind(2, at->device).bind(3, at->port).bind(4, o.vendor).bind(5, o.partNumber).bind(6, o.serial)
            .bind(7, o.type).bind(8, o.length).bind(9, o.firmware);
        if (o.temperatureC) ins.bind(10, *o.temperatureC);
        else ins.bindNull(10);
        if (o.temperatureAlarmC) ins.bind(11, *o.temperatureAlarmC);
        else ins.bindNull(11);
        ins.bind(12, lanesText(o.rxPowerDbm)).bind(13, lanesText(o.txPowerDbm)).bind(14, lanesText(o.txBiasMa))
            .bind(15, joined(o.alarms)).bind(16, o.line).run();
        ++written;
    }
    return written;
}

std::vector<PortOptics> loadPortOptics(const Store& store, std::int64_t snapshotId) {
    std::vector<PortOptics> out;
    if (store.schemaVersion() < 12) return out;
    sql::Stmt s(store.handle(), "SELECT d.guid, o.port, o.vendor, o.part_number, o.serial, o.type, o.length, o.firmware, "
                                "o.temperature_c, o.temperature_alarm_c, o.rx_power_dbm, o.tx_power_dbm, o.tx_bias_ma, o.alarms, o.line "
                                "FROM port_optics o JOIN devices d ON d.id=o.device_id WHERE o.snapshot_id=?1 ORDER BY d.guid, o.port");
    s.bind(1, snapshotId);
    while (s.step()) {
        PortOptics o;
        o.nodeGuid = s.text(0);
        o.port = s.text(1);
        o.vendor = s.text(2);
        o.partNumber = s.text(3);
        o.serial = s.text(4);
        o.type = s.text(5);
        o.length = s.text(6);
        o.firmware = s.text(7);
        if (!s.isNull(8)) o.temperatureC = s.real(8);
        if (!s.isNull(9)) o.temperatureAlarmC = s.real(9);
        o.rxPowerDbm = lanesFromText(s.text(10));
        o.txPowerDbm = lanesFromText(s.text(11));
        o.txBiasMa = lanesFromText(s.text(12));
        for (std::string alarms = s.text(13); !alarms.empty();) {
            const auto nl = alarms.find('\n');
            o.alarms.push_back(alarms.substr(0, nl));
            alarms = nl == std::string::npos ? std::string() : alarms.substr(nl + 1);
        }
        o.line = s.integer(14);
        out.push_back(std::move(o));
    }
    return out;
}

} // namespace fabscope
