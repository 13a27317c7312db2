#include "importers/ibnetdiscover_ports_importer.h"

#include "core/fabric_builder.h"
#include "core/linkrate.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

namespace fabscope {
namespace {

// One side of a port line: "SW  1719 10 0x7cfe9003009ce5b0".
struct End {
    NodeType type = NodeType::Ca;
    int lid = 0, port = 0;
    std::string guid;  // port GUID; for a switch also its node GUID
};

struct Tokens {
    std::string_view s;
    std::size_t i = 0;
    std::string_view next() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const auto b = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        return s.substr(b, i - b);
    }
    [[nodiscard]] std::string_view rest() const { return trim(s.substr(std::min(i, s.size()))); }
};

std::optional<NodeType> typeOf(std::string_view t) {
    if (t == "SW") return NodeType::Switch;
    if (t == "CA") return NodeType::Ca;
    if (t == "RT") return NodeType::Router;
    return std::nullopt;
}

std::optional<End> parseEnd(Tokens& tk, std::string_view typeToken) {
    End e;
    const auto type = typeOf(typeToken);
    const auto lid = parseU64(tk.next());
    const auto port = parseU64(tk.next());
    const std::string_view guid = tk.next();
    if (!type || !lid || *lid > 0xffff || !port || *port > 255 || !guid.starts_with("0x")) return std::nullopt;
    e.type = *type;
    e.lid = static_cast<int>(*lid);
    e.port = static_cast<int>(*port);
    e.guid = normaliseGuid(guid);
    if (e.guid.empty()) return std::nullopt;
    return e;
}

// Descriptions are quoted with ' but not escaped; older versions print them bare.
std::string unquote(std::string_view s) {
    if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') return std::string(s.substr(1, s.size() - 2));
    return std::string(s);
}

class Parser {
public:
    Parser(const ImportInput& in, DiagnosticSink& diag) : in_(in), diag_(diag) {}

    void line(std::string_view raw, std::int64_t n) {
        line_ = n;
        const std::string_view l = trim(raw);
        if (l.empty()) return;
        Tokens tk{l};
        const auto first = tk.next();
        if (!typeOf(first)) {
            diag_.warn(n, "ignored a line that is not 'ibnetdiscover -p' output: " + std::string(l.substr(0, 60)));
            return;
        }
        const auto local = parseEnd(tk, first);
        if (!local) diag_.fail(n, "expected 'TYPE LID PORT 0xGUID' at the start of the line");
        std::string widthSpeed(tk.next());  // "4x" then "EDR": two statements, evaluated in order
        widthSpeed += tk.next();
        const auto ws = parseWidthSpeedToken(widthSpeed);
        const std::string_view rest = tk.rest();
        if (!rest.starts_with("- ")) {  // unconnected port: "... 4x ???   'desc'"
            const NodeId node = nodeFor(*local, unquote(rest));
            const PortId p = portFor(node, *local);
            builder_.portRef(p).state = PortState::Down;
            ++lines_;
            return;
        }
        Tokens rt{rest.substr(2)};
        const auto remote = parseEnd(rt, rt.next());
        if (!remote) diag_.fail(n, "expected 'TYPE LID PORT 0xGUID' after ' - '");
        std::string_view descs = rt.rest();
        if (!descs.starts_with("(") || !descs.ends_with(")")) diag_.fail(n, "expected \"( 'local' - 'remote' )\" at the end of the line");
        descs = trim(descs.substr(1, descs.size() - 2));
        auto sep = descs.find("' - '");
        std::string localDesc, remoteDesc;
        if (sep != std::string_view::npos) {
            localDesc = unquote(descs.substr(0, sep + 1));
            remoteDesc = unquote(descs.substr(sep + 4));
        } else if ((sep = descs.find(" - ")) != std::string_view::npos) {
            localDesc = unquote(descs.substr(0, sep));
            remoteDesc = unquote(descs.substr(sep + 3));
        } else {
            diag_.fail(n, "cannot split the two node descriptions");
        }
        if (!ws) diag_.warn(n, "unknown width/speed: kept as unknown");
        const NodeId ln = nodeFor(*local, localDesc);
        const NodeId rn = nodeFor(*remote, remoteDesc);
        const PortId lp = portFor(ln, *local);
        const PortId rp = portFor(rn, *remote);
        builder_.portRef(lp).state = PortState::Active;
        builder_.portRef(rp).state = PortState::Active;
        const std::optional<int> width = ws ? ws->width : std::nullopt;
        using Report = FabricBuilder::LinkReport;
        switch (builder_.link(lp, rp, width, ws ? ws->speed : std::string("???"))) {
        case Report::Conflict: diag_.warn(n, "port reported with two different neighbours; kept the first"); break;
        case Report::WidthMismatch: diag_.warn(n, "the two ends of this link report different width/speed; kept the lower capacity"); break;
        case Report::Loop: diag_.warn(n, "a port named as its own neighbour; link ignored"); break;
        default: break;
        }
        ++lines_;
    }

    TopologyResult finish() {
        if (lines_ == 0) diag_.fail(0, "no 'ibnetdiscover -p' port line found (expected 'SW  1719 10 0x... 4x EDR - CA ...')");
        TopologyResult r;
        r.fabric = builder_.take();
        return r;
    }

private:
    NodeId nodeFor(const End& e, const std::string& desc) {
        Node n;
        n.type = e.type;
        n.description = desc;
        n.guid = e.guid;
        // CA and router lines carry port GUIDs: the stored topology names their node.
        if (e.type != NodeType::Switch && in_.fabric)
            if (auto it = in_.fabric->byPortGuid.find(e.guid); it != in_.fabric->byPortGuid.end()) n.guid = it->second.first;
        if (e.type == NodeType::Switch) n.lid = e.lid;
        return builder_.node(n);
    }
    PortId portFor(NodeId node, const End& e) {
        const PortId p = builder_.port(node, std::to_string(e.port), e.port);
        Port& port = builder_.portRef(p);
        port.lid = e.lid;
        if (e.type != NodeType::Switch) port.portGuid = e.guid;
        Node& nd = builder_.nodeRef(node);
        nd.numPorts = std::max(nd.numPorts, e.port);
        return p;
    }

    const ImportInput& in_;
    DiagnosticSink& diag_;
    FabricBuilder builder_;
    std::int64_t line_ = 0;
    std::size_t lines_ = 0;
};

} // namespace

int IbnetdiscoverPortsImporter::detect(std::string_view head) const {
    LineReader r(head);
    std::string_view l;
    int hits = 0, lines = 0;
    while (r.next(l) && lines < 20) {
        l = trim(l);
        if (l.empty()) continue;
        ++lines;
        Tokens tk{l};
        const auto t = tk.next();
        if (typeOf(t) && parseEnd(tk, t)) ++hits;
    }
    return hits == 0 ? 0 : std::min(100, 50 + 10 * hits);
}

TopologyResult IbnetdiscoverPortsImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    Parser p(in, diag);
    LineReader reader(in.bytes, &progress);
    std::string_view line;
    while (reader.next(line)) {
        p.line(line, reader.number());
    }
    return p.finish();
}

} // namespace fabscope
