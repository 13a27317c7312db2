#include "importers/iblinkinfo_importer.h"

#include "core/fabric_builder.h"
#include "core/linkrate.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <cmath>
#include <map>
#include <sstream>

namespace fabscope {
namespace {

// iblinkinfo prints the signalling rate per lane; FabScope names speeds (libibmad/dump.c).
std::string speedName(std::string_view text) {
    if (text.find("FDR10") != std::string_view::npos) return "FDR10";
    double g = 0;
    std::istringstream(std::string(text)) >> g;
    struct R { double gbps; const char* name; };
    for (const R r : {R{2.5, "SDR"}, R{5.0, "DDR"}, R{10.0, "QDR"}, R{14.0625, "FDR"}, R{25.78125, "EDR"},
                      R{53.125, "HDR"}, R{106.25, "NDR"}, R{212.5, "XDR"}})
        if (std::abs(g - r.gbps) < 0.01) return r.name;
    return "???";
}

PortState stateFrom(std::string_view s) {
    if (s == "Active") return PortState::Active;
    if (s == "Down") return PortState::Down;
    if (s == "Initialize" || s == "Init") return PortState::Init;
    if (s == "Armed") return PortState::Armed;
    return PortState::Unknown;
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const auto b = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > b) out.push_back(s.substr(b, i - b));
    }
    return out;
}

// "4[  ]" / "12[ext]" -> "4 " / "12 ": the external port tag may hold spaces.
std::string stripBrackets(std::string_view s) {
    std::string out;
    bool in = false;
    for (char c : s) {
        if (c == '[') in = true;
        else if (c == ']') { in = false; out += ' '; }
        else if (!in) out += c;
    }
    return out;
}

std::optional<int> portToken(std::string_view t) {
    const auto v = parseU64(t);
    if (!v || *v > 255) return std::nullopt;
    return static_cast<int>(*v);
}

struct Line {
    std::int64_t n = 0;
    std::string guid;   // -l: the local node (switch) or port (CA) GUID; default: CA port GUID
    std::string desc;
    int lid = 0, port = 0;
    std::optional<int> width;
    std::string speed = "???";
    PortState state = PortState::Unknown;
    bool hasRemote = false;
    std::string remoteGuid, remoteDesc;
    int remoteLid = 0, remotePort = 0;
    PortHint hint;  // nodeGuid filled in later
    bool hinted = false;
};

struct Block {
    NodeType type = NodeType::Ca;
    std::string headerGuid;  // "Switch: 0x..." header
    std::string desc;
    bool typeKnown = false;
    std::vector<Line> lines;
};

class Parser {
public:
    Parser(const ImportInput& in, DiagnosticSink& diag) : in_(in), diag_(diag) {}

    void line(std::string_view raw, std::int64_t n) {
        line_ = n;
        const std::string_view l = trim(raw);
        if (l.empty()) return;
        if (l.starts_with("Switch: ") || l.starts_with("Switch:\t")) return header(NodeType::Switch, l.substr(7));
        if (l.starts_with("CA: ")) return header(NodeType::Ca, l.substr(3));
        if (l.starts_with("Router: ")) return header(NodeType::Router, l.substr(7));
        const auto open = l.find("==(");
        const auto close = l.find(")==>");
        if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
            diag_.warn(n, "ignored a line that is not iblinkinfo output: " + std::string(l.substr(0, 60)));
            return;
        }
        portLine(l, open, close);
    }

    TopologyResult finish() {
        if (blocks_.empty()) diag_.fail(0, "no iblinkinfo port line found (expected '... ==( 4X ... Active/ LinkUp)==> ...')");
        return build();
    }

