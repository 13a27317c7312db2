#include "importers/nccl_log_importer.h"

#include "importers/line_reader.h"
#include "importers/nccl_log_lines.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace fabscope {
namespace {

struct RankSeen {
    std::string host, pid;
    int dev = -1;
    std::int64_t line = 0;
    bool complete = false;
};

// One communicator: its init lines by rank. Keyed by commId (NCCL >= 2.19) or, before that, by
// size: ranks are numbered per communicator, and the job's ranks are the largest one's.
struct Comm {
    int nranks = 0;
    std::int64_t firstLine = 0;
    std::map<int, RankSeen> ranks;
    std::vector<std::pair<std::int64_t, std::string>> conflicts;  // (line, message)
};

std::string processKey(const std::string& host, const std::string& pid) { return host + ":" + pid; }

// What one process (host:pid) printed about its channels; ranks in these lines are the ranks of
// the communicator the process is in.
struct ProcessLines {
    std::vector<std::pair<nccl::Ring, std::int64_t>> rings;
    std::vector<std::pair<nccl::TreeLink, std::int64_t>> trees;
};

class LogParser {
public:
    explicit LogParser(DiagnosticSink& diag) : diag_(diag) {}

    void line(std::string_view raw, std::int64_t n) {
        if (version_.empty()) version(raw);
        const auto l = nccl::splitLine(raw);
        if (!l) {
            if (raw.find(" NCCL INFO ") != std::string_view::npos && raw.find("Init COMPLETE") != std::string_view::npos)
                diag_.fail(n, "Init COMPLETE line without a `host:pid:tid [dev]` prefix");
            return;
        }
        any_ = true;
        const std::string_view t = l->text;
        if (const auto init = nccl::initLine(t)) return initLine(*l, *init, n);
        if (const auto nics = nccl::nicList(t)) {
            if (nics->empty()) diag_.warn(n, "unreadable NET/IB device list entry: ignored");
            auto& have = nicsOf_[processKey(l->host, l->pid)];
            if (have.empty()) have = *nics;
            return;
        }
        if (const auto c = nccl::connectionLine(t)) {
            if (c->netDevice) netIndexOf_.emplace(processKey(l->host, l->pid), *c->netDevice);
            if (connectionsSeen_.insert({c->channel, c->src, c->dst, c->transport}).second)
                connections_.push_back({JobEdge::Kind::Connection, c->channel, c->src, c->dst, c->transport, n});
            return;
        }
        if (auto r = nccl::ringLine(t)) {
            process(*l).rings.emplace_back(std::move(*r), n);
            return;
        }
        for (auto& tl : nccl::treesLine(t)) process(*l).trees.emplace_back(std::move(tl), n);
    }

    JobResult finish(std::string name) {
        if (!any_) diag_.fail(0, "no `host:pid:tid [dev] NCCL INFO` line: is NCCL_DEBUG=INFO set?");
        if (comms_.empty())
            diag_.fail(0, "no communicator init line (`ncclCommInitRank comm 0x.. rank R nranks N ... - Init START` or "
                          "`comm 0x.. rank R nranks N ... - Init COMPLETE`): the ranks are unknown");
        const Comm& world = largest();
        for (const auto& [line, msg] : world.conflicts) diag_.warn(line, msg);

        JobResult job;
        job.name = std::move(name);
        job.details.ncclVersion = version_;
        job.details.nranks = world.nranks;
        std::size_t guessed = 0, started = 0;
        std::set<std::string> worldProcesses;
        for (const auto& [rank, seen] : world.ranks) {
            if (!seen.complete) ++started;
            worldProcesses.insert(processKey(seen.host, seen.pid));
            job.ranks.push_back({rank, seen.host, device(seen, guessed), seen.line});
        }
        edges(world, worldProcesses, job.details.edges);
        if (static_cast<int>(world.ranks.size()) < world.nranks)
            diag_.warn(0, "only " + std::to_string(world.ranks.size()) + " of " + std::to_string(world.nranks) +
                              " ranks have an init line in this file");
        if (started > 0)
            diag_.warn(0, std::to_string(started) + " of " + std::to_string(world.ranks.size()) +
                              " ranks logged Init START but no Init COMPLETE: the job may have hung during init");
        if (guessed > 0)
            diag_.warn(0, std::to_string(guessed) + " ranks have no `via NET/IB/k` channel line: their NIC is taken as the one "
                                                   "with the GPU's index");
        return job;
    }

private:
    // "NCCL version 2.22.3+cuda12.6", as an INFO line or printed bare by rank 0.
    void version(std::string_view raw) {
        constexpr std::string_view kTag = "NCCL version ";
        const auto at = raw.find(kTag);
        if (at == std::string_view::npos) return;
        auto v = raw.substr(at + kTag.size());
        v = v.substr(0, v.find_first_of(" \t"));
        version_ = std::string(v);
    }

    ProcessLines& process(const nccl::Line& l) { return lines_[processKey(l.host, l.pid)]; }

