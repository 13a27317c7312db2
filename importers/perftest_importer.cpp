#include "importers/perftest_importer.h"

#include "importers/bench_text.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {
namespace {


// perftest's "MB" is 2^20 bytes (format_factor 0x100000 in perftest_parameters.c); with
// --report_gbits it prints Gb/sec = 10^9 bits (factor 125000000 bytes).
constexpr double kGbpsPerMBps = 1048576.0 * 8.0 / 1e9;

struct Column {
    enum Kind { Bytes, Iterations, Typical, Stat, Ignored } kind = Ignored;
    std::string stat;   // stat name for Kind::Stat ("t_min_us", "bw_avg_gbps", ...)
    double scale = 1;   // to the stat's unit
    std::string label;  // as the header wrote it, for messages
};

double bwScale(std::string_view token) { return token.find("MB/sec") != std::string_view::npos ? kGbpsPerMBps : 1.0; }

// "#bytes #iterations t_min[usec] ... 99% percentile[usec] 99.9% percentile[usec]" or
// "#bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate[Mpps]" -> one Column per cell.
std::vector<Column> parseHeader(const std::vector<std::string_view>& t) {
    std::vector<Column> cols;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const auto tok = t[i];
        const auto next = i + 1 < t.size() ? t[i + 1] : std::string_view{};
        const std::string label(tok);
        if (tok == "#bytes") cols.push_back({Column::Bytes, "", 1, label});
        else if (tok == "#iterations") cols.push_back({Column::Iterations, "", 1, label});
        else if (tok == "t_typical[usec]") cols.push_back({Column::Typical, "", 1, label});
        else if (tok == "t_min[usec]") cols.push_back({Column::Stat, "t_min_us", 1, label});
        else if (tok == "t_max[usec]") cols.push_back({Column::Stat, "t_max_us", 1, label});
        else if (tok == "t_avg[usec]") cols.push_back({Column::Stat, "t_avg_us", 1, label});
        else if (tok == "t_stdev[usec]") cols.push_back({Column::Stat, "t_stdev_us", 1, label});
        else if ((tok == "99%" || tok == "99.9%") && next.starts_with("percentile")) {
            cols.push_back({Column::Stat, tok == "99%" ? "p99_us" : "p999_us", 1, label + " " + std::string(next)});
            ++i;
        } else if (tok == "BW" && (next.starts_with("peak[") || next.starts_with("average["))) {
            cols.push_back({Column::Stat, next.starts_with("peak") ? "bw_peak_gbps" : "bw_avg_gbps", bwScale(next),
                            label + " " + std::string(next)});
            ++i;
        } else if (tok.starts_with("BW_peak[") || tok.starts_with("BW_average[")) {
            cols.push_back({Column::Stat, tok.starts_with("BW_peak") ? "bw_peak_gbps" : "bw_avg_gbps", bwScale(tok), label});
        } else if (tok == "MsgRate[Mpps]") cols.push_back({Column::Stat, "msg_rate_mpps", 1, label});
        else cols.push_back({Column::Ignored, "", 1, label});  // a column this version adds; counted, not read
    }
    return cols;
}

// "RDMA_Write Latency Test" -> "ib_write_lat", "Send BW Test" -> "ib_send_bw"; empty otherwise.
std::string toolFromBanner(std::string_view l) {
    const bool lat = l.ends_with("Latency Test");
    const bool bw = l.ends_with("BW Test");
    if (!lat && !bw) return {};
    std::string verb;
    if (l.starts_with("RDMA_Write")) verb = "write";
    else if (l.starts_with("RDMA_Read")) verb = "read";
    else if (l.starts_with("Send")) verb = "send";
    else if (l.starts_with("Atomic")) verb = "atomic";
    else return {};
    return "ib_" + verb + (lat ? "_lat" : "_bw");
}

bool isPerftestTool(std::string_view s) {
    for (const char* verb : {"ib_write_", "ib_read_", "ib_send_", "ib_atomic_"})
        if (s.starts_with(verb)) {
            const auto kind = s.substr(std::string_view(verb).size());
            return kind == "lat" || kind == "bw";
        }
    return false;
}

// "ib_write_lat_gpu001_gpu009.txt" -> {"ib_write_lat", "gpu001", "gpu009"}. Host names hold no '_'.
struct NameParts {
    std::string tool, src, dst;
};
NameParts partsFromFileName(std::string_view path) {
    std::string name = std::filesystem::path(std::string(path)).filename().string();
    for (const char* ext : {".txt", ".log", ".out"})
        if (name.ends_with(ext)) name.resize(name.size() - std::string_view(ext).size());
    NameParts p;
    std::vector<std::string> parts;
    std::size_t b = 0;
    while (b <= name.size()) {
        const auto e = std::min(name.find('_', b), name.size());
        parts.push_back(name.substr(b, e - b));
        b = e + 1;
    }
    if (parts.size() < 3) return p;
    const std::string tool = parts[0] + "_" + parts[1] + "_" + parts[2];
    if (!isPerftestTool(tool)) return p;
    p.tool = tool;
    if (parts.size() == 5 && !parts[3].empty() && !parts[4].empty()) {
        p.src = parts[3];
        p.dst = parts[4];
    }
    return p;
}

// "# fabscope: src=gpu001 dst=gpu009" -> the pair; nullopt when the line is something else.
std::optional<std::pair<std::string, std::string>> pairLine(std::string_view l, std::int64_t line, const DiagnosticSink& diag) {
    if (!l.starts_with("# fabscope:")) return std::nullopt;
    std::string src, dst;
    for (const auto tok : splitWhitespace(l.substr(11))) {
        if (tok.starts_with("src=")) src = std::string(tok.substr(4));
        else if (tok.starts_with("dst=")) dst = std::string(tok.substr(4));
    }
    if (src.empty() || dst.empty()) diag.fail(line, "`# fabscope:` line needs both src=HOST and dst=HOST");
    return std::make_pair(src, dst);
}

