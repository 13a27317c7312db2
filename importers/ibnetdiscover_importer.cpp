#include "importers/ibnetdiscover_importer.h"

#include "core/fabric_builder.h"
#include "core/linkrate.h"
#include "importers/line_reader.h"

#include <cctype>
#include <charconv>
#include <ctime>
#include <string>
#include <unordered_map>

namespace fabscope {
namespace {

// A cursor over one line with the small parsing steps the grammar needs.
struct Cursor {
    std::string_view s;
    std::size_t i = 0;

    void skipSpace() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    }
    bool eat(char c) {
        if (i < s.size() && s[i] == c) {
            ++i;
            return true;
        }
        return false;
    }
    std::optional<long long> number() {
        long long v = 0;
        auto [p, ec] = std::from_chars(s.data() + i, s.data() + s.size(), v);
        if (ec != std::errc{}) return std::nullopt;
        i = static_cast<std::size_t>(p - s.data());
        return v;
    }
    // Reads up to `close`, returning the text between; nullopt when `close` never comes.
    std::optional<std::string_view> until(char close) {
        const auto e = s.find(close, i);
        if (e == std::string_view::npos) return std::nullopt;
        auto out = s.substr(i, e - i);
        i = e + 1;
        return out;
    }
    [[nodiscard]] std::string_view rest() const { return s.substr(std::min(i, s.size())); }
};

struct NodeRef {
    NodeType type = NodeType::Ca;
    std::string guid;
};

// "S-0008f10400410015" -> switch, 0x8f10400410015
std::optional<NodeRef> parseNodeId(std::string_view id) {
    if (id.size() < 3 || id[1] != '-') return std::nullopt;
    NodeRef r;
    switch (id[0]) {
    case 'S': r.type = NodeType::Switch; break;
    case 'H': r.type = NodeType::Ca; break;
    case 'R': r.type = NodeType::Router; break;
    case '?': r.type = NodeType::Ca; break;
    default: return std::nullopt;
    }
    r.guid = normaliseGuid(id.substr(2));
    if (r.guid.empty()) return std::nullopt;
    return r;
}

// Skips "[ext N]" tags that `ibnetdiscover -g` adds after port numbers.
void skipExtTag(Cursor& c) {
    if (c.rest().starts_with("[ext")) c.until(']');
}

std::optional<double> parseGeneratedTime(std::string_view line) {
    constexpr std::string_view kTag = "generated on ";
    const auto at = line.find(kTag);
    if (at == std::string_view::npos) return std::nullopt;
    const std::string text(trim(line.substr(at + kTag.size())));
    std::tm tm{};
    const char* end = strptime(text.c_str(), "%a %b %d %H:%M:%S %Y", &tm);
    if (!end) return std::nullopt;
    return static_cast<double>(timegm(&tm));  // the file has no zone; taken as UTC (docs/FORMATS.md)
}

class Parser {
public:
    Parser(DiagnosticSink& diag) : diag_(diag) {}

    void line(std::string_view raw, std::int64_t n) {
        line_ = n;
        const std::string_view l = trim(raw);
        if (l.empty()) return;
        if (l.front() == '#') {
            if (!time_) time_ = parseGeneratedTime(l);
            return;
        }
        if (l.starts_with("vendid=") || l.starts_with("devid=") || l.starts_with("sysimgguid=") ||
            l.starts_with("switchguid=") || l.starts_with("caguid=") || l.starts_with("rtguid=") ||
            l.starts_with("Chassis") || l.starts_with("Non-Chassis"))
            return;
        if (l.starts_with("Switch") || l.starts_with("Ca") || l.starts_with("Rt")) {
            if (nodeLine(l)) return;
        }
        if (l.front() == '[') return portLine(l);
        diag_.warn(n, "ignored a line that is not ibnetdiscover output: " + std::string(l.substr(0, 60)));
    }