private:
    void header(NodeType t, std::string_view rest) {
        Block b;
        b.type = t;
        b.typeKnown = true;
        rest = trim(rest);
        if (t == NodeType::Switch && rest.starts_with("0x")) {
            const auto sp = rest.find_first_of(" \t");
            b.headerGuid = normaliseGuid(rest.substr(0, sp));
            if (b.headerGuid.empty()) diag_.fail(line_, "bad switch GUID in '" + std::string(rest.substr(0, 40)) + "'");
            rest = sp == std::string_view::npos ? std::string_view{} : trim(rest.substr(sp));
        }
        if (rest.ends_with(':')) rest.remove_suffix(1);
        b.desc = std::string(rest);
        blocks_.push_back(std::move(b));
        headerMode_ = true;
    }

    void portLine(std::string_view l, std::size_t open, std::size_t close) {
        Line ln;
        ln.n = line_;
        // Left of "==(": [0xGUID ["desc"]] LID PORT[ext]
        std::string_view left = trim(l.substr(0, open));
        if (left.starts_with("0x")) {
            const auto sp = left.find_first_of(" \t");
            ln.guid = normaliseGuid(left.substr(0, sp));
            if (ln.guid.empty()) diag_.fail(line_, "bad GUID at the start of a port line");
            left = sp == std::string_view::npos ? std::string_view{} : trim(left.substr(sp));
            if (left.starts_with('"')) {  // -l: the description, right-justified in quotes
                const auto q = left.find('"', 1);
                if (q == std::string_view::npos) diag_.fail(line_, "node description without closing quote");
                ln.desc = std::string(trim(left.substr(1, q - 1)));
                left = trim(left.substr(q + 1));
            }
        }
        const std::string leftClean = stripBrackets(left);
        const auto lw = words(leftClean);
        if (lw.size() != 2) diag_.fail(line_, "expected 'LID PORT' before '==('");
        const auto lid = parseU64(lw[0]);
        const auto port = portToken(lw[1]);
        if (!lid || *lid > 0xffff || !port) diag_.fail(line_, "bad local LID or port number");
        ln.lid = static_cast<int>(*lid);
        ln.port = *port;

        // Inside: "4X 53.125 Gbps Active/ LinkUp" or "Down/ Polling"
        const std::string_view mid = l.substr(open + 3, close - open - 3);
        const auto slash = mid.rfind('/');
        const auto mw = words(mid.substr(0, slash == std::string_view::npos ? mid.size() : slash));
        if (mw.empty()) diag_.fail(line_, "port line without a port state");
        ln.state = stateFrom(mw.back());
        if (mw.size() >= 3) {
            ln.width = parseWidth(mw[0]);
            const auto sp = mid.find(mw[1]);
            const auto stateAt = mid.rfind(mw.back(), slash);
            ln.speed = speedName(mid.substr(sp, stateAt - sp));
        }

        // Right of ")==>": [0xGUID] LID PORT[ext] "desc" ( hints )
        std::string_view right = trim(l.substr(close + 4));
        if (right.starts_with("0x")) {
            const auto sp = right.find_first_of(" \t");
            ln.remoteGuid = normaliseGuid(right.substr(0, sp));
            right = sp == std::string_view::npos ? std::string_view{} : trim(right.substr(sp));
        }
        const auto q1 = right.find('"');
        const auto q2 = right.rfind('"');
        if (q1 == std::string_view::npos || q2 == q1) diag_.fail(line_, "port line without the remote description in quotes");
        ln.remoteDesc = std::string(right.substr(q1 + 1, q2 - q1 - 1));
        const std::string rightClean = stripBrackets(right.substr(0, q1));
        const auto rw = words(rightClean);
        if (rw.size() == 2) {
            const auto rl = parseU64(rw[0]);
            const auto rp = portToken(rw[1]);
            if (!rl || !rp) diag_.fail(line_, "bad remote LID or port number");
            ln.remoteLid = static_cast<int>(*rl);
            ln.remotePort = *rp;
            ln.hasRemote = ln.remoteDesc != "Port not available";
        }
        hints(right.substr(q2 + 1), ln);

        if (!headerMode_ && ln.guid.empty())
            diag_.fail(line_, "port line without a GUID (-l form) before any 'Switch:' or 'CA:' header");
        if (headerMode_) {
            blocks_.back().lines.push_back(std::move(ln));
            return;
        }
        // -l: a node's lines are consecutive; a new node starts when the description changes or
        // port numbers start again (CAs with the same default description follow each other).
        const bool same = !blocks_.empty() && blocks_.back().desc == ln.desc && !blocks_.back().lines.empty() &&
                          blocks_.back().lines.back().port < ln.port &&
                          (blocks_.back().lines.back().guid == ln.guid || blocks_.back().lines.back().lid != ln.lid);
        if (!same) {
            Block b;
            b.desc = ln.desc;
            blocks_.push_back(std::move(b));
        }
        blocks_.back().lines.push_back(std::move(ln));
    }

    // "( Could be 12X  Could be 14.0625 Gbps)" -> what both ends support above the active value.
    static void hints(std::string_view s, Line& ln) {
        constexpr std::string_view kCould = "Could be ";
        for (auto at = s.find(kCould); at != std::string_view::npos; at = s.find(kCould, at + 1)) {
            std::string_view v = trim(s.substr(at + kCould.size()));
            v = v.substr(0, v.find(kCould));
            const auto w = words(v);
            if (w.empty()) continue;
            if (auto width = parseWidth(w[0]); width && (w[0].back() == 'X' || w[0].back() == 'x')) {
                ln.hint.width = width;
                ln.hinted = true;
            } else {
                const std::string name = speedName(v);
                if (name != "???") {
                    ln.hint.speed = name;
                    ln.hinted = true;
                }
            }
        }
    }

    // A CA port GUID names its node through the stored topology when it can; else (as on
    // Mellanox HCAs, whose node GUID is port 1's) the first port GUID stands for the node.
    std::string caNodeGuid(const std::string& portGuid) const {
        if (in_.fabric)
            if (auto it = in_.fabric->byPortGuid.find(portGuid); it != in_.fabric->byPortGuid.end()) return it->second.first;
        return portGuid;
    }

    TopologyResult build() {
        TopologyResult r;
        FabricBuilder b;
        std::map<int, NodeId> byLid;
        std::map<std::string, NodeId> byGuid;  // switch GUIDs and CA port GUIDs
        std::vector<NodeId> blockNode(blocks_.size());
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            Block& blk = blocks_[i];
            if (blk.lines.empty()) {
                diag_.warn(0, "node '" + blk.desc + "' has no port lines");
                continue;
            }
            if (!blk.typeKnown) {  // -l: switch ports share one GUID and LID, CA ports do not
                blk.type = blk.lines.size() > 1 && blk.lines[0].guid == blk.lines[1].guid ? NodeType::Switch : NodeType::Ca;
            }
            Node node;
            node.type = blk.type;
            node.description = blk.desc;
            const std::string& first = blk.headerGuid.empty() ? blk.lines[0].guid : blk.headerGuid;
            if (first.empty()) diag_.fail(blk.lines[0].n, "CA port line without its port GUID");
            node.guid = blk.type == NodeType::Switch ? first : caNodeGuid(first);
            node.numPorts = 0;
            if (blk.type == NodeType::Switch) node.lid = blk.lines[0].lid;
            const NodeId id = b.node(node);
            blockNode[i] = id;
            for (const Line& ln : blk.lines) {
                b.nodeRef(id).numPorts = std::max(b.nodeRef(id).numPorts, ln.port);
                if (ln.lid) byLid.emplace(ln.lid, id);
                byGuid.emplace(blk.type == NodeType::Switch ? node.guid : (ln.guid.empty() ? node.guid : ln.guid), id);
            }
        }
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            const Block& blk = blocks_[i];
            if (blk.lines.empty()) continue;
            const NodeId id = blockNode[i];
            for (const Line& ln : blk.lines) {
                const PortId p = b.port(id, std::to_string(ln.port), ln.port);
                Port& port = b.portRef(p);
                port.state = ln.state;
                port.lid = ln.lid;
                if (blk.type != NodeType::Switch) port.portGuid = ln.guid;
                if (ln.hinted) {
                    PortHint h = ln.hint;
                    h.nodeGuid = b.nodeRef(id).guid;
                    h.port = std::to_string(ln.port);
                    r.hints.push_back(std::move(h));
                }
                if (!ln.hasRemote || ln.state == PortState::Down) continue;
                const NodeId rn = remoteNode(b, ln, byLid, byGuid);
                const PortId rp = b.port(rn, std::to_string(ln.remotePort), ln.remotePort);
                if (b.portRef(rp).lid == 0 && b.nodeRef(rn).type != NodeType::Switch) b.portRef(rp).lid = ln.remoteLid;
                using Report = FabricBuilder::LinkReport;
                switch (b.link(p, rp, ln.width, ln.speed)) {
                case Report::Conflict:
                    diag_.warn(ln.n, "port " + std::to_string(ln.port) + " reported with two different neighbours; kept the first");
                    break;
                case Report::WidthMismatch:
                    diag_.warn(ln.n, "the two ends of this link report different width/speed; kept the lower capacity");
                    break;
                case Report::Loop: diag_.warn(ln.n, "a port named as its own neighbour; link ignored"); break;
                default: break;
                }
            }
        }
        r.fabric = b.take();
        return r;
    }

    NodeId remoteNode(FabricBuilder& b, const Line& ln, const std::map<int, NodeId>& byLid,
                      const std::map<std::string, NodeId>& byGuid) {
        if (!ln.remoteGuid.empty()) {
            if (auto it = byGuid.find(ln.remoteGuid); it != byGuid.end()) return it->second;
            Node n;  // not described in this file (e.g. iblinkinfo -S of one switch)
            n.guid = ln.remoteGuid;
            n.description = ln.remoteDesc;
            return b.node(n);
        }
        if (auto it = byLid.find(ln.remoteLid); it != byLid.end()) return it->second;
        Node n;
        if (in_.fabric)
            if (auto it = in_.fabric->nodeGuidByLid.find(ln.remoteLid); it != in_.fabric->nodeGuidByLid.end()) n.guid = it->second;
        n.description = ln.remoteDesc;
        if (n.guid.empty())
            diag_.warn(ln.n, "remote LID " + std::to_string(ln.remoteLid) + " is not described in this file: node '" +
                                 ln.remoteDesc + "' kept by its description");
        return b.node(n);
    }

    const ImportInput& in_;
    DiagnosticSink& diag_;
    std::vector<Block> blocks_;
    bool headerMode_ = false;
    std::int64_t line_ = 0;
};

} // namespace

int IblinkinfoImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find(")==>") != std::string_view::npos && head.find("==(") != std::string_view::npos) score += 60;
    if (head.find("\nSwitch: 0x") != std::string_view::npos || head.starts_with("Switch: 0x")) score += 30;
    if (head.find("CA: ") != std::string_view::npos) score += 10;
    if (head.find(" Gbps ") != std::string_view::npos) score += 10;
    return std::min(score, 100);
}

TopologyResult IblinkinfoImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    Parser p(in, diag);
    LineReader reader(in.bytes, &progress);
    std::string_view line;
    while (reader.next(line)) {
        p.line(line, reader.number());
    }
    return p.finish();
}

} // namespace fabscope