bool isRule(std::string_view l) { return l.size() >= 10 && l.find_first_not_of('-') == std::string_view::npos; }

} // namespace

int PerftestImporter::detect(std::string_view head) const {
    const bool latHeader = head.find("t_typical[usec]") != std::string_view::npos ||
                           (head.find("#bytes") != std::string_view::npos && head.find("t_avg[usec]") != std::string_view::npos);
    const bool bwHeader = head.find("#bytes") != std::string_view::npos &&
                          (head.find("BW average[") != std::string_view::npos || head.find("BW_average[") != std::string_view::npos);
    if (latHeader || bwHeader) return 90;
    if (head.find(" Latency Test") != std::string_view::npos || head.find(" BW Test") != std::string_view::npos)
        return head.find("Number of qps") != std::string_view::npos ? 60 : 0;  // banner only: the parse says what is missing
    return 0;
}

ProbeImportResult PerftestImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    const NameParts fromName = partsFromFileName(in.file);
    std::string tool = fromName.tool, src = fromName.src, dst = fromName.dst;
    double time = in.mtime;
    bool sawTime = false, warnedNoTime = false;
    std::vector<Column> cols;
    bool inTable = false;
    std::int64_t tableRows = 0, tableLine = 0, cpuFreqLines = 0, cpuFreqFirst = 0;
    ProbeImportResult result;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    const auto closeTable = [&](bool cut) {
        if (inTable && tableRows == 0)
            diag.warn(tableLine, "result table without rows (the test did not finish?)");
        else if (inTable && cut)
            diag.warn(tableLine, "result table not closed by a dashes line: the output may be cut");
        inTable = false;
    };
    while (reader.next(raw)) {
        const auto l = trim(raw);
        if (l.empty()) continue;
        if (auto t = parseTimeLine(l)) {
            time = *t;
            sawTime = true;
            continue;
        }
        if (auto p = pairLine(l, reader.number(), diag)) {
            src = p->first;
            dst = p->second;
            continue;
        }
        if (isRule(l)) {
            closeTable(false);
            continue;
        }
        if (auto t = toolFromBanner(l); !t.empty()) {
            closeTable(true);
            tool = t;
            continue;
        }
        if (l.starts_with("Conflicting CPU frequency")) {  // perftest's warning printed inside the table
            if (cpuFreqLines++ == 0) cpuFreqFirst = reader.number();
            continue;
        }
        const auto tokens = splitWhitespace(l);
        if (tokens.front() == "#bytes") {
            closeTable(true);
            cols = parseHeader(tokens);
            inTable = true;
            tableRows = 0;
            tableLine = reader.number();
            continue;
        }
        if (!bench::parseCount(tokens.front())) continue;  // banner fields, addresses, GIDs, warnings
        if (!inTable)
            diag.fail(reader.number(), "result row without a `#bytes #iterations ...` header before it (missing header?)");
        if (tokens.size() != cols.size())
            diag.fail(reader.number(), "row has " + std::to_string(tokens.size()) + " cells, the header " +
                                           std::to_string(cols.size()) + " (truncated output?)");
        if (src.empty())
            diag.fail(reader.number(), "no host pair: add a `# fabscope: src=HOST dst=HOST` line or name the file "
                                       "<test>_<src>_<dst>.txt (e.g. ib_write_lat_gpu001_gpu009.txt)");
        if (tool.empty())
            diag.fail(reader.number(), "no test name: no `... Latency Test`/`... BW Test` banner and the file name "
                                       "does not start with ib_<write|read|send>_<lat|bw>");
        if (!sawTime && !warnedNoTime) {
            diag.warn(reader.number(), "no `date +%s` line before the table: the file's mtime is used");
            warnedNoTime = true;
        }
        ProbeResult p;
        p.tool = tool;
        p.time = time;
        p.src = src;
        p.dst = dst;
        for (std::size_t i = 0; i < cols.size(); ++i) {
            const auto& c = cols[i];
            if (c.kind == Column::Ignored) continue;
            const auto v = bench::parseNumber(tokens[i]);
            if (!v || *v < 0)
                diag.fail(reader.number(), "`" + c.label + "` is not a number: " + std::string(tokens[i].substr(0, 40)));
            switch (c.kind) {
            case Column::Bytes: p.msgBytes = static_cast<std::int64_t>(*v); break;
            case Column::Iterations: p.sent = static_cast<std::int64_t>(*v); break;
            case Column::Typical: p.latencyUs = *v; break;
            case Column::Stat: p.stats.emplace_back(c.stat, *v * c.scale); break;
            case Column::Ignored: break;
            }
        }
        if (!p.latencyUs && tool.ends_with("_lat")) p.latencyUs = p.stat("t_avg_us");  // duration mode prints t_avg only
        result.probes.push_back(std::move(p));
        ++tableRows;
    }
    closeTable(true);
    if (cpuFreqLines)
        diag.warn(cpuFreqFirst, std::to_string(cpuFreqLines) +
                                    " `Conflicting CPU frequency` warning(s) skipped (latencies may be inflated)");
    if (result.probes.empty()) diag.fail(0, "no perftest result table (`#bytes #iterations ...` and rows) in the file");
    return result;
}

// The tool and both hosts, as far as the file name gives them (a `src=`/`dst=` line overrides them).
std::string PerftestImporter::nameFromPath(std::string_view path, std::string_view /*text*/) const {
    const NameParts p = partsFromFileName(path);
    return p.tool + "/" + p.src + "/" + p.dst;
}

} // namespace fabscope
