#include "importers/nccl_log_lines.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace fabscope::nccl {

std::optional<int> toInt(std::string_view s) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<Line> splitLine(std::string_view line) {
    constexpr std::string_view kTag = "] NCCL INFO ";
    const auto tag = line.find(kTag);
    if (tag == std::string_view::npos) return std::nullopt;
    const auto open = line.rfind('[', tag);
    if (open == std::string_view::npos || open < 2 || line[open - 1] != ' ') return std::nullopt;
    Line out;
    const auto dev = toInt(line.substr(open + 1, tag - open - 1));
    if (!dev) return std::nullopt;
    out.dev = *dev;
    // The token before " [dev]": [prefix]host:pid:tid
    std::string_view tok = line.substr(0, open - 1);
    if (const auto sp = tok.find_last_of(" \t"); sp != std::string_view::npos) tok = tok.substr(sp + 1);
    const auto c2 = tok.rfind(':');
    if (c2 == std::string_view::npos || c2 == 0) return std::nullopt;
    const auto c1 = tok.rfind(':', c2 - 1);
    if (c1 == std::string_view::npos) return std::nullopt;
    std::string_view host = tok.substr(0, c1);
    if (const auto cut = host.find_last_of(":>"); cut != std::string_view::npos) host = host.substr(cut + 1);
    if (host.empty()) return std::nullopt;
    out.host = std::string(host);
    out.pid = std::string(tok.substr(c1 + 1, c2 - c1 - 1));
    out.text = line.substr(tag + kTag.size());
    return out;
}

std::string_view wordAfter(std::string_view text, std::string_view key) {
    std::size_t at = 0;
    while ((at = text.find(key, at)) != std::string_view::npos) {
        const bool startOk = at == 0 || text[at - 1] == ' ';
        const auto after = at + key.size();
        if (startOk && after < text.size() && text[after] == ' ') {
            auto rest = text.substr(after + 1);
            return rest.substr(0, rest.find(' '));
        }
        at = after;
    }
    return {};
}

std::optional<int> field(std::string_view text, std::string_view key, std::string_view* word) {
    const auto w = wordAfter(text, key);
    if (word) *word = w;
    if (w.empty() && text.find(key) == std::string_view::npos) return std::nullopt;
    return toInt(w);
}

std::optional<InitLine> initLine(std::string_view text) {
    const bool complete = text.ends_with("Init COMPLETE");
    if (!complete && !text.ends_with("Init START")) return std::nullopt;
    // "comm " first, or after one word naming the call (ncclCommInitRank, ncclCommInitRankConfig,
    // ncclCommSplit, ...).
    if (!text.starts_with("comm ")) {
        const auto sp = text.find(' ');
        if (sp == std::string_view::npos || !text.substr(sp + 1).starts_with("comm ") || !text.starts_with("nccl")) return std::nullopt;
    }
    return InitLine{complete, std::string(wordAfter(text, "commId"))};
}

namespace {

void skipSpace(std::string_view s, std::size_t& i) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

std::optional<int> readInt(std::string_view s, std::size_t& i) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data() + i, s.data() + s.size(), v);
    if (ec != std::errc{}) return std::nullopt;
    i = static_cast<std::size_t>(p - s.data());
    return v;
}

}  // namespace

std::optional<Ring> ringLine(std::string_view text) {
    if (!text.starts_with("Channel ") || text.find("->") != std::string_view::npos) return std::nullopt;
    std::size_t i = 8;
    const auto channel = readInt(text, i);
    if (!channel || i >= text.size() || text[i] != '/') return std::nullopt;
    ++i;
    if (!readInt(text, i)) return std::nullopt;
    skipSpace(text, i);
    if (i >= text.size() || text[i] != ':') return std::nullopt;
    ++i;
    Ring r{*channel, {}};
    while (true) {
        skipSpace(text, i);
        if (i >= text.size()) break;
        const auto rank = readInt(text, i);
        if (!rank || *rank < 0) return std::nullopt;
        r.order.push_back(*rank);
    }
    if (r.order.empty()) return std::nullopt;
    return r;
}

