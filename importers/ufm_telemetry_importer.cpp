#include "importers/ufm_telemetry_importer.h"

#include "core/fabric_builder.h"
#include "importers/ib_counter_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

namespace fabscope {
namespace {

using nlohmann::json;

// UFM counter name (between "Infiniband_" and "_u_") -> perfquery field name, so the stored
// names match the other IB importers. MBOut/MBIn are already bytes (UFM multiplies the 4-byte
// words by 4; the sample's ratio MBOut/PckOut is 288 = one 256-byte MAD with its headers).
struct UfmName {
    std::string_view ufm, perfquery;
};
constexpr std::array<UfmName, 17> kNames{{
    {"MBOut", "xmit_bytes"},
    {"MBIn", "rcv_bytes"},
    {"PckOut", "PortXmitPkts"},
    {"PckIn", "PortRcvPkts"},
    {"SymbolErrors", "SymbolErrorCounter"},
    {"LinkRecovers", "LinkErrorRecoveryCounter"},
    {"LinkDowned", "LinkDownedCounter"},
    {"RcvErrors", "PortRcvErrors"},
    {"RcvRemotePhysErrors", "PortRcvRemotePhysicalErrors"},
    {"RcvSwRelayErrors", "PortRcvSwitchRelayErrors"},
    {"XmtDiscards", "PortXmitDiscards"},
    {"XmtConstraintErrors", "PortXmitConstraintErrors"},
    {"RcvConstraintErrors", "PortRcvConstraintErrors"},
    {"LinkIntegrityErrors", "LocalLinkIntegrityErrors"},
    {"ExcBufOverrunErrors", "ExcessiveBufferOverrunErrors"},
    {"VL15Dropped", "VL15Dropped"},
    {"XmitWait", "PortXmitWait"},
}};

// "Infiniband_MBOut_u_Gb" -> field; nullopt for gauges ("_f_" keys: bandwidth, percentages),
// histogram buckets and anything that is not an Infiniband_ counter.
std::optional<IbField> ufmCounter(std::string_view key) {
    if (!key.starts_with("Infiniband_") || key.find("_f_") != std::string_view::npos) return std::nullopt;
    key.remove_prefix(11);
    key = key.substr(0, key.find("_u_"));
    for (const auto& n : kNames)
        if (n.ufm == key) return ibCounterField(n.perfquery);
    return ibCounterField(key);  // an unknown UFM counter is kept under its snake_case name
}

// Line of the k-th object inside the top-level "values" array, for diagnostics.
std::vector<std::int64_t> entryLines(std::string_view bytes) {
    std::vector<std::int64_t> lines;
    std::int64_t line = 1;
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (c == '\n') ++line;
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        else if (c == '{' || c == '[') {
            if (depth == 2 && c == '{') lines.push_back(line);
            ++depth;
        } else if (c == '}' || c == ']') --depth;
    }
    return lines;
}

// Per-value timestamps are microseconds in UFM's samples; milliseconds and seconds are told
// apart by magnitude.
std::optional<std::int64_t> timeMs(const json& t) {
    if (!t.is_number()) return std::nullopt;
    const double v = t.get<double>();
    if (!std::isfinite(v) || v <= 0) return std::nullopt;
    if (v > 1e14) return std::llround(v / 1000.0);
    if (v > 1e11) return std::llround(v);
    return std::llround(v * 1000.0);
}

// The header's "2024-03-05 16:26:11" (no zone: read as UTC).
std::optional<std::int64_t> headerTimeMs(const json& doc) {
    if (!doc.contains("timestamp")) return std::nullopt;
    if (auto ms = timeMs(doc["timestamp"])) return ms;
    if (!doc["timestamp"].is_string()) return std::nullopt;
    std::tm tm{};
    const auto s = doc["timestamp"].get<std::string>();
    if (!strptime(s.c_str(), "%Y-%m-%d %H:%M:%S", &tm)) return std::nullopt;
    return static_cast<std::int64_t>(timegm(&tm)) * 1000;
}

std::string guidText(const json& v) {
    return v.is_string() ? normaliseGuid(v.get<std::string>()) : std::string();
}

} // namespace

int UfmTelemetryImporter::detect(std::string_view head) const {
    const auto b = head.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos || head[b] != '{') return 0;
    int score = 0;
    if (head.find("\"Infiniband_") != std::string_view::npos) score += 60;
    if (head.find("\"port_num\"") != std::string_view::npos) score += 20;
    if (head.find("\"node_guid\"") != std::string_view::npos) score += 15;
    return std::min(score, 95);
}

