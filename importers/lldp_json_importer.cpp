#include "importers/lldp_json_importer.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace fabscope {
namespace {
using json = nlohmann::json;

// Line of the byte offset `pos` (1-based).
std::int64_t lineAt(std::string_view bytes, std::size_t pos) {
    pos = std::min(pos, bytes.size());
    return 1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
}

// The line where `"key"` first appears, for diagnostics about a JSON member.
std::int64_t lineOfKey(std::string_view bytes, const std::string& key) {
    const auto at = bytes.find("\"" + key + "\"");
    return at == std::string_view::npos ? 1 : lineAt(bytes, at);
}

// json0 wraps every value in a one-element list: [{"value": "x"}] / [{...}].
const json& unwrap(const json& j) {
    const json* p = &j;
    while (p->is_array() && !p->empty()) p = &(*p)[0];
    return *p;
}

// "x", {"value": "x"}, [{"value": "x"}] -> "x"; numbers and booleans as text.
std::string text(const json& j) {
    const json& u = unwrap(j);
    if (u.is_string()) return u.get<std::string>();
    if (u.is_number_integer()) return std::to_string(u.get<std::int64_t>());
    if (u.is_object()) {
        if (auto it = u.find("value"); it != u.end()) return text(*it);
    }
    return {};
}

std::string member(const json& obj, const char* key) {
    if (!obj.is_object()) return {};
    auto it = obj.find(key);
    return it == obj.end() ? std::string() : text(*it);
}

// One (interface name, neighbour object) per neighbour, whatever the shape:
//   {"eth0": {...}}                      one interface (json)
//   {"eth0": {...}, "eth1": {...}}       several keys in one object
//   [{"eth0": {...}}, {"eth1": {...}}]   list form (json, many interfaces or neighbours)
//   [{"name": "eth0", ...}, ...]         json0
void collectInterfaces(const json& iface, std::vector<std::pair<std::string, const json*>>& out) {
    if (iface.is_array()) {
        for (const auto& e : iface) collectInterfaces(e, out);
        return;
    }
    if (!iface.is_object()) return;
    if (auto n = iface.find("name"); n != iface.end() && n->is_string() &&
                                     (iface.contains("chassis") || iface.contains("port") || iface.contains("via"))) {
        out.emplace_back(n->get<std::string>(), &iface);
        return;
    }
    for (const auto& [name, value] : iface.items()) {
        if (value.is_array()) {  // the same interface with several neighbours
            for (const auto& v : value)
                if (v.is_object()) out.emplace_back(name, &v);
        } else if (value.is_object()) {
            out.emplace_back(name, &value);
        }
    }
}

bool looksLikeChassisBody(const json& j) {
    return j.contains("id") || j.contains("descr") || j.contains("mgmt-ip") || j.contains("capability") ||
           j.contains("name");
}

// {"spine01": {"id": ..}} (named), {"id": ..} (unnamed), json0 [{"id": [..], "name": [..]}].
LldpChassis readChassis(const json& raw) {
    LldpChassis c;
    const json& j = unwrap(raw);
    if (!j.is_object()) return c;
    const json* body = &j;
    if (!looksLikeChassisBody(j) && j.size() == 1 && j.begin().value().is_object()) {
        c.name = j.begin().key();
        body = &j.begin().value();
    }
    if (c.name.empty()) c.name = member(*body, "name");
    if (auto id = body->find("id"); id != body->end()) c.id = member(unwrap(*id), "value");
    if (auto cap = body->find("capability"); cap != body->end()) {
        auto one = [&](const json& e) {
            if (!e.is_object()) return;
            const std::string type = member(e, "type");
            const auto en = e.find("enabled");
            const bool enabled = en == e.end() || (en->is_boolean() ? en->get<bool>() : text(*en) == "true" || text(*en) == "on");
            if (!enabled) return;
            if (type == "Bridge") c.bridge = true;
            if (type == "Router") c.router = true;
            if (type == "Station") c.station = true;
        };
        if (cap->is_array())
            for (const auto& e : *cap) one(e);
        else
            one(*cap);
    }
    return c;
}

// The port id (type, value) and description of a neighbour's port object.
void readPort(const json& raw, LldpNeighbour& nb) {
    const json& p = unwrap(raw);
    if (!p.is_object()) return;
    if (auto id = p.find("id"); id != p.end()) {
        const json& idv = unwrap(*id);
        nb.portIdType = member(idv, "type");
        nb.portId = idv.is_string() ? idv.get<std::string>() : member(idv, "value");
    }
    nb.portDescr = member(p, "descr");
    if (auto an = p.find("auto-negotiation"); an != p.end()) nb.portMau = member(unwrap(*an), "current");
}

} // namespace