std::vector<TreeLink> treesLine(std::string_view text) {
    std::vector<TreeLink> out;
    if (!text.starts_with("Trees ")) return out;
    std::size_t i = 6;
    while (true) {
        skipSpace(text, i);
        if (i >= text.size() || text[i] != '[') break;
        ++i;
        const auto channel = readInt(text, i);
        if (!channel || i >= text.size() || text[i] != ']') return {};
        ++i;
        skipSpace(text, i);
        // c0/c1/c2->rank->parent
        TreeLink t;
        t.channel = *channel;
        for (int k = 0; k < 3; ++k) {
            const auto c = readInt(text, i);
            if (!c) return {};
            if (*c >= 0) t.children.push_back(*c);
            if (k < 2) {
                if (i >= text.size() || text[i] != '/') return {};
                ++i;
            }
        }
        if (text.substr(i, 2) != "->") return {};
        i += 2;
        const auto rank = readInt(text, i);
        if (!rank || text.substr(i, 2) != "->") return {};
        i += 2;
        const auto parent = readInt(text, i);
        if (!parent) return {};
        t.rank = *rank;
        t.parent = *parent;
        out.push_back(std::move(t));
    }
    return out;
}

std::optional<Connection> connectionLine(std::string_view text) {
    if (!text.starts_with("Channel ")) return std::nullopt;
    const auto via = text.find(" via ");
    const auto arrow = text.find(" -> ");
    if (via == std::string_view::npos || arrow == std::string_view::npos || arrow > via) return std::nullopt;
    std::size_t i = 8;
    const auto channel = readInt(text, i);
    if (!channel) return std::nullopt;
    const auto colon = text.find(" : ", i);
    if (colon == std::string_view::npos || colon > arrow) return std::nullopt;
    i = colon + 3;
    skipSpace(text, i);
    const auto src = readInt(text, i);
    i = arrow + 4;
    const auto dst = readInt(text, i);
    if (!src || !dst) return std::nullopt;
    Connection c;
    c.channel = *channel;
    c.src = *src;
    c.dst = *dst;
    c.send = text.substr(0, via).find("[receive]") == std::string_view::npos;
    // "NET/IB/2/GDRDMA", "NET/IB/1(5)/GDRDMA" (PXN through GPU 5), "NET/AWS Libfabric/4/GDRDMA",
    // "P2P/CUMEM", "P2P/IPC/read", "SHM/direct/direct"
    std::string_view t = text.substr(via + 5);
    t = t.substr(0, t.find_first_of("\t"));
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    std::string transport;
    std::size_t part = 0, n = 0;
    while (part <= t.size()) {
        auto slash = t.find('/', part);
        if (slash == std::string_view::npos) slash = t.size();
        std::string_view piece = t.substr(part, slash - part);
        const auto paren = piece.find('(');
        const auto digits = piece.substr(0, paren);
        const bool isIndex = n == 2 && t.starts_with("NET/") && !digits.empty() &&
                             std::all_of(digits.begin(), digits.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
        if (isIndex) {
            c.netDevice = toInt(digits);
        } else {
            if (!transport.empty()) transport += '/';
            transport += piece;
        }
        ++n;
        part = slash + 1;
    }
    c.transport = transport;
    return c;
}

std::optional<std::vector<std::string>> nicList(std::string_view text) {
    if (!text.starts_with("NET/IB : Using ") && !text.starts_with("NET/IB: Using ")) return std::nullopt;
    auto list = text.substr(text.find("Using ") + 6);
    list = list.substr(0, list.find(';'));
    std::vector<std::string> nics;
    std::size_t i = 0;
    while ((i = list.find('[', i)) != std::string_view::npos) {
        const auto close = list.find(']', i);
        if (close == std::string_view::npos) break;
        const auto idx = toInt(list.substr(i + 1, close - i - 1));
        auto name = list.substr(close + 1);
        name = name.substr(0, name.find_first_of(" \t"));
        name = name.substr(0, name.find_first_of(":/"));
        i = close + 1;
        if (!idx) continue;  // "[RO]" (relaxed ordering) and other flags
        if (*idx < 0 || *idx > 1024 || name.empty()) return std::vector<std::string>{};
        if (nics.size() <= static_cast<std::size_t>(*idx)) nics.resize(static_cast<std::size_t>(*idx) + 1);
        nics[static_cast<std::size_t>(*idx)] = std::string(name);
    }
    return nics;
}

}  // namespace fabscope::nccl
