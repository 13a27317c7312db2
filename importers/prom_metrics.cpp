#include "importers/prom_metrics.h"

#include "core/fabric_builder.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace fabscope {
namespace {

// Suffixes of treydock's infiniband_{switch,hca}_port_<x>_total and node_exporter's
// node_infiniband_<x>_total that have a canonical name; data counters are already bytes.
constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kNames{{
    {"transmit_data_bytes", "xmit_bytes"},
    {"receive_data_bytes", "rcv_bytes"},
    {"transmit_packets", "xmit_pkts"},
    {"receive_packets", "rcv_pkts"},
    {"transmit_wait", "xmit_wait"},
    {"symbol_error", "symbol_errors"},
    {"link_error_recovery", "link_error_recovery"},
    {"link_downed", "link_downed"},
    {"receive_errors", "rcv_errors"},
    {"transmit_discards", "xmit_discards"},
    {"receive_remote_physical_errors", "rcv_remote_physical_errors"},
    {"local_link_integrity_errors", "local_link_integrity_errors"},
    {"excessive_buffer_overrun_errors", "excessive_buffer_overrun_errors"},
    // node_exporter
    {"port_data_transmitted_bytes", "xmit_bytes"},
    {"port_data_received_bytes", "rcv_bytes"},
    {"port_packets_transmitted", "xmit_pkts"},
    {"port_packets_received", "rcv_pkts"},
    {"port_transmit_wait", "xmit_wait"},
    {"port_errors_received", "rcv_errors"},
    {"port_discards_transmitted", "xmit_discards"},
}};

CounterInfo counterFor(std::string_view suffix) {
    for (const auto& [from, to] : kNames)
        if (from == suffix)
            if (auto c = canonicalCounter(to)) return *c;
    // Kept under its exporter name so nothing is lost (multicast, unicast, constraint errors...).
    std::string unit = suffix.find("bytes") != std::string_view::npos     ? "bytes"
                       : suffix.find("packets") != std::string_view::npos ? "packets"
                       : suffix.find("error") != std::string_view::npos   ? "errors"
                                                                           : "";
    return CounterInfo{std::string(suffix), unit, ""};
}

std::string label(const Labels& l, std::string_view key) {
    const auto it = l.find(key);
    return it == l.end() ? std::string() : it->second;
}

// "gpu007.cluster:9100" -> "gpu007"; IP addresses are kept whole (without the port).
std::string hostOf(std::string instance) {
    if (const auto c = instance.rfind(':'); c != std::string::npos && instance.find(']') == std::string::npos &&
                                            instance.find(':') == c)
        instance.resize(c);
    const bool ip = !instance.empty() && std::all_of(instance.begin(), instance.end(), [](char ch) {
        return std::isdigit(static_cast<unsigned char>(ch)) || ch == '.';
    });
    if (!ip)
        if (const auto d = instance.find('.'); d != std::string::npos) instance.resize(d);
    return instance;
}

// The exporters name HCAs by port GUID (from `ibnetdiscover -p`): the stored topology gives the node.
std::string nodeForGuid(const std::string& guid, const FabricIndex* fabric, std::string* port) {
    const std::string g = normaliseGuid(guid);
    if (g.empty()) return guid;
    if (fabric)
        if (auto it = fabric->byPortGuid.find(g); it != fabric->byPortGuid.end()) {
            if (port && port->empty()) *port = std::to_string(it->second.second);
            return it->second.first;
        }
    return g;
}

std::string_view stripTotal(std::string_view s) {
    if (s.ends_with("_total")) s.remove_suffix(6);
    return s;
}

} // namespace

std::string hostFromFileName(std::string_view path) {
    const auto slash = path.find_last_of("/\\");
    std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    return std::string(name.substr(0, name.find('.')));
}

std::optional<PromTarget> mapPromSeries(std::string_view metric, const Labels& labels, const FabricIndex* fabric,
                                        const std::string& fileHost, std::string& why) {
    PromTarget t;
    constexpr std::string_view kSwitch = "infiniband_switch_port_", kHca = "infiniband_hca_port_";
    if (metric.starts_with(kSwitch) || metric.starts_with(kHca)) {  // treydock
        if (!metric.ends_with("_total")) {
            why = "gauge";
            return std::nullopt;
        }
        const auto suffix = stripTotal(metric.substr(metric.starts_with(kSwitch) ? kSwitch.size() : kHca.size()));
        t.port = label(labels, "port");
        t.node = nodeForGuid(label(labels, "guid"), fabric, &t.port);
        if (t.node.empty() || t.port.empty()) {
            why = "missing guid/port labels";
            return std::nullopt;
        }
        t.counter = counterFor(suffix);
        return t;
    }
    if (metric.starts_with("node_infiniband_")) {
        std::string_view suffix = metric.substr(16);
        if (!suffix.ends_with("_total")) {
            why = "gauge";
            return std::nullopt;
        }
        suffix = stripTotal(suffix);
        const std::string instance = label(labels, "instance");
        const std::string host = instance.empty() ? fileHost : hostOf(instance);
        const std::string device = label(labels, "device");
        t.node = host.empty() ? device : host + " " + device;  // "gpu007 mlx5_0", the usual HCA description
        t.port = label(labels, "port");
        if (device.empty() || t.port.empty()) {
            why = "missing device/port labels";
            return std::nullopt;
        }
        // counters_ext duplicates of the same counters: kept apart so they never mix in one series.
        t.counter = suffix.starts_with("legacy_") ? CounterInfo{std::string(suffix), "", ""} : counterFor(suffix);
        if (suffix.starts_with("legacy_") && suffix.find("bytes") != std::string_view::npos) t.counter.unit = "bytes";
        return t;
    }
    if (metric.starts_with("node_ethtool_")) {
        const std::string stat(stripTotal(metric.substr(13)));
        const auto c = canonicalCounter(stat);
        if (!c) {
            why = "ethtool statistic without a canonical name";
            return std::nullopt;
        }
        const std::string instance = label(labels, "instance");
        t.node = instance.empty() ? fileHost : hostOf(instance);
        t.port = label(labels, "device");
        if (t.node.empty() || t.port.empty()) {
            why = "missing instance/device labels";
            return std::nullopt;
        }
        t.counter = *c;
        t.scale = aliasScale(stat);
        return t;
    }
    if (metric.starts_with("infiniband_") && metric.ends_with("_total") && labels.count("local_guid")) {  // guilbaults
        const std::string name(stripTotal(metric.substr(11)));
        const auto c = canonicalCounter(name);
        t.counter = c ? *c : CounterInfo{name, "", ""};
        t.scale = c ? aliasScale(name) : 1;  // portxmitdata/portrcvdata: raw 4-byte words
        t.port = label(labels, "local_port");
        t.node = nodeForGuid(label(labels, "local_guid"), fabric, nullptr);
        if (t.port.empty()) {
            why = "missing local_port label";
            return std::nullopt;
        }
        return t;
    }
    why = "not an InfiniBand/ethtool counter";
    return std::nullopt;
}

} // namespace fabscope
