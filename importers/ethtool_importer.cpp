#include "importers/ethtool_importer.h"

#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <unordered_map>

namespace fabscope {
namespace {

// "ethtool -S ens1f0np0", "# ethtool -S eth2", "$ ethtool -S eth2", "+ ethtool -S eth2" -> the interface.
std::optional<std::string_view> headerInterface(std::string_view l) {
    for (std::string_view p : {"# ", "$ ", "+ ", "#"})
        if (l.starts_with(p)) {
            l = trim(l.substr(p.size()));
            break;
        }
    for (std::string_view cmd : {"ethtool -S ", "ethtool --statistics ", "sudo ethtool -S "})
        if (l.starts_with(cmd)) {
            auto rest = trim(l.substr(cmd.size()));
            rest = rest.substr(0, rest.find_first_of(" \t"));
            if (!rest.empty()) return rest;
        }
    return std::nullopt;
}

std::string hostFromFileName(std::string_view path) {
    std::string name = std::filesystem::path(std::string(path)).filename().string();
    return name.substr(0, name.find('.'));
}

// "gpu01.ens1f0np0.txt" -> "ens1f0np0": a bare `ethtool -S IFACE > FILE` holds no line naming
// its interface, so its file name may, as HOST.IFACE.<anything>. An interface name starts with
// a letter and holds a digit (eth0, ens1f0np0, enp65s0f1): "gpu01.ethtool.txt" names none.
std::string interfaceFromFileName(std::string_view path) {
    const std::string name = std::filesystem::path(std::string(path)).filename().string();
    const auto first = name.find('.');
    if (first == std::string::npos) return {};
    const auto second = name.find('.', first + 1);
    if (second == std::string::npos) return {};  // HOST.txt: the part after the dot is the extension
    const std::string part = name.substr(first + 1, second - first - 1);
    const bool letterFirst = !part.empty() && std::isalpha(static_cast<unsigned char>(part.front()));
    const bool digit = std::any_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    const bool plain = std::all_of(part.begin(), part.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '@';
    });
    return letterFirst && digit && plain ? part : std::string();
}

// "rx_prio3_pause" -> (rx, 3, rest "pause")
bool prioName(std::string_view n, std::string& dir, char& prio, std::string_view& rest) {
    if (!(n.starts_with("rx_prio") || n.starts_with("tx_prio")) || n.size() < 9 || n[7] < '0' || n[7] > '7' || n[8] != '_')
        return false;
    dir = std::string(n.substr(0, 2));
    prio = n[7];
    rest = n.substr(9);
    return true;
}

} // namespace

std::optional<CounterInfo> ethtoolCounter(std::string_view n) {
    std::string dir;
    char prio = 0;
    std::string_view rest;
    if (prioName(n, dir, prio, rest)) {
        if (rest == "pause") return CounterInfo{"pfc_" + dir + "_pause_prio" + prio, "frames", dir};
        if (rest == "pause_duration") return CounterInfo{"pfc_" + dir + "_pause_us_prio" + prio, "us", dir};
        if (rest == "pause_transition" || rest == "discards" || rest == "buf_discard" || rest == "cong_discard" ||
            rest == "marked")
            return CounterInfo{std::string(n), rest == "pause_transition" ? "events" : "packets", dir};
        return std::nullopt;  // rx_prio3_bytes/packets: per-priority traffic, not stored
    }
    if (n == "rx_crc_errors_phy") return canonicalCounter("rcv_errors");
    if (n == "link_down_events_phy") return canonicalCounter("link_downed");
    if (n == "tx_discards_phy") return canonicalCounter("xmit_discards");
    if (n.ends_with("_phy") && (n.starts_with("tx_bytes") || n.starts_with("rx_bytes") || n.starts_with("tx_packets") ||
                                n.starts_with("rx_packets")))
        return canonicalCounter(n);
    if (n == "rx_discards_phy" || n == "rx_out_of_buffer") return CounterInfo{std::string(n), "packets", "rx"};
    if (n == "tx_pause_storm_warning_events" || n == "tx_pause_storm_error_events") return CounterInfo{std::string(n), "events", "tx"};
    if (n == "rx_corrected_bits_phy" || n == "rx_symbol_err_phy" || n == "rx_pcs_symbol_err_phy" ||
        (n.starts_with("rx_err_lane_") && n.ends_with("_phy")))
        return CounterInfo{std::string(n), "errors", "rx"};
    if (n == "np_cnp_sent" || n == "rp_cnp_handled" || n == "np_ecn_marked_roce_packets") return canonicalCounter(n);
    return std::nullopt;
}

