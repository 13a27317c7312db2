#include "importers/nccl_tests_importer.h"

#include "importers/bench_text.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {
namespace {


// Where each cell of a table row goes. nccl-tests >= 2.x prints
// `size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong`; older
// versions lack `root` (and all_gather/alltoall `redop`), and print `error` (the largest relative
// error) where newer ones print `#wrong` (a count, or `N/A`).
struct Layout {
    int leading = 5;          // size count type [redop] [root]
    int redop = 3, root = 4;  // cell index, -1 when absent
    bool errorColumn = false; // `error` (a relative error) rather than `#wrong` (a count)
    [[nodiscard]] std::size_t cells() const { return static_cast<std::size_t>(leading) + 8; }
};

std::optional<Layout> layoutFromHeader(const std::vector<std::string_view>& t) {
    if (t.size() < 11 || t[0] != "size" || t[1] != "count" || t[2] != "type") return std::nullopt;
    Layout lay;
    lay.redop = lay.root = -1;
    std::size_t i = 3;
    if (i < t.size() && t[i] == "redop") lay.redop = static_cast<int>(i++);
    if (i < t.size() && t[i] == "root") lay.root = static_cast<int>(i++);
    lay.leading = static_cast<int>(i);
    if (t.size() != i + 8 || t[i] != "time" || t[i + 1] != "algbw" || t[i + 2] != "busbw") return std::nullopt;
    lay.errorColumn = t[i + 3] == "error";
    return lay;
}

// No header seen: guess the layout from the row's width (a pasted excerpt often starts mid-table).
std::optional<Layout> layoutFromWidth(std::size_t cells, bool errorLike) {
    Layout lay;
    lay.errorColumn = errorLike;
    if (cells == 13) return lay;
    if (cells == 12) {
        lay.leading = 4;
        lay.root = -1;
        return lay;
    }
    if (cells == 11) {
        lay.leading = 3;
        lay.redop = lay.root = -1;
        return lay;
    }
    return std::nullopt;
}

// Strips launcher prefixes (`[1,0]<stdout>:` of mpirun --tag-output, `0: ` of srun -l) and the `#`
// nccl-tests puts before its comment lines. `comment` says whether there was a `#`.
std::string_view strip(std::string_view l, bool& comment) {
    l = trim(l);
    if (l.starts_with('[')) {
        if (const auto p = l.find("]<stdout>:"); p != std::string_view::npos) l = trim(l.substr(p + 10));
        else if (const auto q = l.find("]<stderr>:"); q != std::string_view::npos) l = trim(l.substr(q + 10));
    }
    if (const auto c = l.find(": "); c != std::string_view::npos && c > 0 && c <= 5 &&
                                      l.substr(0, c).find_first_not_of("0123456789") == std::string_view::npos)
        l = trim(l.substr(c + 2));
    comment = l.starts_with('#');
    while (l.starts_with('#')) l.remove_prefix(1);
    return trim(l);
}

std::string toolFromFileName(std::string_view path) {
    const std::string name = std::filesystem::path(std::string(path)).filename().string();
    const auto p = name.find("_perf");
    if (p == std::string::npos || p == 0) return {};
    auto b = name.find_last_not_of("abcdefghijklmnopqrstuvwxyz_", p - 1);
    b = b == std::string::npos ? 0 : b + 1;
    return name.substr(b, p + 5 - b);
}

// NCCL_DEBUG=INFO lines of other processes land inside table rows: nccl-tests prints a row in
// pieces (size..root, then each time/algbw/busbw/#wrong group), so another process's line may
// be glued to a piece ("     2097152   524288  float  sum  -1gcn151:1904979:1905073 [0] NCCL INFO
// ...") and the row goes on on a later line. Returns the row piece before the glued NCCL line
// (empty when the line is an NCCL line), or nullopt when the line holds no NCCL INFO line.
std::optional<std::string_view> beforeGluedNcclLine(std::string_view l) {
    const auto info = l.find("] NCCL INFO ");
    if (info == std::string_view::npos) return std::nullopt;
    const auto dev = l.rfind(" [", info);
    if (dev == std::string_view::npos) return std::string_view{};
    auto start = l.find_last_of(" \t", dev - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    std::string_view token = l.substr(start, dev - start);  // [cell]host:pid:tid
    for (int k = 0; k < 2; ++k) {                            // drop :tid and :pid
        const auto c = token.rfind(':');
        if (c == std::string_view::npos) return std::string_view{};
        token = token.substr(0, c);
    }
    // The cell glued before the host: a number (root, #wrong) or a type/redop word.
    std::size_t cell = 0;
    if (cell < token.size() && token[cell] == '-') ++cell;
    while (cell < token.size() && (std::isdigit(static_cast<unsigned char>(token[cell])) || token[cell] == '.')) ++cell;
    if (cell == 1 && token[0] == '-') cell = 0;
    if (cell == 0)
        for (std::string_view word : {"bfloat16", "double", "float", "half", "int8", "uint8", "int32", "uint32", "int64",
                                      "uint64", "sum", "prod", "max", "min", "avg", "none"})
            if (token.starts_with(word) && token.size() > word.size()) {
                cell = word.size();
                break;
            }
    return trim(l.substr(0, start + cell));
}

// An error that ends a run: "NCCL WARN ...", nccl-tests' "Test NCCL failure ..." / "Test failure
// common.cu:..." and NCCL's "NCCL error ...".
std::optional<std::string> failureLine(std::string_view l) {
    for (std::string_view tag : {"Test NCCL failure", "Test CUDA failure", "Test failure", "NCCL WARN ", "NCCL error"})
        if (const auto at = l.find(tag); at != std::string_view::npos) return std::string(trim(l.substr(at, 160)));
    return std::nullopt;
}

struct RunBuilder {
    CollectiveRun run;
    std::map<int, std::string> hostOf;  // rank -> host
    std::int64_t firstLine = 0;
    [[nodiscard]] bool empty() const { return run.rows.empty() && hostOf.empty() && !run.avgBusbwGBs; }
};

} // namespace

int NcclTestsImporter::detect(std::string_view head) const {
    const bool columns = head.find("busbw") != std::string_view::npos && head.find("algbw") != std::string_view::npos;
    const bool banner = head.find("nThread ") != std::string_view::npos && head.find("nGpus ") != std::string_view::npos;
    if (columns && banner) return 98;  // above nccl-log, which an NCCL_DEBUG=INFO run also matches
    if (columns || banner || head.find("Avg bus bandwidth") != std::string_view::npos) return 85;
    return 0;
}

ProbeImportResult NcclTestsImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    const std::string fileTool = toolFromFileName(in.file);
    double time = in.mtime;
    bool sawTime = false;
    ProbeImportResult result;
    RunBuilder cur;
    std::optional<Layout> layout;
    bool warnedGuess = false;
    std::int64_t naWrong = 0, naFirst = 0;

