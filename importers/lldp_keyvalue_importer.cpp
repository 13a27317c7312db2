#include "importers/lldp_keyvalue_importer.h"

#include "importers/line_reader.h"
#include "importers/lldp_fabric.h"

#include <array>

namespace fabscope {
namespace {

// The attributes lldpd prints right under an interface; the interface name is what comes before
// the first of them (so `lldp.eth0.100.chassis.name` is interface `eth0.100`).
constexpr std::array<std::string_view, 11> kSections{"via", "rid", "age", "chassis", "port", "vlan", "ppvid",
                                                     "pi", "lldp-med", "unknown-tlvs", "ttl"};

struct Key {
    std::string_view iface;  // "eth0"
    std::string_view path;   // "chassis.name"
};

// "eth0.100.chassis.name" -> {"eth0.100", "chassis.name"}; nullopt when no known section follows.
std::optional<Key> splitKey(std::string_view rest) {
    std::size_t best = std::string_view::npos;
    for (std::string_view sec : kSections) {
        for (std::size_t at = rest.find('.'); at != std::string_view::npos; at = rest.find('.', at + 1)) {
            const auto tail = rest.substr(at + 1);
            if (tail.starts_with(sec) && (tail.size() == sec.size() || tail[sec.size()] == '.')) {
                if (at < best) best = at;
                break;
            }
        }
    }
    if (best == std::string_view::npos || best == 0) return std::nullopt;
    return Key{rest.substr(0, best), rest.substr(best + 1)};
}

// Chassis and port ids are printed under their type: chassis.mac=..., port.ifname=...
constexpr std::array<std::string_view, 6> kIdTypes{"mac", "ifname", "local", "ip", "ifalias", "unhandled"};

bool isIdType(std::string_view s) {
    for (auto t : kIdTypes)
        if (s == t) return true;
    return false;
}

// chassis.<field>=value into a chassis (a neighbour's or the local one).
void chassisField(std::string_view field, std::string_view value, LldpChassis& c) {
    if (field == "name") c.name = std::string(value);
    else if (isIdType(field)) c.id = std::string(value);
    else if (field.ends_with(".enabled")) {
        const bool on = value == "on" || value == "yes" || value == "true";
        const auto cap = field.substr(0, field.size() - 8);
        if (cap == "Bridge") c.bridge = on;
        if (cap == "Router") c.router = on;
        if (cap == "Station") c.station = on;
    }
}

} // namespace

int LldpKeyvalueImporter::detect(std::string_view head) const {
    LineReader r(head);
    std::string_view l;
    int good = 0, other = 0;
    while (r.next(l) && r.number() < 200) {
        const auto t = trim(l);
        if (t.empty()) continue;
        const auto eq = t.find('=');
        if ((t.starts_with("lldp.") || t.starts_with("local-chassis.")) && eq != std::string_view::npos)
            ++good;
        else if (good == 0)
            ++other;
    }
    if (good == 0 || other > 2) return 0;
    return good >= 2 ? 90 : 60;
}

TopologyResult LldpKeyvalueImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    LldpChassis local;
    std::vector<LldpNeighbour> neighbours;
    bool localRecord = false;  // the current record is a local port of `show interfaces` (via=unknown)
    std::int64_t strays = 0, strayLine = 0, keyLines = 0;
    LineReader reader(in.bytes, &progress, 0.5);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto l = trim(raw);
        if (l.empty() || l.starts_with('#')) continue;
        const auto eq = l.find('=');
        const auto key = eq == std::string_view::npos ? l : l.substr(0, eq);
        const auto value = eq == std::string_view::npos ? std::string_view{} : trim(l.substr(eq + 1));
        if (eq != std::string_view::npos && key.starts_with("local-chassis.chassis.")) {  // `lldpcli show chassis`
            chassisField(key.substr(22), value, local);
            ++keyLines;
            continue;
        }
        const auto k = eq != std::string_view::npos && key.starts_with("lldp.") ? splitKey(key.substr(5)) : std::nullopt;
        if (!k) {  // continuation of a multi-line value (descriptions), or not lldpctl output
            if (keyLines == 0) diag.fail(reader.number(), "not an `lldp.<interface>.<attribute>=<value>` line: " +
                                                              std::string(l.substr(0, 60)));
            if (strays++ == 0) strayLine = reader.number();
            continue;
        }
        ++keyLines;
        // A neighbour starts with its `via` line, or when the interface changes.
        if (k->path == "via" || (!localRecord && (neighbours.empty() || neighbours.back().localPort != k->iface))) {
            localRecord = k->path == "via" && value == "unknown";
            if (!localRecord) {
                neighbours.emplace_back();
                neighbours.back().localPort = std::string(k->iface);
                neighbours.back().line = reader.number();
            }
        }
        const auto path = k->path;
        if (localRecord) {  // `lldpcli show interfaces`: the local chassis, no neighbour
            if (path.starts_with("chassis.")) chassisField(path.substr(8), value, local);
            continue;
        }
        LldpNeighbour& nb = neighbours.back();
        if (path.starts_with("chassis.")) {
            nb.hasChassis = true;
            chassisField(path.substr(8), value, nb.chassis);
        } else if (path.starts_with("port.")) {
            nb.hasPort = true;
            const auto field = path.substr(5);
            if (field == "descr") nb.portDescr = std::string(value);
            else if (field == "auto-negotiation.current") nb.portMau = std::string(value);
            else if (isIdType(field)) {
                nb.portIdType = std::string(field);
                nb.portId = std::string(value);
            }
        }
    }
    if (keyLines == 0) diag.fail(0, "no `lldp.<interface>.<attribute>=<value>` line: not `lldpctl -f keyvalue` output");
    if (strays)
        diag.warn(strayLine, std::to_string(strays) + " line(s) without `lldp.<interface>.` taken as continuations of a "
                                                    "multi-line value and ignored");
    if (local.name.empty()) local.name = systemNameFromFileName(in.file);
    if (local.name.empty()) diag.fail(0, "no local system name in the file and none in the file name");
    const ProgressFn second = progress ? ProgressFn([&](double f) { return progress(0.5 + f * 0.5); }) : ProgressFn{};
    TopologyResult r;
    r.fabric = buildLldpFabric(local, neighbours, diag, second);
    return r;
}

} // namespace fabscope