    TopologyResult finish() {
        if (nodes_ == 0) diag_.fail(0, "no ibnetdiscover node block found (expected lines such as 'Switch 36 \"S-...\"')");
        TopologyResult r;
        r.time = time_;
        r.fabric = builder_.take();
        return r;
    }

private:
    // "Switch\t41 \"S-0c42...\"\t\t# \"desc\" enhanced port 0 lid 1380 lmc 0"
    bool nodeLine(std::string_view l) {
        Cursor c{l};
        NodeType type;
        if (l.starts_with("Switch")) { type = NodeType::Switch; c.i = 6; }
        else if (l.starts_with("Ca")) { type = NodeType::Ca; c.i = 2; }
        else { type = NodeType::Router; c.i = 2; }
        // A terminal capture that collapsed the tab reads "Switch41": a digit may follow directly.
        if (c.i >= l.size() || (l[c.i] != ' ' && l[c.i] != '\t' && !std::isdigit(static_cast<unsigned char>(l[c.i]))))
            return false;  // e.g. "Cable..."
        c.skipSpace();
        const auto nports = c.number();
        if (!nports) diag_.fail(line_, "node line without a port count");
        c.skipSpace();
        if (!c.eat('"')) diag_.fail(line_, "node line without a quoted node id");
        const auto id = c.until('"');
        const auto ref = id ? parseNodeId(*id) : std::nullopt;
        if (!ref) diag_.fail(line_, "bad node id \"" + std::string(id.value_or("")) + "\" (expected S-, H- or R- and a GUID)");
        Node node;
        node.type = type;
        node.guid = ref->guid;
        node.numPorts = static_cast<int>(*nports);
        std::string_view rest = c.rest();
        const auto hash = rest.find('#');
        if (hash != std::string_view::npos) {
            std::string_view tail = trim(rest.substr(hash + 1));
            if (tail.starts_with('"')) {
                tail.remove_prefix(1);
                // The description is not escaped and may hold quotes: end at the last quote
                // before the switch's " base/enhanced port 0" suffix, or at the last quote.
                auto end = tail.rfind("\" enhanced port");
                if (end == std::string_view::npos) end = tail.rfind("\" base port");
                if (end == std::string_view::npos) end = tail.rfind('"');
                if (end == std::string_view::npos) diag_.fail(line_, "node description without closing quote");
                node.description = std::string(tail.substr(0, end));
                const auto lidAt = tail.find(" lid ", end);
                if (lidAt != std::string_view::npos) {
                    Cursor lc{tail, lidAt + 5};
                    if (auto lid = lc.number()) node.lid = static_cast<int>(*lid);
                }
            }
        }
        // One block per node: a GUID with a second block is two devices sharing a GUID (a
        // misprogrammed board) or a file pasted twice; both are worth the engineer's attention.
        if (const auto [first, isNew] = blockLine_.emplace(node.guid, line_); !isNew)
            diag_.warn(line_, "node GUID " + node.guid + " has a second block (the first is at line " +
                                  std::to_string(first->second) + "): a duplicate GUID, or the file concatenated twice; "
                                  "their ports are merged into one node");
        current_ = builder_.node(node);
        // A node seen first as someone's neighbour gets its real numbers now.
        Node& have = builder_.nodeRef(current_);
        have.numPorts = node.numPorts;
        if (node.lid) have.lid = node.lid;
        if (!node.description.empty()) have.description = node.description;
        currentType_ = type;
        ++nodes_;
        return true;
    }