    const auto finish = [&]() {
        if (cur.empty()) return;
        if (cur.run.rows.empty() && cur.run.failure.empty())
            cur.run.failure = "no result table (the run stopped before its first size)";
        if (!cur.run.failure.empty()) diag.warn(cur.firstLine, "failed run: " + cur.run.failure + "; stored as failed");
        {
            for (const auto& [rank, host] : cur.hostOf) {
                if (rank != static_cast<int>(cur.run.hosts.size())) {
                    diag.warn(cur.firstLine, "device lines skip rank " + std::to_string(cur.run.hosts.size()) +
                                                 ": hosts kept up to there");
                    break;
                }
                cur.run.hosts.push_back(host);
            }
            if (cur.run.tool.empty()) cur.run.tool = fileTool.empty() ? "nccl-tests" : fileTool;
            if (!cur.run.avgBusbwGBs && !cur.run.rows.empty())
                diag.warn(cur.firstLine, "no `# Avg bus bandwidth` line for this run (output cut?)");
            std::int64_t wrongs = 0;
            for (const auto& row : cur.run.rows) wrongs += row.wrong;
            if (wrongs > 0 && cur.run.failure.empty()) cur.run.failure = std::to_string(wrongs) + " wrong elements";
            result.runs.push_back(std::move(cur.run));
        }
        cur = RunBuilder{};
        layout.reset();
    };
    // A banner line starts a new run once the current one has results, or has its devices (a run
    // killed before its first row: its `Rank` lines are all there is of it).
    const auto startIfNeeded = [&](std::int64_t line) {
        if (!cur.run.rows.empty() || cur.run.avgBusbwGBs || !cur.run.failure.empty() || !cur.hostOf.empty()) finish();
        if (cur.firstLine == 0) cur.firstLine = line;
        cur.run.time = time;
    };

    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    std::string pending;  // a row cut by glued NCCL INFO lines, waiting for its other pieces
    std::int64_t pendingLine = 0;
    while (reader.next(raw)) {
        bool comment = false;
        auto l = strip(raw, comment);
        const auto n = reader.number();
        const auto beforeNccl = comment ? std::nullopt : beforeGluedNcclLine(l);
        if (beforeNccl) l = *beforeNccl;
        if (l.empty()) continue;
        std::string joined;
        if (!pending.empty() && !comment) {
            const auto more = splitWhitespace(l);
            const bool numeric = std::all_of(more.begin(), more.end(), [](std::string_view c) { return c == "N/A" || bench::parseNumber(c); });
            if (layout && numeric && !more.empty() && splitWhitespace(pending).size() + more.size() <= layout->cells()) {
                joined = pending + " " + std::string(l);
                l = joined;
            }
            pending.clear();
        }
        if (auto t = parseTimeLine(l)) {
            time = *t;
            sawTime = true;
            if (cur.run.rows.empty()) cur.run.time = time;
            continue;
        }
        if (l.starts_with("nccl-tests version")) {
            startIfNeeded(n);
            continue;
        }
        if (l.starts_with("Collective test starting:")) {
            startIfNeeded(n);
            cur.run.tool = std::string(trim(l.substr(25)));
            continue;
        }
        if (l.starts_with("nThread ")) {
            startIfNeeded(n);
            continue;
        }
        const auto t = splitWhitespace(l);
        if (t[0] == "Rank" && t.size() >= 4) {  // "Rank  0 Group  0 Pid  1887 on   worker-1 device  0 [0x8d] NAME"
            std::size_t on = 2;
            while (on + 1 < t.size() && t[on] != "on") ++on;
            const auto rank = bench::parseCount(t[1]);
            if (!rank || on + 1 >= t.size() || *rank > 1000000)
                diag.fail(n, "device line without `Rank N ... on HOST`: " + std::string(l.substr(0, 60)));
            if (cur.firstLine == 0) cur.firstLine = n;
            const std::string host(t[on + 1]);
            auto [it, added] = cur.hostOf.emplace(static_cast<int>(*rank), host);
            if (!added && it->second != host)
                diag.warn(n, "rank " + std::to_string(*rank) + " named twice (" + it->second + ", " + host +
                                 "): each process ran its own test? (nccl-tests built without MPI=1); the first kept");
            continue;
        }
        if (t[0] == "size") {
            layout = layoutFromHeader(t);
            if (!layout)
                diag.fail(n, "unknown nccl-tests column header (expected size count type [redop] [root] time algbw busbw "
                             "#wrong time algbw busbw #wrong)");
            continue;
        }
        if (l.starts_with("Avg bus bandwidth")) {
            const auto c = l.find(':');
            const std::optional<double> v = c == std::string_view::npos ? std::optional<double>{} : bench::parseNumber(trim(l.substr(c + 1)));
            if (!v) diag.fail(n, "`Avg bus bandwidth` is not a number");
            cur.run.avgBusbwGBs = *v;
            continue;
        }
        if (l.starts_with("Out of bounds values")) {
            const auto c = l.find(':');
            const auto parts = c == std::string_view::npos ? std::vector<std::string_view>{} : splitWhitespace(l.substr(c + 1));
            if (!parts.empty() && parts[0] != "0") diag.warn(n, "nccl-tests found out-of-bounds values: " + std::string(l));
            continue;
        }
        if (const auto failed = failureLine(l); failed && !cur.empty()) {
            if (cur.run.failure.empty()) cur.run.failure = *failed;
            continue;
        }
        if (comment || !bench::parseCount(t[0])) continue;  // other comments, NCCL INFO lines, shell prompts
        if (!layout) {
            const bool errorLike = t.size() >= 8 && t[t.size() - 1].find('e') != std::string_view::npos;
            layout = layoutFromWidth(t.size(), errorLike);
            if (!layout)
                diag.fail(n, "table row of " + std::to_string(t.size()) +
                                 " cells without a `size count type ...` column header (missing header?)");
            if (!warnedGuess) {
                diag.warn(n, "no `size count type ...` column header before the table: columns taken from the row width (" +
                                 std::to_string(t.size()) + " cells)");
                warnedGuess = true;
            }
        }
        if (t.size() < layout->cells() && (beforeNccl || !joined.empty())) {  // the rest comes on a later line
            pending = std::string(l);
            pendingLine = n;
            continue;
        }
        if (t.size() != layout->cells())
            diag.fail(joined.empty() ? n : pendingLine, "row has " + std::to_string(t.size()) + " cells, the header " +
                                                            std::to_string(layout->cells()) + " (truncated output?)");
        if (cur.firstLine == 0) cur.firstLine = n;
        if (cur.run.rows.empty() && !sawTime) cur.run.time = time;
        CollectiveRow r;
        const auto size = bench::parseCount(t[0]);
        const auto count = bench::parseCount(t[1]);
        if (!size || !count) diag.fail(n, "`size`/`count` is not a whole number");
        r.sizeBytes = *size;
        r.count = *count;
        r.type = std::string(t[2]);
        if (layout->redop >= 0) r.redop = std::string(t[static_cast<std::size_t>(layout->redop)]);
        const auto number = [&](std::size_t i, const char* what) {
            const auto v = bench::parseNumber(t[i]);
            if (!v || *v < 0) diag.fail(n, std::string("`") + what + "` is not a number: " + std::string(t[i].substr(0, 40)));
            return *v;
        };
        const auto wrong = [&](std::size_t i) -> std::int64_t {
            if (t[i] == "N/A") {
                if (naWrong++ == 0) naFirst = n;
                return 0;
            }
            if (layout->errorColumn) {
                (void)number(i, "error");
                return 0;  // a relative error, not a count of wrong elements
            }
            const auto v = bench::parseCount(t[i]);
            if (!v) diag.fail(n, "`#wrong` is not a count: " + std::string(t[i].substr(0, 40)));
            return *v;
        };
        const auto b = static_cast<std::size_t>(layout->leading);
        r.timeUs = number(b, "time");
        r.algbwGBs = number(b + 1, "algbw");
        r.busbwGBs = number(b + 2, "busbw");
        r.wrong = wrong(b + 3);
        r.inPlaceTimeUs = number(b + 4, "time");
        r.inPlaceAlgbwGBs = number(b + 5, "algbw");
        r.inPlaceBusbwGBs = number(b + 6, "busbw");
        r.wrong += wrong(b + 7);
        if (r.wrong > 0) diag.warn(n, std::to_string(r.wrong) + " wrong element(s) at " + std::to_string(r.sizeBytes) + " B: the run is broken");
        cur.run.rows.push_back(std::move(r));
    }
    finish();
    if (naWrong) diag.warn(naFirst, std::to_string(naWrong) + " `N/A` #wrong cell(s) (validation off, -c 0)");
    if (!sawTime && !result.runs.empty()) diag.warn(0, "no `date +%s` line: the file's mtime is used as the run time");
    if (result.runs.empty()) diag.fail(0, "no nccl-tests result table (`size count type ... busbw` rows) and no `# Rank N ... on HOST` lines in the file");
    return result;
}

std::string NcclTestsImporter::nameFromPath(std::string_view path, std::string_view /*text*/) const { return toolFromFileName(path); }

} // namespace fabscope