    void initLine(const nccl::Line& l, const nccl::InitLine& init, std::int64_t n) {
        std::string_view rankWord, sizeWord;
        const auto rank = nccl::field(l.text, "rank", &rankWord);
        const auto nranks = nccl::field(l.text, "nranks", &sizeWord);
        if (!rank || !nranks)
            diag_.fail(n, "init line with an unreadable rank/nranks ('" + std::string(rankWord) + "', '" + std::string(sizeWord) + "')");
        if (*nranks <= 0 || *rank < 0 || *rank >= *nranks)
            diag_.fail(n, "rank " + std::to_string(*rank) + " outside 0.." + std::to_string(*nranks - 1));
        const std::string key = init.commId.empty() ? "size " + std::to_string(*nranks) : init.commId;
        auto [it, isNew] = comms_.try_emplace(key);
        Comm& comm = it->second;
        if (isNew) comm.firstLine = n;
        if (comm.nranks != 0 && comm.nranks != *nranks)
            diag_.fail(n, "communicator " + key + " has " + std::to_string(*nranks) + " ranks here and " +
                              std::to_string(comm.nranks) + " at line " + std::to_string(comm.firstLine));
        comm.nranks = *nranks;
        const int dev = nccl::field(l.text, "cudaDev").value_or(l.dev);
        RankSeen seen{l.host, l.pid, dev, n, init.complete};
        if (auto r = comm.ranks.find(*rank); r == comm.ranks.end()) {
            comm.ranks.emplace(*rank, std::move(seen));
        } else if (r->second.host != seen.host) {
            comm.conflicts.emplace_back(n, "rank " + std::to_string(*rank) + " of a " + std::to_string(*nranks) +
                                               "-rank communicator on " + seen.host + ", already seen on " + r->second.host +
                                               " at line " + std::to_string(r->second.line) + ": the first is kept");
        } else if (init.complete) {
            r->second.complete = true;  // START then COMPLETE of the same rank: keep the START's line
        }
    }

    const Comm& largest() const {
        const Comm* best = nullptr;
        for (const auto& [key, c] : comms_)
            if (!best || c.nranks > best->nranks || (c.nranks == best->nranks && c.firstLine < best->firstLine)) best = &c;
        return *best;
    }

    std::string device(const RankSeen& seen, std::size_t& guessed) const {
        const auto nics = nicsOf_.find(processKey(seen.host, seen.pid));
        if (nics == nicsOf_.end() || nics->second.empty()) return {};
        const auto& list = nics->second;
        if (auto k = netIndexOf_.find(processKey(seen.host, seen.pid));
            k != netIndexOf_.end() && k->second >= 0 && static_cast<std::size_t>(k->second) < list.size())
            return list[static_cast<std::size_t>(k->second)];
        if (list.size() == 1) return list.front();
        if (seen.dev >= 0 && static_cast<std::size_t>(seen.dev) < list.size()) {
            ++guessed;
            return list[static_cast<std::size_t>(seen.dev)];  // rail-optimised: NIC i serves GPU i
        }
        return {};
    }

    // Rings and trees as the world communicator's processes printed them; connections as logged.
    void edges(const Comm& world, const std::set<std::string>& processes, std::vector<JobEdge>& out) const {
        std::set<std::tuple<int, int, int, int>> seen;  // kind, channel, src, dst
        for (const auto& [key, pl] : lines_) {
            if (!processes.count(key)) continue;
            for (const auto& [ring, line] : pl.rings) {
                const auto& o = ring.order;
                if (static_cast<int>(o.size()) != world.nranks) continue;  // a sub-communicator's ring
                for (std::size_t i = 0; i < o.size(); ++i) {
                    const int a = o[i], b = o[(i + 1) % o.size()];
                    if (a != b && seen.insert({0, ring.channel, a, b}).second)
                        out.push_back({JobEdge::Kind::Ring, ring.channel, a, b, {}, line});
                }
            }
            for (const auto& [tree, line] : pl.trees)
                if (tree.parent >= 0 && tree.parent < world.nranks && seen.insert({1, tree.channel, tree.rank, tree.parent}).second)
                    out.push_back({JobEdge::Kind::Tree, tree.channel, tree.rank, tree.parent, {}, line});
        }
        for (const auto& c : connections_)
            if (c.src < world.nranks && c.dst < world.nranks) out.push_back(c);
        std::stable_sort(out.begin(), out.end(), [](const JobEdge& a, const JobEdge& b) {
            return std::tie(a.kind, a.channel, a.src, a.dst) < std::tie(b.kind, b.channel, b.src, b.dst);
        });
    }

    DiagnosticSink& diag_;
    bool any_ = false;
    std::string version_;
    std::map<std::string, Comm> comms_;
    std::map<std::string, std::vector<std::string>> nicsOf_;  // "host:pid" -> NET/IB devices, in index order
    std::map<std::string, int> netIndexOf_;                   // "host:pid" -> NET/<plugin>/k used first
    std::map<std::string, ProcessLines> lines_;
    std::vector<JobEdge> connections_;
    std::set<std::tuple<int, int, int, std::string>> connectionsSeen_;
};

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

JobResult NcclLogImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    LineReader reader(in.bytes, &progress);
    LogParser parser(diag);
    std::string_view raw;
    while (reader.next(raw)) {
        parser.line(raw, reader.number());
    }
    return parser.finish(jobNameFromFileName(in.file));
}

std::string NcclLogImporter::nameFromPath(std::string_view path, std::string_view /*text*/) const { return jobNameFromFileName(path); }

} // namespace fabscope
