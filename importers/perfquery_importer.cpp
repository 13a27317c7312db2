#include "importers/perfquery_importer.h"

#include "importers/ib_counter_names.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <cmath>
#include <map>
#include <set>

namespace fabscope {
namespace {

struct Block {
    int lid = 0;
    int port = 0;
    bool extended = false;
    bool skip = false;  // aggregate "all ports" blocks
    std::string node;
};

struct Value {
    CounterInfo info;
    double value = 0;
    bool extended = false;
};

// "# Port extended counters: Lid 7 port 1 (CapMask: ...)" -> block; nullopt for other comments.
std::optional<Block> parseHeader(std::string_view l) {
    const auto colon = l.find("counters:");
    if (!l.starts_with('#') || colon == std::string_view::npos) return std::nullopt;
    Block b;
    b.extended = l.substr(0, colon).find("extended") != std::string_view::npos &&
                 l.substr(0, colon).find("speeds") == std::string_view::npos;
    std::string_view rest = trim(l.substr(colon + 9));
    if (!rest.starts_with("Lid ")) return std::nullopt;
    rest.remove_prefix(4);
    const auto sp = rest.find(' ');
    const auto lid = parseU64(rest.substr(0, sp));
    if (!lid || *lid > 0xffff || sp == std::string_view::npos) return std::nullopt;
    b.lid = static_cast<int>(*lid);
    rest = trim(rest.substr(sp));
    if (!rest.starts_with("port ")) return std::nullopt;
    rest = trim(rest.substr(5));
    const std::string_view tok = rest.substr(0, rest.find(' '));
    if (tok == "ALL" || tok == "255") {
        b.skip = true;
        return b;
    }
    const auto port = parseU64(tok);
    if (!port || *port > 254) return std::nullopt;
    b.port = static_cast<int>(*port);
    return b;
}

class Parser {
public:
    Parser(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag)
        : in_(in), out_(out), diag_(diag), fileGuid_(guidFromFileName(in.file)), time_(in.mtime) {}

    void line(std::string_view raw, std::int64_t n) {
        line_ = n;
        const std::string_view l = trim(raw);
        if (l.empty()) return;
        if (auto t = parseTimeLine(l)) return timeLine(*t);
        if (l.front() == '#') {
            if (auto b = parseHeader(l)) return startBlock(*b);
            if (l.find("counters:") != std::string_view::npos)
                diag_.fail(n, "counter header without 'Lid N port P': " + std::string(l.substr(0, 80)));
            return;  // other comments
        }
        const auto colon = l.find(':');
        const bool field = colon != std::string_view::npos && colon > 0 &&
                           l.find_first_of(" \t") > colon && l.substr(colon + 1).starts_with('.');
        if (!field) {
            diag_.warn(n, "ignored a line that is not perfquery output: " + std::string(l.substr(0, 60)));
            return;
        }
        if (!block_) diag_.fail(n, "counter line before any '# Port counters: Lid N port P' header");
        if (block_->skip) return;
        fieldLine(l.substr(0, colon), trim(l.substr(colon + 1)));
    }

    std::int64_t finish() {
        flush();
        if (blocks_ == 0) diag_.fail(0, "no perfquery port block found (expected '# Port counters: Lid N port P')");
        if (rows_ == 0) diag_.fail(0, "perfquery port blocks without any counter value");
        return rows_;
    }

private:
    void timeLine(double t) {
        if (t == time_ && sawTime_) return;  // the same time again continues the snapshot
        flush();
        if (sawTime_ && t < time_)
            diag_.warn(line_, "capture time goes backwards (" + std::to_string(static_cast<long long>(t)) +
                                  " after " + std::to_string(static_cast<long long>(time_)) + "): samples sorted by time");
        if (!sawTime_ && blocks_ > 0)
            diag_.warn(line_, "port blocks before the first time line were given the file's mtime");
        time_ = t;
        sawTime_ = true;
    }