int LldpJsonImporter::detect(std::string_view head) const {
    const auto b = head.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos || head[b] != '{') return 0;
    int score = 0;
    if (head.find("\"lldp\"") != std::string_view::npos) score += 70;
    if (head.find("\"local-chassis\"") != std::string_view::npos) score += 70;
    if (head.find("\"interface\"") != std::string_view::npos) score += 10;
    if (head.find("\"chassis\"") != std::string_view::npos) score += 10;
    return std::min(score, 95);
}

TopologyResult LldpJsonImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    json doc;
    try {
        doc = json::parse(in.bytes.begin(), in.bytes.end());
    } catch (const json::parse_error& e) {
        diag.fail(lineAt(in.bytes, e.byte > 0 ? e.byte - 1 : 0), std::string("not valid JSON: ") + e.what());
    } catch (const json::exception& e) {  // e.g. a number out of range
        diag.fail(1, std::string("unreadable JSON: ") + e.what());
    }
    if (!doc.is_object()) diag.fail(1, "lldpctl JSON must be an object with an \"lldp\" member");
    const auto lldpIt = doc.find("lldp");
    const auto localIt = doc.find("local-chassis");
    if (lldpIt == doc.end() && localIt == doc.end())
        diag.fail(1, "no \"lldp\" member: not `lldpctl -f json` output");

    // The local system: `lldpcli show chassis` output merged in the file, else the file name.
    LldpChassis local;
    if (localIt != doc.end()) {
        const json& lc = unwrap(*localIt);
        local = readChassis(lc.is_object() && lc.contains("chassis") ? lc["chassis"] : lc);
    }
    if (local.name.empty() && lldpIt != doc.end()) {
        const json& l = unwrap(*lldpIt);
        if (l.is_object())
            if (auto lc = l.find("local-chassis"); lc != l.end()) {
                const json& u = unwrap(*lc);
                local = readChassis(u.is_object() && u.contains("chassis") ? u["chassis"] : u);
            }
    }
    if (local.name.empty()) local.name = systemNameFromFileName(in.file);
    if (local.name.empty()) diag.fail(1, "no local system name in the file and none in the file name");

    std::vector<std::pair<std::string, const json*>> neighbours;
    if (lldpIt != doc.end()) {
        const json& lldp = *lldpIt;
        const std::vector<const json*> roots = [&] {
            std::vector<const json*> r;
            if (lldp.is_array())
                for (const auto& e : lldp) r.push_back(&e);
            else
                r.push_back(&lldp);
            return r;
        }();
        for (const json* r : roots) {
            if (!r->is_object()) diag.fail(lineOfKey(in.bytes, "lldp"), "\"lldp\" must be an object");
            if (auto it = r->find("interface"); it != r->end()) collectInterfaces(*it, neighbours);
        }
    }
    std::vector<LldpNeighbour> parsed;
    parsed.reserve(neighbours.size());
    for (const auto& [ifname, nbp] : neighbours) {
        LldpNeighbour nb;
        nb.localPort = ifname;
        nb.line = lineOfKey(in.bytes, ifname);
        const auto ch = nbp->find("chassis");
        const auto pt = nbp->find("port");
        nb.hasChassis = ch != nbp->end();
        nb.hasPort = pt != nbp->end();
        if (nb.hasChassis) nb.chassis = readChassis(*ch);
        if (nb.hasPort) readPort(*pt, nb);
        parsed.push_back(std::move(nb));
    }
    TopologyResult r;
    r.fabric = buildLldpFabric(local, parsed, diag, progress);
    return r;
}

} // namespace fabscope
