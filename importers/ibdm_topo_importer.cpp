#include "importers/ibdm_topo_importer.h"

#include "core/fabric_builder.h"
#include "core/linkrate.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <charconv>
#include <map>
#include <set>

namespace fabscope {
namespace {

struct Cable {
    std::string system, port, remoteType, remoteSystem, remotePort;
    std::optional<int> width;
    std::string speed = "???";
    std::int64_t line = 0;
};

// "-4x-5G->", "-4X->", "->": true for an arrow token, with what it says of the cable.
bool parseArrow(std::string_view tok, Cable& c, std::string& unknown) {
    if (tok.size() < 2 || tok.front() != '-' || !tok.ends_with("->")) return false;
    tok = tok == "->" ? std::string_view{} : tok.substr(1, tok.size() - 3);  // "4x-5G", "4X", ""
    while (!tok.empty()) {
        const auto dash = tok.find('-');
        const std::string_view part = tok.substr(0, dash);
        tok = dash == std::string_view::npos ? std::string_view{} : tok.substr(dash + 1);
        if (part.empty()) continue;
        if (const auto w = parseWidth(part)) {
            c.width = w;
            continue;
        }
        double gbps = 0;
        const auto digits = part.substr(0, part.size() - 1);
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), gbps);
        const auto speed = part.back() == 'G' && ec == std::errc{} && end == digits.data() + digits.size() ? ibSpeedOfLaneRate(gbps) : std::nullopt;
        if (speed) c.speed = *speed;
        else unknown = std::string(part);
    }
    return true;
}

// A front-panel port "P12" is port 12, named as ibnetdiscover names it; a chassis' "L2/P1" as written.
std::pair<std::string, int> portOf(std::string_view name) {
    if (name.size() > 1 && name.front() == 'P') {
        if (const auto n = parseU64(name.substr(1)); n && *n > 0 && *n < 1000) return {std::to_string(*n), static_cast<int>(*n)};
    }
    return {std::string(name), 0};
}

bool isArrowAt(const std::vector<std::string_view>& t, std::size_t i) {
    return t.size() == i + 4 && t[i].size() >= 2 && t[i].front() == '-' && t[i].ends_with("->");
}

} // namespace

int IbdmTopoImporter::detect(std::string_view head) const {
    head = wholeLines(head);
    int cables = 0, systems = 0;
    LineReader reader(head, nullptr);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto t = splitWhitespace(raw);
        if (t.empty() || t.front().front() == '#') continue;
        if (isArrowAt(t, 1)) ++cables;
        else if (raw.front() != ' ' && raw.front() != '\t' && (t.size() == 2 || (t.size() >= 3 && t[2] == "CFG:"))) ++systems;
        else return 0;  // a line that is neither: another format
    }
    if (cables >= 2 && systems >= 1) return 85;
    return cables >= 1 ? 40 : 0;
}

TopologyResult IbdmTopoImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    std::vector<Cable> cables;
    std::map<std::string, std::string> typeOf;  // system name -> its type as first declared
    std::string system;                         // the section's, empty outside one
    std::int64_t cfgLines = 0;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    auto declare = [&](const std::string& name, std::string_view type, std::int64_t line) {
        const auto [it, added] = typeOf.emplace(name, std::string(type));
        if (!added && it->second != type)
            diag.warn(line, "system " + name + " declared as " + std::string(type) + ", earlier as " + it->second + "; kept " + it->second);
    };
    while (reader.next(raw)) {
        const auto n = reader.number();
        auto t = splitWhitespace(raw);
        if (!t.empty() && t.front().front() == '#') continue;
        if (t.empty()) {  // a blank line closes the section
            system.clear();
            continue;
        }
        if (raw.find("->") == std::string_view::npos) {
            if (t.size() < 2 || (t.size() > 2 && t[2] != "CFG:"))
                diag.fail(n, "expected a system line 'SYSTEM-TYPE SYSTEM-NAME [CFG: ...]' or a cable 'PORT -> SYSTEM-TYPE SYSTEM-NAME PORT'");
            if (t.size() > 2) ++cfgLines;
            system = std::string(t[1]);
            declare(system, t[0], n);
            continue;
        }
        if (system.empty()) diag.fail(n, "a cable outside a system section: the system line 'SYSTEM-TYPE SYSTEM-NAME' comes first");
        Cable c;
        std::string unknown;
        if (!isArrowAt(t, 1) || !parseArrow(t[1], c, unknown))
            diag.fail(n, "expected a cable 'PORT -> SYSTEM-TYPE SYSTEM-NAME PORT' (or 'PORT -4x-25G-> ...')");
        if (!unknown.empty()) diag.warn(n, "'" + unknown + "' in " + std::string(t[1]) + " is neither a width (4x) nor a lane rate (2.5G..200G); ignored");
        c.system = system;
        c.port = std::string(t[0]);
        c.remoteType = std::string(t[2]);
        c.remoteSystem = std::string(t[3]);
        c.remotePort = std::string(t[4]);
        c.line = n;
        declare(c.remoteSystem, c.remoteType, n);
        cables.push_back(std::move(c));
    }
    if (cables.empty()) diag.fail(0, "no cable line 'PORT -> SYSTEM-TYPE SYSTEM-NAME PORT' found");

    // The plan names no node types: a system with three or more cabled ports is a switch, and so
    // is every system of a type some switch has; the others (one or two ports) are adapters.
    std::map<std::string, std::set<std::string>> portsOf;
    for (const Cable& c : cables) {
        portsOf[c.system].insert(c.port);
        portsOf[c.remoteSystem].insert(c.remotePort);
    }
    std::set<std::string> switchTypes;
    for (const auto& [name, ports] : portsOf)
        if (ports.size() >= 3) switchTypes.insert(typeOf[name]);

    FabricBuilder b;
    auto nodeFor = [&](const std::string& name) {
        Node node;
        node.type = switchTypes.count(typeOf[name]) ? NodeType::Switch : NodeType::Ca;
        node.description = name;
        node.systemName = name;
        return b.node(node);
    };
    auto portFor = [&](const std::string& name, const std::string& port) {
        const auto [portName, number] = portOf(port);
        const PortId p = b.port(nodeFor(name), portName, number);
        b.portRef(p).state = PortState::Active;  // a planned cable is taken as up, so routes and what-if use it
        return p;
    };
    for (const auto& [name, type] : typeOf) nodeFor(name);  // declared systems, cabled or not
    using Report = FabricBuilder::LinkReport;
    for (const Cable& c : cables) {
        switch (b.link(portFor(c.system, c.port), portFor(c.remoteSystem, c.remotePort), c.width, c.speed)) {
        case Report::Conflict:
            diag.warn(c.line, c.system + " " + c.port + " or " + c.remoteSystem + " " + c.remotePort + " is planned with another cable already; kept the first");
            break;
        case Report::WidthMismatch: diag.warn(c.line, "the two ends of this cable are planned with different width/speed; kept the lower"); break;
        case Report::Loop: diag.warn(c.line, "a port planned as cabled to itself; ignored"); break;
        default: break;
        }
    }
    TopologyResult r;
    r.fabric = b.take();
    if (cfgLines > 0)
        diag.info(0, std::to_string(cfgLines) + " system lines carry a CFG: board list (boards left out of a chassis); not read");
    return r;
}

} // namespace fabscope