    void startBlock(Block b) {
        ++blocks_;
        if (b.skip) {
            diag_.warn(line_, "aggregate 'all ports' block skipped: only per-port counters can be mapped to links");
            block_ = b;
            return;
        }
        std::string lidGuid;
        if (in_.fabric)
            if (auto it = in_.fabric->nodeGuidByLid.find(b.lid); it != in_.fabric->nodeGuidByLid.end()) lidGuid = it->second;
        if (!fileGuid_.empty()) {
            b.node = fileGuid_;
            if (!lidGuid.empty() && lidGuid != fileGuid_ && warnedLids_.insert(b.lid).second)
                diag_.warn(line_, "LID " + std::to_string(b.lid) + " belongs to " + lidGuid +
                                      " in the stored topology, but the file is named after " + fileGuid_ + ": the file name wins");
        } else if (!lidGuid.empty()) {
            b.node = lidGuid;
        } else {
            b.node = "lid:" + std::to_string(b.lid);
            if (warnedLids_.insert(b.lid).second)
                diag_.warn(line_, "LID " + std::to_string(b.lid) +
                                      (in_.fabric ? " is not in the stored topology" : " cannot be mapped: no topology imported yet") +
                                      "; kept as unmapped node 'lid:" + std::to_string(b.lid) + "'");
        }
        block_ = std::move(b);
    }

    void fieldLine(std::string_view name, std::string_view value) {
        const auto field = ibCounterField(name);
        if (!field) return;
        const auto dots = value.find_first_not_of('.');
        value = dots == std::string_view::npos ? std::string_view{} : trim(value.substr(dots));
        const auto v = parseU64(value);
        if (!v) {
            diag_.warn(line_, "value '" + std::string(value.substr(0, 30)) + "' of " + std::string(name) + " is not a number: skipped");
            return;
        }
        std::string key = block_->node;
        key += '\x1f';
        key += std::to_string(block_->port);
        key += '\x1f';
        key += field->info.name;
        Value val{field->info, static_cast<double>(*v) * field->scale, block_->extended};
        auto [it, added] = snapshot_.try_emplace(std::move(key), val);
        if (added) return;
        // perfquery and perfquery -x of the same port: the 64-bit extended value is kept.
        if (it->second.extended && !val.extended) return;
        if (it->second.extended == val.extended && repeatWarned_.insert(block_->node + "/" + std::to_string(block_->port)).second)
            diag_.warn(line_, "port " + std::to_string(block_->port) + " of " + block_->node +
                                  " appears twice in one snapshot (no time line between): the later block is kept");
        it->second = val;
    }

    void flush() {
        const auto ms = std::llround(time_ * 1000.0);
        for (const auto& [key, v] : snapshot_) {
            const auto a = key.find('\x1f'), b = key.find('\x1f', a + 1);
            const auto h = out_.series(std::string_view(key).substr(0, a), std::string_view(key).substr(a + 1, b - a - 1), v.info);
            out_.add(h, ms, v.value);
            ++rows_;
        }
        snapshot_.clear();
        block_.reset();
    }

    const ImportInput& in_;
    SampleWriter& out_;
    DiagnosticSink& diag_;
    std::string fileGuid_;
    double time_;
    bool sawTime_ = false;
    std::optional<Block> block_;
    std::map<std::string, Value> snapshot_;  // node/port/counter -> value of the current snapshot
    std::set<int> warnedLids_;
    std::set<std::string> repeatWarned_;
    std::int64_t line_ = 0, rows_ = 0;
    std::size_t blocks_ = 0;
};

} // namespace

int PerfqueryImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find("# Port counters: Lid ") != std::string_view::npos) score += 60;
    if (head.find("# Port extended counters: Lid ") != std::string_view::npos) score += 60;
    if (head.find(" counters: Lid ") != std::string_view::npos) score += 30;
    if (head.find("PortSelect:....") != std::string_view::npos) score += 30;
    return std::min(score, 95);
}

std::int64_t PerfqueryImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                      const ProgressFn& progress) const {
    Parser p(in, out, diag);
    LineReader reader(in.bytes, &progress);
    std::string_view line;
    while (reader.next(line)) {
        p.line(line, reader.number());
    }
    return p.finish();
}

} // namespace fabscope
