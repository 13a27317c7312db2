#include "importers/pingmesh_csv_importer.h"

#include "importers/line_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>

namespace fabscope {
namespace {

enum Column { kTime, kSrc, kDst, kRtt, kSent, kLost, kPath, kColumns };
constexpr std::array<std::string_view, kColumns> kNames{"timestamp", "src", "dst", "rtt_us", "sent", "lost", "path"};
constexpr std::string_view kExpected = "timestamp,src,dst,rtt_us,sent,lost[,path]";

// Splits one CSV record; "quoted, fields" with "" escapes. False on an unterminated quote.
bool splitCsv(std::string_view line, std::vector<std::string>& out) {
    out.clear();
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.emplace_back(trim(cur));
    return !quoted;
}

std::optional<double> number(std::string_view s) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<std::int64_t> integer(std::string_view s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

// Column index of each known name in the header; missing required columns and unknown ones fail.
std::array<int, kColumns> headerColumns(const std::vector<std::string>& fields, DiagnosticSink& diag, std::int64_t line) {
    std::array<int, kColumns> at;
    at.fill(-1);
    for (std::size_t i = 0; i < fields.size(); ++i) {
        std::size_t k = 0;
        while (k < kColumns && kNames[k] != fields[i]) ++k;
        if (k == kColumns) diag.fail(line, "unknown column '" + fields[i].substr(0, 40) + "' (expected " + std::string(kExpected) + ")");
        if (at[k] >= 0) diag.fail(line, "column '" + fields[i] + "' twice");
        at[k] = static_cast<int>(i);
    }
    for (std::size_t k = 0; k < kPath; ++k)
        if (at[k] < 0) diag.fail(line, "missing column '" + std::string(kNames[k]) + "' (expected " + std::string(kExpected) + ")");
    return at;
}

std::vector<std::string> hops(std::string_view path, DiagnosticSink& diag, std::int64_t line) {
    std::vector<std::string> out;
    if (path.empty()) return out;
    for (std::string_view rest = path;;) {
        const auto gt = rest.find('>');
        const auto hop = trim(rest.substr(0, gt));
        if (hop.empty()) diag.fail(line, "empty hop in path '" + std::string(path.substr(0, 80)) + "'");
        out.emplace_back(hop);
        if (gt == std::string_view::npos) break;
        rest = rest.substr(gt + 1);
    }
    if (out.size() < 2) diag.fail(line, "a path needs at least the source and the destination hop");
    return out;
}

std::string_view firstRecord(std::string_view head) {
    if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
    LineReader r(head);
    std::string_view line;
    while (r.next(line)) {
        line = trim(line);
        if (!line.empty() && !line.starts_with('#')) return line;
    }
    return {};
}

} // namespace

int PingmeshCsvImporter::detect(std::string_view head) const {
    std::vector<std::string> f;
    if (!splitCsv(firstRecord(head), f)) return 0;
    int known = 0;
    for (const auto& name : f)
        for (auto k : kNames) known += name == k ? 1 : 0;
    const bool core = std::find(f.begin(), f.end(), "rtt_us") != f.end() && std::find(f.begin(), f.end(), "src") != f.end();
    return core && known >= 4 ? 100 : 0;
}

ProbeImportResult PingmeshCsvImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    LineReader reader(in.bytes, &progress);  // without a byte-order mark (Importer::parse)
    std::string_view line;
    std::vector<std::string> f;
    std::optional<std::array<int, kColumns>> col;
    std::size_t width = 0;
    ProbeImportResult result;
    while (reader.next(line)) {
        line = trim(line);
        if (line.empty() || line.starts_with('#')) continue;
        const std::int64_t n = reader.number();
        if (!splitCsv(line, f)) diag.fail(n, "unterminated quote");
        if (!col) {
            col = headerColumns(f, diag, n);
            width = f.size();
            continue;
        }
        if (f.size() != width)
            diag.fail(n, "expected " + std::to_string(width) + " fields, got " + std::to_string(f.size()));
        auto field = [&](Column c) -> const std::string& { return f[static_cast<std::size_t>((*col)[c])]; };
        ProbeResult p;
        p.tool = "pingmesh";
        const auto ts = number(field(kTime));
        if (!ts || *ts < 0) diag.fail(n, "bad timestamp '" + field(kTime).substr(0, 40) + "' (UNIX seconds expected)");
        p.time = *ts;
        p.src = field(kSrc);
        p.dst = field(kDst);
        if (p.src.empty() || p.dst.empty()) diag.fail(n, "empty src or dst");
        if (p.src == p.dst) diag.fail(n, "src and dst are the same host '" + p.src + "'");
        const auto sent = integer(field(kSent)), lost = integer(field(kLost));
        if (!sent || *sent < 1) diag.fail(n, "bad sent '" + field(kSent).substr(0, 40) + "' (a count >= 1 expected)");
        if (!lost || *lost < 0) diag.fail(n, "bad lost '" + field(kLost).substr(0, 40) + "' (a count >= 0 expected)");
        if (*lost > *sent) diag.fail(n, "lost " + std::to_string(*lost) + " > sent " + std::to_string(*sent));
        p.sent = *sent;
        p.lost = *lost;
        const std::string& rtt = field(kRtt);
        if (rtt.empty()) {
            if (p.lost != p.sent) diag.fail(n, "empty rtt_us although " + std::to_string(p.sent - p.lost) + " probe(s) answered");
        } else {
            const auto v = number(rtt);
            if (!v) diag.fail(n, "bad rtt_us '" + rtt.substr(0, 40) + "' (microseconds expected)");
            if (*v < 0) diag.fail(n, "negative rtt_us " + rtt.substr(0, 40));
            if (p.lost == p.sent) diag.fail(n, "rtt_us given although all " + std::to_string(p.sent) + " probes were lost");
            p.latencyUs = *v;
        }
        if ((*col)[kPath] >= 0) p.path = hops(field(kPath), diag, n);
        result.probes.push_back(std::move(p));
    }
    if (!col) diag.fail(0, "empty pingmesh CSV: expected the header " + std::string(kExpected));
    if (result.probes.empty()) diag.fail(0, "no probe rows");
    return result;
}

} // namespace fabscope