std::int64_t UfmTelemetryImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                         const ProgressFn& progress) const {
    json doc;
    try {
        doc = json::parse(in.bytes.begin(), in.bytes.end());
    } catch (const json::parse_error& e) {
        const auto at = std::min<std::size_t>(e.byte, in.bytes.size());
        diag.fail(1 + std::count(in.bytes.begin(), in.bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n'),
                  std::string("invalid JSON: ") + e.what());
    } catch (const json::exception& e) {  // e.g. a number too large for a double: no position given
        diag.fail(1, std::string("invalid JSON: ") + e.what());
    }
    if (!doc.is_object() || !doc.contains("values") || !doc["values"].is_array())
        diag.fail(1, "expected a UFM Telemetry object with a \"values\" array");
    const json& values = doc["values"];
    const auto lines = entryLines(in.bytes);
    const auto lineOf = [&](std::size_t k) { return k < lines.size() ? lines[k] : std::int64_t{1}; };
    const auto fileMs = headerTimeMs(doc).value_or(std::llround(in.mtime * 1000.0));

    struct Key {
        std::string node, port, counter;
        std::int64_t t;
        auto operator<=>(const Key&) const = default;
    };
    std::map<Key, std::pair<CounterInfo, double>> samples;
    std::set<std::string> skipped;
    std::int64_t repeats = 0, repeatLine = 0, byPortGuid = 0;
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (progress && (k & 0xff) == 0 && !progress(static_cast<double>(k) / static_cast<double>(values.size()))) throw ImportCancelled();
        const json& v = values[k];
        const auto line = lineOf(k);
        if (!v.is_object()) diag.fail(line, "values[" + std::to_string(k) + "] is not an object");
        // Which port: the stored topology's port GUID when known, else node GUID + port number.
        std::string node = guidText(v.value("node_guid", json()));
        if (node.empty()) node = guidText(v.value("source_id", json()));
        const auto portNum = v.value("port_num", json());
        std::string port = portNum.is_number_unsigned() ? std::to_string(portNum.get<std::uint64_t>()) : std::string();
        if (const auto pg = guidText(v.value("port_guid", json())); !pg.empty() && in.fabric)
            if (auto it = in.fabric->byPortGuid.find(pg); it != in.fabric->byPortGuid.end() &&
                                                         (port.empty() || port == std::to_string(it->second.second))) {
                if (node != it->second.first) ++byPortGuid;
                node = it->second.first;
                port = std::to_string(it->second.second);
            }
        if (node.empty() || port.empty())
            diag.fail(line, "values[" + std::to_string(k) + "] has no node_guid/port_guid and port_num to name its port");
        const auto t = v.contains("timestamp") ? timeMs(v["timestamp"]) : std::optional<std::int64_t>(fileMs);
        if (!t) diag.fail(line, "values[" + std::to_string(k) + "] has an unreadable timestamp");
        for (const auto& [name, value] : v.items()) {
            if (!name.starts_with("Infiniband_") && !name.starts_with("hist")) continue;
            const auto field = ufmCounter(name);
            if (!field) {
                skipped.insert(name);
                continue;
            }
            if (!value.is_number() || value.get<double>() < 0 || !std::isfinite(value.get<double>()))
                diag.fail(line, name + " of values[" + std::to_string(k) + "] is not a non-negative number");
            auto [it, added] = samples.insert_or_assign(Key{node, port, field->info.name, *t},
                                                        std::make_pair(field->info, value.get<double>() * field->scale));
            if (!added && repeats++ == 0) repeatLine = line;
        }
    }
    if (samples.empty()) diag.fail(1, "no Infiniband_ counter in the UFM Telemetry values");
    if (!skipped.empty()) {
        std::string names;
        for (const auto& s : skipped) names += (names.empty() ? "" : ", ") + s;
        diag.warn(lineOf(0), std::to_string(skipped.size()) + " gauges/histograms not stored (not cumulative counters): " + names);
    }
    if (repeats > 0)
        diag.warn(repeatLine, std::to_string(repeats) + " samples repeat a port, counter and timestamp: the last value read is kept");
    if (byPortGuid > 0)
        diag.warn(lineOf(0), std::to_string(byPortGuid) + " ports named through their port GUID in the stored topology");
    for (const auto& [key, v] : samples) out.add(out.series(key.node, key.port, v.first), key.t, v.second);
    return static_cast<std::int64_t>(samples.size());
}

} // namespace fabscope
