#include "importers/sonic_portstat_importer.h"

#include "importers/line_reader.h"
#include "importers/sonic_table.h"
#include "importers/text_util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace fabscope {
namespace {

std::string upper(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

bool isHeader(const std::vector<std::string_view>& t) {
    return t.size() >= 3 && upper(t[0]) == "IFACE" && upper(t[1]) == "STATE";
}

// "B/s", "KB/s", "MB/s", "GB/s": the unit printed as a second token after a rate.
bool isRateUnit(std::string_view s) { return s.size() >= 3 && s.ends_with("/s") && std::isalpha(static_cast<unsigned char>(s[0])); }

} // namespace

std::optional<CounterInfo> portstatCounter(std::string_view column) {
    const std::string c = upper(column);
    // portstat reads these from COUNTERS_DB: RX_OK = IF_IN_UCAST + IF_IN_NON_UCAST packets,
    // RX_DRP = IF_IN_DISCARDS, RX_OVR = ETHER_RX_OVERSIZE_PKTS, and the TX equivalents.
    if (c == "RX_OK") return canonicalCounter("rcv_pkts");
    if (c == "TX_OK") return canonicalCounter("xmit_pkts");
    if (c == "RX_ERR") return canonicalCounter("rcv_errors");
    if (c == "TX_DRP") return canonicalCounter("xmit_discards");
    if (c == "RX_DRP") return CounterInfo{"rx_discards", "packets", "rx"};
    if (c == "TX_ERR") return CounterInfo{"tx_errors", "errors", "tx"};
    if (c == "RX_OVR") return CounterInfo{"rx_oversize", "packets", "rx"};
    if (c == "TX_OVR") return CounterInfo{"tx_oversize", "packets", "tx"};
    return std::nullopt;
}

int SonicPortstatImporter::detect(std::string_view head) const {
    LineReader r(head);
    std::string_view l;
    while (r.next(l) && r.number() < 400) {
        const auto t = splitWhitespace(l);
        if (isHeader(t) && std::any_of(t.begin(), t.end(), [](auto c) { return portstatCounter(c).has_value(); })) return 85;
    }
    return 0;
}

std::int64_t SonicPortstatImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                          const ProgressFn& progress) const {
    std::string node = nodeFromFileName(in.file);
    struct Column {
        std::string name;
        std::optional<CounterInfo> counter;
    };
    std::vector<Column> columns;  // after IFACE and STATE
    bool inTable = false;
    double time = in.mtime;
    bool sawTime = false, warnedNoTime = false, warnedCached = false;
    std::int64_t rows = 0, naCells = 0, naFirstLine = 0;
    std::unordered_map<std::string, SampleWriter::Handle> handles;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto l = trim(raw);
        if (l.empty()) {
            inTable = false;
            continue;
        }
        if (auto t = parseTimeLine(l)) {
            if (sawTime && *t < time) diag.warn(reader.number(), "capture time goes backwards");
            time = *t;
            sawTime = true;
            inTable = false;
            continue;
        }
        if (l.starts_with("# node:")) {
            node = std::string(trim(l.substr(7)));
            if (node.empty()) diag.fail(reader.number(), "`# node:` line without a name");
            continue;
        }
        if (l.starts_with("Last cached time was")) {
            // After `sonic-clear counters` portstat prints counts since that baseline, not since boot.
            if (!warnedCached)
                diag.warn(reader.number(), "counters are relative to the `sonic-clear counters` baseline (" +
                                               std::string(trim(l.substr(20))) + "); a new baseline reads as a counter reset");
            warnedCached = true;
            continue;
        }
        const auto t = splitWhitespace(l);
        if (isHeader(t)) {
            columns.clear();
            for (std::size_t i = 2; i < t.size(); ++i) columns.push_back({std::string(t[i]), portstatCounter(t[i])});
            inTable = true;
            continue;
        }
        if (!inTable || sonicRule(l) || l.starts_with('#') || sonicPrompt(t[0]) || l.starts_with("Command:")) {
            inTable = inTable && !sonicPrompt(t[0]);
            continue;
        }
        if (t.size() < 2) diag.fail(reader.number(), "row without a state column: " + std::string(l.substr(0, 60)));
        const std::string port(t[0]);
        std::size_t at = 2;
        for (const Column& c : columns) {
            if (at >= t.size())
                diag.fail(reader.number(), port + ": the row ends before column " + c.name + " (truncated output?)");
            const auto cell = t[at++];
            if (!c.counter) {  // a derived value: "9.99 B/s", "0.87%", "N/A"; its unit may be a second token
                if (cell != "N/A" && at < t.size() && isRateUnit(t[at])) ++at;
                continue;
            }
            if (cell == "N/A") {
                if (naCells++ == 0) naFirstLine = reader.number();
                continue;
            }
            const auto value = sonicCount(cell);
            if (!value) diag.fail(reader.number(), c.name + " of " + port + " is not a count: " + std::string(cell.substr(0, 40)));
            if (node.empty())
                diag.fail(reader.number(), "the file name gives no switch name (expected SWITCH.portstat.txt or a `# node: NAME` line)");
            if (!sawTime && !warnedNoTime) {
                diag.warn(reader.number(), "no `date +%s` line before the capture: the file's mtime is used");
                warnedNoTime = true;
            }
            const std::string key = port + '\n' + c.counter->name;
            auto h = handles.find(key);
            if (h == handles.end()) h = handles.emplace(key, out.series(node, port, *c.counter)).first;
            out.add(h->second, std::llround(time * 1000.0), static_cast<double>(*value));
            ++rows;
        }
        if (at != t.size())
            diag.fail(reader.number(), port + ": " + std::to_string(t.size() - at) + " cell(s) more than the header has columns");
    }
    if (naCells)
        diag.warn(naFirstLine, std::to_string(naCells) + " `N/A` counter cell(s) skipped (no counter value yet)");
    if (rows == 0) diag.fail(0, "no `show interfaces counters` row with a counter value in the capture");
    return rows;
}

std::string SonicPortstatImporter::nameFromPath(std::string_view path, std::string_view text) const { return nodeNamedByPath(path, text); }

} // namespace fabscope
