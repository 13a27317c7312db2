#include "importers/ibsim_net_importer.h"

#include "core/fabric_builder.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <optional>

namespace fabscope {
namespace {

// `Switch 8 "leaf01"` / `Hca 1 "gpu001 mlx5_0"`: type and id; nullopt for any other line.
struct Header {
    NodeType type = NodeType::Ca;
    int ports = 0;
    std::string id;
};
std::optional<Header> parseHeader(std::string_view l) {
    Header h;
    std::size_t i = 0;
    for (const auto& [word, type] : {std::pair{std::string_view("Switch"), NodeType::Switch}, std::pair{std::string_view("Hca"), NodeType::Ca},
                                     std::pair{std::string_view("Router"), NodeType::Router}})
        if (l.starts_with(word)) {
            h.type = type;
            i = word.size();
        }
    if (i == 0 || i >= l.size() || (l[i] != ' ' && l[i] != '\t')) return std::nullopt;
    const auto open = l.find('"', i), close = open == std::string_view::npos ? open : l.find('"', open + 1);
    if (close == std::string_view::npos) return std::nullopt;
    const auto ports = parseU64(trim(l.substr(i, open - i)));
    if (!ports || *ports == 0 || *ports > 255) return std::nullopt;
    h.ports = static_cast<int>(*ports);
    h.id = std::string(l.substr(open + 1, close - open - 1));
    return h;
}

// ibsim's PortInfo codes: w=1/2/4/8 -> 1x/4x/8x/12x; e (extended speed) 1/2/4/8 -> FDR/EDR/HDR/NDR,
// else s 1/2/4 -> SDR/DDR/QDR.
std::optional<int> widthOfCode(std::string_view v) {
    if (v == "1") return 1;
    if (v == "2") return 4;
    if (v == "4") return 8;
    if (v == "8") return 12;
    return std::nullopt;
}
std::string speedOf(std::string_view s, std::string_view e) {
    if (e == "1") return "FDR";
    if (e == "2") return "EDR";
    if (e == "4") return "HDR";
    if (e == "8") return "NDR";
    if (s == "1") return "SDR";
    if (s == "2") return "DDR";
    if (s == "4") return "QDR";
    return "???";
}

// A GUID id ("S-0008f10400410015") belongs to ibnetdiscover output, which ibsim also reads.
bool isGuidId(std::string_view id) { return id.size() > 2 && id[1] == '-' && parseU64("0x" + std::string(id.substr(2))).has_value(); }

} // namespace

int IbsimNetImporter::detect(std::string_view head) const {
    head = wholeLines(head);
    int headers = 0, ports = 0;
    LineReader reader(head, nullptr);
    std::string_view raw;
    while (reader.next(raw)) {
        const std::string_view l = trim(raw);
        if (l.empty() || l.front() == '#') continue;
        if (const auto h = parseHeader(l)) {
            if (isGuidId(h->id)) return 0;
            ++headers;
        } else if (l.front() == '[') {
            ++ports;
        } else {
            return 0;  // ibnetdiscover's vendid= lines, or another format
        }
    }
    return headers >= 1 && ports >= 1 ? 80 : 0;
}

TopologyResult IbsimNetImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    FabricBuilder b;
    std::optional<NodeId> current;
    struct Pending {
        NodeId local;
        int port = 0, remotePort = 0;
        std::string remote;
        std::optional<int> width;
        std::string speed;
        std::int64_t line = 0;
    };
    std::vector<Pending> pending;
    std::size_t headers = 0;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto n = reader.number();
        const std::string_view l = trim(raw);
        if (l.empty() || l.front() == '#') continue;
        if (const auto h = parseHeader(l)) {
            Node node;
            node.type = h->type;
            node.description = h->id;
            node.systemName = h->id;
            node.numPorts = h->ports;
            current = b.node(node);
            ++headers;
            continue;
        }
        if (l.front() != '[') diag.fail(n, "expected a node line 'Switch|Hca|Router PORTS \"id\"' or a port line '[N] \"id\"[M]'");
        if (!current) diag.fail(n, "a port line before any node line");
        // [local] "remote"[remote] [w=.. s=.. e=..]
        const auto close = l.find(']'), q1 = l.find('"'), q2 = q1 == std::string_view::npos ? q1 : l.find('"', q1 + 1);
        const auto open2 = q2 == std::string_view::npos ? q2 : l.find('[', q2), close2 = open2 == std::string_view::npos ? open2 : l.find(']', open2);
        const std::uint64_t local = close == std::string_view::npos ? 0 : parseU64(l.substr(1, close - 1)).value_or(0);
        const std::uint64_t remote = close2 == std::string_view::npos ? 256 : parseU64(l.substr(open2 + 1, close2 - open2 - 1)).value_or(256);
        if (local == 0 || local > 255 || remote > 255) diag.fail(n, "expected '[N] \"id\"[M]' (port numbers 1..255)");
        Pending p{*current, static_cast<int>(local), static_cast<int>(remote), std::string(l.substr(q1 + 1, q2 - q1 - 1)), std::nullopt, "???", n};
        std::string_view s, e;
        for (std::string_view tok : splitWhitespace(l.substr(close2 + 1))) {
            if (tok.starts_with("w=")) p.width = widthOfCode(tok.substr(2));
            else if (tok.starts_with("s=")) s = tok.substr(2);
            else if (tok.starts_with("e=")) e = tok.substr(2);
            else if (tok.front() == '#') break;
        }
        p.speed = speedOf(s, e);
        pending.push_back(std::move(p));
    }
    if (headers == 0 || pending.empty()) diag.fail(0, "no node with a connected port found (expected 'Switch 8 \"id\"' then '[1] \"peer\"[1]')");
    using Report = FabricBuilder::LinkReport;
    for (const Pending& p : pending) {
        Node peer;  // a peer never declared in the file is an adapter (ibsim itself refuses it)
        peer.description = p.remote;
        peer.systemName = p.remote;
        const NodeId remote = b.node(peer);
        const PortId a = b.port(p.local, std::to_string(p.port), p.port), z = b.port(remote, std::to_string(p.remotePort), p.remotePort);
        b.portRef(a).state = b.portRef(z).state = PortState::Active;  // a cable in the design is taken as up
        switch (b.link(a, z, p.width, p.speed)) {
        case Report::Conflict: diag.warn(p.line, "this port or its peer is already connected elsewhere in the file; kept the first"); break;
        case Report::WidthMismatch: diag.warn(p.line, "the two ends of this cable give different width/speed; kept the lower"); break;
        case Report::Loop: diag.warn(p.line, "a port connected to itself; ignored"); break;
        default: break;
        }
    }
    TopologyResult r;
    r.fabric = b.take();
    return r;
}

} // namespace fabscope
