#include "importers/sonic_pfc_importer.h"

#include "importers/line_reader.h"
#include "importers/sonic_table.h"
#include "importers/text_util.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <unordered_map>
#include <vector>

namespace fabscope {
namespace {

// "Port Rx PFC0 ... PFC7" -> direction "rx"/"tx" and the priority of each column; nullopt otherwise.
struct TableHeader {
    std::string dir;
    std::vector<int> prios;
};
std::optional<TableHeader> tableHeader(const std::vector<std::string_view>& t) {
    if (t.size() < 3 || t[0] != "Port" || (t[1] != "Rx" && t[1] != "Tx")) return std::nullopt;
    TableHeader h{t[1] == "Rx" ? "rx" : "tx", {}};
    for (std::size_t i = 2; i < t.size(); ++i) {
        const auto c = t[i];
        if (c.size() != 4 || !c.starts_with("PFC") || c[3] < '0' || c[3] > '7') return std::nullopt;
        h.prios.push_back(c[3] - '0');
    }
    return h;
}

bool isPfcwdHeader(std::string_view l) {
    return l.find("QUEUE") != std::string_view::npos && l.find("STATUS") != std::string_view::npos &&
           l.find("STORM") != std::string_view::npos;
}

} // namespace

int SonicPfcImporter::detect(std::string_view head) const {
    LineReader r(head);
    std::string_view l;
    bool pfcwd = false;
    while (r.next(l) && r.number() < 400) {
        const auto t = splitWhitespace(l);
        if (auto h = tableHeader(t); h && !h->prios.empty()) return 85;
        if (isPfcwdHeader(l)) pfcwd = true;
    }
    return pfcwd ? 20 : 0;  // only pfcwd stats: claimed so the parse error says what is missing
}

std::int64_t SonicPfcImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                     const ProgressFn& progress) const {
    std::string node = nodeFromFileName(in.file);
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    enum class Mode { None, Table, Pfcwd } mode = Mode::None;
    TableHeader table;
    double time = in.mtime;
    bool sawTime = false, warnedNoTime = false;
    std::int64_t rows = 0, naCells = 0, naFirstLine = 0, pfcwdTables = 0, pfcwdFirstLine = 0, strays = 0,
                 strayFirstLine = 0;
    std::unordered_map<std::string, SampleWriter::Handle> handles;
    while (reader.next(raw)) {
        const auto l = trim(raw);
        if (l.empty()) {
            mode = Mode::None;
            continue;
        }
        if (auto t = parseTimeLine(l)) {
            if (sawTime && *t < time) diag.warn(reader.number(), "capture time goes backwards");
            time = *t;
            sawTime = true;
            mode = Mode::None;
            continue;
        }
        if (l.starts_with("# node:")) {
            node = std::string(trim(l.substr(7)));
            if (node.empty()) diag.fail(reader.number(), "`# node:` line without a name");
            continue;
        }
        if (l.starts_with("Last cached time was")) continue;  // counters since `sonic-clear pfccounters`
        const auto t = splitWhitespace(l);
        if (auto h = tableHeader(t)) {
            if (h->prios.empty()) diag.fail(reader.number(), "`Port Rx`/`Port Tx` header without PFC0..PFC7 columns");
            table = std::move(*h);
            mode = Mode::Table;
            continue;
        }
        if (isPfcwdHeader(l)) {
            if (pfcwdTables++ == 0) pfcwdFirstLine = reader.number();
            mode = Mode::Pfcwd;
            continue;
        }
        if (!t.empty() && sonicPrompt(t[0])) mode = Mode::None;
        if (sonicRule(l) || mode == Mode::Pfcwd) continue;
        if (mode == Mode::None) {  // prompts, comments, other commands' output
            if (!l.starts_with('#') && strays++ == 0) strayFirstLine = reader.number();
            continue;
        }
        if (t.size() != table.prios.size() + 1)
            diag.fail(reader.number(), "row has " + std::to_string(t.size() - 1) + " cells, the `Port " +
                                           (table.dir == "rx" ? "Rx" : "Tx") + "` header " +
                                           std::to_string(table.prios.size()) + " (truncated output?)");
        const std::string port(t[0]);
        for (std::size_t i = 0; i < table.prios.size(); ++i) {
            const auto cell = t[i + 1];
            if (cell == "N/A") {
                if (naCells++ == 0) naFirstLine = reader.number();
                continue;
            }
            const auto value = sonicCount(cell);
            if (!value)
                diag.fail(reader.number(), "PFC" + std::to_string(table.prios[i]) + " of " + port +
                                               " is not a count: " + std::string(cell.substr(0, 40)));
            if (node.empty())
                diag.fail(reader.number(), "the file name gives no switch name (expected SWITCH.pfc.txt or a `# node: NAME` line)");
            if (!sawTime && !warnedNoTime) {
                diag.warn(reader.number(), "no `date +%s` line before the capture: the file's mtime is used");
                warnedNoTime = true;
            }
            const CounterInfo counter{"pfc_" + table.dir + "_pause_prio" + std::to_string(table.prios[i]), "frames",
                                      table.dir};
            const std::string key = port + '\n' + counter.name;
            auto h = handles.find(key);
            if (h == handles.end()) h = handles.emplace(key, out.series(node, port, counter)).first;
            out.add(h->second, std::llround(time * 1000.0), static_cast<double>(*value));
            ++rows;
        }
    }
    if (naCells)
        diag.warn(naFirstLine, std::to_string(naCells) + " `N/A` cell(s) skipped (counter not supported by the ASIC)");
    if (pfcwdTables)
        diag.warn(pfcwdFirstLine, std::to_string(pfcwdTables) + " `show pfcwd stats` table(s) ignored (not read)");
    if (strays)
        diag.warn(strayFirstLine, std::to_string(strays) + " line(s) outside any `Port Rx`/`Port Tx` table ignored");
    if (rows == 0) diag.fail(0, "no `Port Rx`/`Port Tx` PFC counter row in the capture");
    return rows;
}

std::string SonicPfcImporter::nameFromPath(std::string_view path, std::string_view text) const { return nodeNamedByPath(path, text); }

} // namespace fabscope
