#include "importers/nccl_log_importer.h"

#include "importers/line_reader.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>

namespace fabscope {
namespace {

// `host:pid:tid [dev] NCCL INFO text`, possibly behind a launcher prefix (`[1,0]<stdout>:`,
// `0: `, a timestamp): the process that wrote the line and what it says.
struct NcclLine {
    std::string host;
    std::string pid;
    int dev = -1;
    std::string_view text;  // after "NCCL INFO "
};

std::optional<int> toInt(std::string_view s) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<NcclLine> splitLine(std::string_view line) {
    constexpr std::string_view kTag = "] NCCL INFO ";
    const auto tag = line.find(kTag);
    if (tag == std::string_view::npos) return std::nullopt;
    const auto open = line.rfind('[', tag);
    if (open == std::string_view::npos || open < 2 || line[open - 1] != ' ') return std::nullopt;
    NcclLine out;
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

// The integer after `key ` in "comm 0x.. rank 3 nranks 8 cudaDev 3 ...".
std::optional<int> field(std::string_view text, std::string_view key, std::string_view* word = nullptr) {
    std::size_t at = 0;
    while ((at = text.find(key, at)) != std::string_view::npos) {
        const bool startOk = at == 0 || text[at - 1] == ' ';
        const auto after = at + key.size();
        if (startOk && after < text.size() && text[after] == ' ') {
            auto rest = text.substr(after + 1);
            rest = rest.substr(0, rest.find(' '));
            if (word) *word = rest;
            return toInt(rest);
        }
        at = after;
    }
    return std::nullopt;
}

struct RankSeen {
    std::string host, pid;
    int dev = -1;
    std::int64_t line = 0;
};

std::string processKey(const std::string& host, const std::string& pid, int dev) {
    return host + ":" + pid + ":" + std::to_string(dev);
}

} // namespace

std::string jobNameFromFileName(std::string_view path) {
    auto p = std::filesystem::path(std::string(path));
    std::string name = p.filename().string();
    for (std::string_view ext : {".log", ".txt", ".out", ".csv", ".err"})
        if (name.size() > ext.size() && std::string_view(name).ends_with(ext)) {
            name.resize(name.size() - ext.size());
            break;
        }
    return name;
}

int NcclLogImporter::detect(std::string_view head) const {
    if (head.find("] NCCL INFO ") == std::string_view::npos) return 0;
    int score = 60;
    if (head.find("NCCL version") != std::string_view::npos) score += 20;
    if (head.find("Init COMPLETE") != std::string_view::npos || head.find("NET/") != std::string_view::npos) score += 15;
    return score;
}

JobResult NcclLogImporter::parse(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    if (in.bytes.find('\0') != std::string_view::npos) diag.fail(0, "binary data (NUL bytes) in an NCCL log");
    LineReader reader(in.bytes);
    std::string_view raw;
    // Init lines grouped by communicator size: ranks are numbered per communicator, and the job's
    // ranks are those of the largest one (the world communicator).
    std::map<int, std::map<int, RankSeen>> bySize;  // nranks -> rank -> where
    std::map<std::string, std::vector<std::string>> nicsOf;   // "host:pid" -> NET/IB devices, in index order
    std::map<std::string, int> netIndexOf;                      // "host:pid:dev" -> NET/IB/k used first
    std::map<int, std::vector<std::pair<std::int64_t, std::string>>> conflicts;  // nranks -> (line, message)
    bool any = false;
    while (reader.next(raw)) {
        if (progress && (reader.number() & 0xffff) == 0 && !progress(reader.fraction())) throw ImportCancelled();
        const auto l = splitLine(raw);
        if (!l) {
            if (raw.find(" NCCL INFO ") != std::string_view::npos && raw.find("Init COMPLETE") != std::string_view::npos)
                diag.fail(reader.number(), "Init COMPLETE line without a `host:pid:tid [dev]` prefix");
            continue;
        }
        any = true;
        const std::string_view t = l->text;
        if (t.find("Init COMPLETE") != std::string_view::npos && t.starts_with("comm ")) {
            std::string_view rankWord, sizeWord;
            const auto rank = field(t, "rank", &rankWord);
            const auto nranks = field(t, "nranks", &sizeWord);
            if (!rank || !nranks)
                diag.fail(reader.number(), "Init COMPLETE line with an unreadable rank/nranks ('" + std::string(rankWord) +
                                               "', '" + std::string(sizeWord) + "')");
            if (*nranks <= 0 || *rank < 0 || *rank >= *nranks)
                diag.fail(reader.number(), "rank " + std::to_string(*rank) + " outside 0.." + std::to_string(*nranks - 1));
            const int dev = field(t, "cudaDev").value_or(l->dev);
            auto& ranks = bySize[*nranks];
            RankSeen seen{l->host, l->pid, dev, reader.number()};
            if (auto it = ranks.find(*rank); it == ranks.end()) {
                ranks.emplace(*rank, std::move(seen));
            } else if (it->second.host != seen.host) {
                conflicts[*nranks].emplace_back(reader.number(), "rank " + std::to_string(*rank) + " of a " + std::to_string(*nranks) +
                                               "-rank communicator on " + seen.host + ", already seen on " +
                                               it->second.host + " at line " + std::to_string(it->second.line) +
                                               ": the first is kept");
            }
        } else if (t.starts_with("NET/IB : Using ") || t.starts_with("NET/IB: Using ")) {
            // "[0]mlx5_0:1/IB [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>"
            auto list = t.substr(t.find("Using ") + 6);
            list = list.substr(0, list.find(';'));
            std::vector<std::string>& nics = nicsOf[l->host + ":" + l->pid];
            if (!nics.empty()) continue;
            std::size_t i = 0;
            while ((i = list.find('[', i)) != std::string_view::npos) {
                const auto close = list.find(']', i);
                if (close == std::string_view::npos) break;
                const auto idx = toInt(list.substr(i + 1, close - i - 1));
                auto name = list.substr(close + 1);
                name = name.substr(0, name.find_first_of(" \t"));
                name = name.substr(0, name.find_first_of(":/"));
                if (!idx) {  // "[RO]" (relaxed ordering) and other flags
                    i = close + 1;
                    continue;
                }
                if (*idx < 0 || *idx > 1024 || name.empty()) {
                    diag.warn(reader.number(), "unreadable NET/IB device list entry: ignored");
                    break;
                }
                if (nics.size() <= static_cast<std::size_t>(*idx)) nics.resize(static_cast<std::size_t>(*idx) + 1);
                nics[static_cast<std::size_t>(*idx)] = std::string(name);
                i = close + 1;
            }
        } else if (t.starts_with("Channel ") && t.find(" via NET/") != std::string_view::npos) {
            // "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA": the NIC index this process uses.
            auto via = t.substr(t.find(" via NET/") + 9);
            const auto slash = via.find('/');
            if (slash == std::string_view::npos) continue;
            via = via.substr(slash + 1);
            via = via.substr(0, via.find_first_of("/ \t"));
            if (const auto k = toInt(via)) netIndexOf.emplace(processKey(l->host, l->pid, l->dev), *k);
        }
    }
    if (!any) diag.fail(0, "no `host:pid:tid [dev] NCCL INFO` line: is NCCL_DEBUG=INFO set?");
    if (bySize.empty()) diag.fail(0, "no `comm ... rank R nranks N ... Init COMPLETE` line: the ranks are unknown");

    const auto& [nranks, ranks] = *bySize.rbegin();
    for (const auto& [line, msg] : conflicts[nranks]) diag.warn(line, msg);
    JobResult job;
    job.name = jobNameFromFileName(in.file);
    std::size_t guessed = 0;
    for (const auto& [rank, seen] : ranks) {
        JobRank jr{rank, seen.host, {}};
        const auto nics = nicsOf.find(seen.host + ":" + seen.pid);
        if (nics != nicsOf.end() && !nics->second.empty()) {
            const auto& list = nics->second;
            if (auto k = netIndexOf.find(processKey(seen.host, seen.pid, seen.dev));
                k != netIndexOf.end() && k->second >= 0 && static_cast<std::size_t>(k->second) < list.size()) {
                jr.device = list[static_cast<std::size_t>(k->second)];
            } else if (list.size() == 1) {
                jr.device = list.front();
            } else if (seen.dev >= 0 && static_cast<std::size_t>(seen.dev) < list.size()) {
                jr.device = list[static_cast<std::size_t>(seen.dev)];  // rail-optimised: NIC i serves GPU i
                ++guessed;
            }
        }
        job.ranks.push_back(std::move(jr));
    }
    if (static_cast<int>(ranks.size()) < nranks)
        diag.warn(0, "only " + std::to_string(ranks.size()) + " of " + std::to_string(nranks) +
                         " ranks have an Init COMPLETE line in this file");
    if (guessed > 0)
        diag.warn(0, std::to_string(guessed) + " ranks have no `via NET/IB/k` channel line: their NIC is taken as the one "
                                               "with the GPU's index");
    return job;
}

} // namespace fabscope