int EthtoolImporter::detect(std::string_view head) const {
    int score = 0;
    LineReader r(head);
    std::string_view l;
    int counters = 0;
    while (r.next(l) && r.number() < 200) {
        const auto t = trim(l);
        if (headerInterface(t)) score = std::max(score, 80);
        if (t == "NIC statistics:") score = std::max(score, 70);
        if (t.ends_with(": 0") || t.find("_phy: ") != std::string_view::npos) ++counters;
    }
    if (score == 0 && counters >= 10 && head.find("rx_bytes_phy: ") != std::string_view::npos) score = 40;
    return counters > 0 ? score : 0;
}

std::int64_t EthtoolImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                    const ProgressFn& progress) const {
    const std::string node = hostFromFileName(in.file);
    if (node.empty()) diag.fail(0, "the file name gives no host (expected HOST.ethtool.txt)");
    const std::string portInName = interfaceFromFileName(in.file);
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    std::string port;
    double time = in.mtime;
    bool sawTime = false, warnedNoTime = false;
    std::int64_t rows = 0;
    std::unordered_map<std::string, SampleWriter::Handle> handles;
    while (reader.next(raw)) {
        const auto l = trim(raw);
        if (l.empty() || l == "NIC statistics:") continue;
        if (auto t = parseTimeLine(l)) {
            if (sawTime && *t < time) diag.warn(reader.number(), "capture time goes backwards");
            time = *t;
            sawTime = true;
            continue;
        }
        if (auto ifname = headerInterface(l)) {
            port = std::string(*ifname);
            continue;
        }
        if (l.starts_with('#')) continue;
        const auto colon = l.rfind(':');
        if (colon == std::string_view::npos || colon == 0) {
            diag.warn(reader.number(), "ignored a line that is not `name: value`: " + std::string(l.substr(0, 60)));
            continue;
        }
        const auto name = trim(l.substr(0, colon));
        const auto value = parseU64(trim(l.substr(colon + 1)));
        if (!value) diag.fail(reader.number(), "counter " + std::string(name) + " has no integer value");
        const auto counter = ethtoolCounter(name);
        if (!counter) continue;  // per-queue and software counters are not stored
        if (port.empty() && !portInName.empty()) {
            port = portInName;
            diag.warn(reader.number(), "no `ethtool -S IFACE` line before the counters: the port is " + port + ", from the file name");
        }
        if (port.empty())
            diag.fail(reader.number(), "counter before any `ethtool -S IFACE` line, and the file name names no interface "
                                       "(HOST.IFACE.txt): the port is unknown (see docs/FORMATS.md)");
        if (!sawTime && !warnedNoTime) {
            diag.warn(reader.number(), "no `date +%s` line before the capture: the file's mtime is used");
            warnedNoTime = true;
        }
        const std::string key = port + '\n' + counter->name;
        auto h = handles.find(key);
        if (h == handles.end()) h = handles.emplace(key, out.series(node, port, *counter)).first;
        out.add(h->second, std::llround(time * 1000.0), static_cast<double>(*value));
        ++rows;
    }
    if (rows == 0) diag.fail(0, "no mlx5 port counter (rx_bytes_phy, rx_prioN_pause, ...) in the capture");
    return rows;
}

// The host always comes from the file name, the interface too when no header names it.
std::string EthtoolImporter::nameFromPath(std::string_view path, std::string_view /*text*/) const {
    return hostFromFileName(path) + "/" + interfaceFromFileName(path);
}

} // namespace fabscope