    // Switch: [p] "X-guid"[rp](rportguid)   # "desc" lid RL 4xHDR
    // CA:     [p](portguid)  "S-guid"[rp]   # lid L lmc M "desc" lid RL 4xHDR
    void portLine(std::string_view l) {
        if (!current_.valid()) diag_.fail(line_, "port line before any node line");
        Cursor c{l, 1};
        const auto localPort = c.number();
        if (!localPort || !c.eat(']')) diag_.fail(line_, "bad port number in '" + std::string(l.substr(0, 20)) + "'");
        skipExtTag(c);
        // "(portguid)" on CA ports; ibdiagnet2.ibnetdiscover adds the front-panel label first:
        // "[1](1/1/1)" on switches, "[1](1)(b0cf0e0300e5b948)" on CAs.
        std::string localGuid;
        while (c.eat('(')) {
            const auto group = c.until(')').value_or("");
            if (group.size() >= 8) localGuid = normaliseGuid(group);  // a label is "1" or "1/1/1"
        }
        c.skipSpace();
        if (!c.eat('"')) diag_.fail(line_, "port line without the remote node id in quotes");
        const auto rid = c.until('"');
        const auto remote = rid ? parseNodeId(*rid) : std::nullopt;
        if (!remote) diag_.fail(line_, "bad remote node id \"" + std::string(rid.value_or("")) + "\"");
        if (!c.eat('[')) diag_.fail(line_, "remote node without a port number");
        const auto remotePort = c.number();
        if (!remotePort || !c.eat(']')) diag_.fail(line_, "bad remote port number");
        skipExtTag(c);
        std::string remoteGuid;
        if (c.eat('(')) remoteGuid = normaliseGuid(c.until(')').value_or(""));

        std::string_view tail = c.rest();
        const auto hash = tail.find('#');
        int localLid = 0, remoteLid = 0;
        std::string remoteDesc;
        std::optional<WidthSpeed> ws;
        if (hash == std::string_view::npos) {
            diag_.warn(line_, "port line without '# ...' details: width and speed unknown");
        } else {
            tail = trim(tail.substr(hash + 1));
            if (tail.starts_with("lid ")) {  // CA form: own LID first
                Cursor lc{tail, 4};
                if (auto v = lc.number()) localLid = static_cast<int>(*v);
                const auto q = tail.find('"');
                tail = q == std::string_view::npos ? std::string_view{} : tail.substr(q);
            }
            if (tail.starts_with('"')) {
                tail.remove_prefix(1);
                auto end = tail.rfind("\" lid ");
                if (end == std::string_view::npos) end = tail.rfind('"');
                if (end == std::string_view::npos) diag_.fail(line_, "remote description without closing quote");
                remoteDesc = std::string(tail.substr(0, end));
                tail = trim(tail.substr(end + 1));
            }
            if (tail.starts_with("lid ")) {
                Cursor lc{tail, 4};
                if (auto v = lc.number()) remoteLid = static_cast<int>(*v);
                lc.skipSpace();
                std::string_view token = lc.rest();
                token = token.substr(0, token.find_first_of(" \t"));
                ws = parseWidthSpeedToken(token);
                if (!ws) diag_.warn(line_, "unknown width/speed '" + std::string(token) + "': kept as unknown");
            }
        }

        Node rn;
        rn.type = remote->type;
        rn.guid = remote->guid;
        rn.description = remoteDesc;
        if (remote->type == NodeType::Switch) rn.lid = remoteLid;
        const NodeId rnode = builder_.node(rn);

        const PortId lp = builder_.port(current_, std::to_string(*localPort), static_cast<int>(*localPort));
        const PortId rp = builder_.port(rnode, std::to_string(*remotePort), static_cast<int>(*remotePort));
        Port& lport = builder_.portRef(lp);
        if (!localGuid.empty()) lport.portGuid = localGuid;
        lport.lid = currentType_ == NodeType::Switch ? builder_.nodeRef(current_).lid : localLid;
        Port& rport = builder_.portRef(rp);
        if (!remoteGuid.empty()) rport.portGuid = remoteGuid;
        if (remoteLid && rport.lid == 0) rport.lid = remoteLid;

        const std::optional<int> width = ws ? ws->width : std::nullopt;
        const std::string speed = ws ? ws->speed : std::string("???");
        using Report = FabricBuilder::LinkReport;
        switch (builder_.link(lp, rp, width, speed)) {
        case Report::Conflict:
            diag_.warn(line_, "port " + std::to_string(*localPort) + " reported with two different neighbours; kept the first");
            break;
        case Report::WidthMismatch:
            diag_.warn(line_, "the two ends of this link report different width/speed; kept the lower capacity");
            break;
        case Report::Loop: diag_.warn(line_, "a port named as its own neighbour; link ignored"); break;
        default: break;
        }
    }

    DiagnosticSink& diag_;
    FabricBuilder builder_;
    NodeId current_;
    NodeType currentType_ = NodeType::Ca;
    std::optional<double> time_;
    std::int64_t line_ = 0;
    std::size_t nodes_ = 0;
    std::unordered_map<std::string, std::size_t> blockLine_;  // node GUID -> line of its block
};

} // namespace

int IbnetdiscoverImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find("switchguid=0x") != std::string_view::npos) score += 40;
    if (head.find("caguid=0x") != std::string_view::npos) score += 40;
    if (head.find("\"S-") != std::string_view::npos || head.find("\"H-") != std::string_view::npos) score += 20;
    if (head.find("# Topology file") != std::string_view::npos) score += 30;
    return std::min(score, 100);
}

TopologyResult IbnetdiscoverImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    Parser p(diag);
    LineReader reader(in.bytes, &progress);
    std::string_view line;
    while (reader.next(line)) {
        p.line(line, reader.number());
    }
    return p.finish();
}

} // namespace fabscope
