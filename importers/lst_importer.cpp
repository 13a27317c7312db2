#include "importers/lst_importer.h"

#include "core/fabric_builder.h"
#include "core/linkrate.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

namespace fabscope {
namespace {

struct Endpoint {
    NodeType type = NodeType::Ca;
    std::string nodeGuid, portGuid, desc;
    int ports = 0, lid = 0, port = 0;
};

// "{ SW Ports:08 SystemGUID:.. NodeGUID:.. PortGUID:.. VenID:.. DevID:.. Rev:.. {desc} LID:0002 PN:05 }"
// starting at s[i] == '{'; advances i past the closing brace. The description may hold spaces.
std::optional<Endpoint> parseEndpoint(std::string_view s, std::size_t& i) {
    if (i >= s.size() || s[i] != '{') return std::nullopt;
    const auto descOpen = s.find('{', i + 1);
    const auto close = s.find('}', i + 1);
    if (close == std::string_view::npos) return std::nullopt;
    Endpoint e;
    std::string_view fields;
    std::size_t end = close;
    if (descOpen != std::string_view::npos && descOpen < close) {  // nested {desc}
        const auto descClose = s.find('}', descOpen);
        end = s.find('}', descClose + 1);
        if (end == std::string_view::npos) return std::nullopt;
        e.desc = std::string(s.substr(descOpen + 1, descClose - descOpen - 1));
        fields = std::string_view(s.data() + i + 1, descOpen - i - 1);
        const std::string_view after = s.substr(descClose + 1, end - descClose - 1);
        // LID and PN follow the description.
        for (std::string_view part : {fields, after}) {
            std::size_t k = 0;
            while (k < part.size()) {
                while (k < part.size() && part[k] == ' ') ++k;
                const auto b = k;
                while (k < part.size() && part[k] != ' ') ++k;
                const std::string_view tok = part.substr(b, k - b);
                const auto colon = tok.find(':');
                const std::string_view key = tok.substr(0, colon), val = colon == std::string_view::npos ? "" : tok.substr(colon + 1);
                if (colon == std::string_view::npos) {
                    if (tok == "SW") e.type = NodeType::Switch;
                    else if (tok.starts_with("CA")) e.type = NodeType::Ca;  // "CA-SM": the subnet manager's CA
                    else if (tok.starts_with("RT")) e.type = NodeType::Router;
                } else if (key == "NodeGUID") e.nodeGuid = normaliseGuid(val);
                else if (key == "PortGUID") e.portGuid = normaliseGuid(val);
                else if (key == "Ports" || key == "LID" || key == "PN") {
                    const auto v = parseU64("0x" + std::string(val));  // all hex in LST
                    if (!v || *v > 0xffff) return std::nullopt;
                    (key == "Ports" ? e.ports : key == "LID" ? e.lid : e.port) = static_cast<int>(*v);
                }
            }
        }
    } else {
        return std::nullopt;
    }
    i = end + 1;
    if (e.nodeGuid.empty() || e.port == 0) return std::nullopt;
    return e;
}

// SPD=2.5/5/10/14/25/50/100/200 (Gb/s per lane) or a speed name.
std::string speedFrom(std::string_view v) {
    struct S { std::string_view code, name; };
    for (const S s : {S{"2.5", "SDR"}, S{"5", "DDR"}, S{"10", "QDR"}, S{"14", "FDR"}, S{"25", "EDR"}, S{"50", "HDR"},
                      S{"100", "NDR"}, S{"200", "XDR"}, S{"FDR10", "FDR10"}})
        if (v == s.code || v == s.name) return std::string(s.name);
    return laneRateGbps(v) ? std::string(v) : std::string("???");
}

} // namespace

int LstImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find("NodeGUID:") != std::string_view::npos && head.find("PortGUID:") != std::string_view::npos) score += 50;
    if (head.find(" PN:") != std::string_view::npos) score += 20;
    if (head.find("PHY=") != std::string_view::npos && head.find("LOG=") != std::string_view::npos) score += 30;
    return std::min(score, 100);
}

TopologyResult LstImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    FabricBuilder b;
    std::size_t lines = 0;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto n = reader.number();
        const std::string_view l = trim(raw);
        if (l.empty() || l.front() == '#') continue;
        if (l.front() != '{') {
            diag.warn(n, "ignored a line that is not an LST link: " + std::string(l.substr(0, 60)));
            continue;
        }
        std::size_t i = 0;
        const auto a = parseEndpoint(l, i);
        while (i < l.size() && l[i] == ' ') ++i;
        const auto z = a ? parseEndpoint(l, i) : std::nullopt;
        if (!a || !z) diag.fail(n, "expected two '{ SW|CA Ports:.. NodeGUID:.. ... {desc} LID:.. PN:.. }' endpoints");
        std::optional<int> width;
        std::string speed = "???";
        PortState state = PortState::Unknown;
        for (std::string_view rest = l.substr(i); !rest.empty();) {
            rest = trim(rest);
            const auto sp = rest.find(' ');
            const std::string_view tok = rest.substr(0, sp);
            rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp);
            if (tok.starts_with("PHY=")) width = parseWidth(tok.substr(4));
            else if (tok.starts_with("SPD=")) speed = speedFrom(tok.substr(4));
            else if (tok == "LOG=ACT") state = PortState::Active;
            else if (tok == "LOG=INI") state = PortState::Init;
            else if (tok == "LOG=ARM") state = PortState::Armed;
            else if (tok == "LOG=DWN") state = PortState::Down;
        }
        PortId ends[2];
        int k = 0;
        for (const Endpoint* e : {&*a, &*z}) {
            Node node;
            node.type = e->type;
            node.guid = e->nodeGuid;
            node.description = e->desc;
            node.numPorts = e->ports;
            if (e->type == NodeType::Switch) node.lid = e->lid;
            const NodeId id = b.node(node);
            const PortId p = b.port(id, std::to_string(e->port), e->port);
            Port& port = b.portRef(p);
            port.lid = e->lid;
            if (e->type != NodeType::Switch) port.portGuid = e->portGuid;
            port.state = state == PortState::Unknown ? PortState::Active : state;
            ends[k++] = p;
        }
        using Report = FabricBuilder::LinkReport;
        switch (b.link(ends[0], ends[1], width, speed)) {
        case Report::Conflict: diag.warn(n, "port reported with two different neighbours; kept the first"); break;
        case Report::WidthMismatch: diag.warn(n, "the two ends of this link report different width/speed; kept the lower capacity"); break;
        case Report::Loop: diag.warn(n, "a port named as its own neighbour; link ignored"); break;
        default: break;
        }
        ++lines;
    }
    if (lines == 0) diag.fail(0, "no LST link line found");
    TopologyResult r;
    r.fabric = b.take();
    return r;
}

} // namespace fabscope
