#include "core/counters.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace fabscope {
namespace {

struct Canonical {
    std::string_view name, unit, direction;
};

constexpr std::array<Canonical, 23> kCanonical{{
    {"xmit_bytes", "bytes", "tx"},
    {"rcv_bytes", "bytes", "rx"},
    {"xmit_pkts", "packets", "tx"},
    {"rcv_pkts", "packets", "rx"},
    {"xmit_wait", "ticks", "tx"},
    {"symbol_errors", "errors", "rx"},
    {"link_error_recovery", "events", ""},
    {"link_downed", "events", ""},
    {"rcv_errors", "errors", "rx"},
    {"xmit_discards", "packets", "tx"},
    {"fec_uncorrectable", "errors", "rx"},
    {"cnp_sent", "packets", "tx"},
    {"cnp_handled", "packets", "rx"},
    {"ecn_marked", "packets", "rx"},
    {"rcv_remote_physical_errors", "errors", "rx"},
    {"local_link_integrity_errors", "errors", ""},
    {"excessive_buffer_overrun_errors", "errors", "rx"},
    // Ethernet switch port counters (SAI / SONiC portstat) with no IB equivalent.
    {"rx_discards", "packets", "rx"},
    {"tx_errors", "errors", "tx"},
    {"rcv_ucast_pkts", "packets", "rx"},
    {"xmit_ucast_pkts", "packets", "tx"},
    {"rcv_non_ucast_pkts", "packets", "rx"},
    {"xmit_non_ucast_pkts", "packets", "tx"},
}};

struct Alias {
    std::string_view alias, canonical;
    double scale;
};

// Lower-cased aliases. PortXmitData/PortRcvData count 4-byte words (IBA), hence scale 4.
constexpr std::array<Alias, 40> kAliases{{
    {"portxmitdata", "xmit_bytes", 4},
    {"portrcvdata", "rcv_bytes", 4},
    {"portxmitpkts", "xmit_pkts", 1},
    {"portrcvpkts", "rcv_pkts", 1},
    {"portxmitwait", "xmit_wait", 1},
    {"symbolerrorcounter", "symbol_errors", 1},
    {"linkerrorrecoverycounter", "link_error_recovery", 1},
    {"linkdownedcounter", "link_downed", 1},
    {"portrcverrors", "rcv_errors", 1},
    {"portxmitdiscards", "xmit_discards", 1},
    {"portrcvremotephysicalerrors", "rcv_remote_physical_errors", 1},
    {"locallinkintegrityerrors", "local_link_integrity_errors", 1},
    {"excessivebufferoverrunerrors", "excessive_buffer_overrun_errors", 1},
    {"port_xmit_data", "xmit_bytes", 4},
    {"port_rcv_data", "rcv_bytes", 4},
    {"port_xmit_packets", "xmit_pkts", 1},
    {"port_rcv_packets", "rcv_pkts", 1},
    {"port_xmit_wait", "xmit_wait", 1},
    {"symbol_error", "symbol_errors", 1},
    {"link_error_recovery", "link_error_recovery", 1},
    {"link_downed", "link_downed", 1},
    {"port_rcv_errors", "rcv_errors", 1},
    {"port_xmit_discards", "xmit_discards", 1},
    {"tx_bytes_phy", "xmit_bytes", 1},
    {"rx_bytes_phy", "rcv_bytes", 1},
    {"tx_packets_phy", "xmit_pkts", 1},
    {"rx_packets_phy", "rcv_pkts", 1},
    {"np_cnp_sent", "cnp_sent", 1},
    {"rp_cnp_handled", "cnp_handled", 1},
    {"np_ecn_marked_roce_packets", "ecn_marked", 1},
    {"sai_port_stat_if_out_octets", "xmit_bytes", 1},
    {"sai_port_stat_if_in_octets", "rcv_bytes", 1},
    {"sai_port_stat_if_in_errors", "rcv_errors", 1},
    {"sai_port_stat_if_out_discards", "xmit_discards", 1},
    {"sai_port_stat_if_in_discards", "rx_discards", 1},
    {"sai_port_stat_if_out_errors", "tx_errors", 1},
    {"sai_port_stat_if_in_ucast_pkts", "rcv_ucast_pkts", 1},
    {"sai_port_stat_if_out_ucast_pkts", "xmit_ucast_pkts", 1},
    {"sai_port_stat_if_in_non_ucast_pkts", "rcv_non_ucast_pkts", 1},
    {"sai_port_stat_if_out_non_ucast_pkts", "xmit_non_ucast_pkts", 1},
}};

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// pfc_{tx,rx}_pause[_us]_prioN with N in 0..7
std::optional<CounterInfo> pfcCounter(std::string_view s) {
    for (std::string_view dir : {"tx", "rx"}) {
        for (bool us : {false, true}) {
            std::string prefix = "pfc_" + std::string(dir) + "_pause" + (us ? "_us" : "") + "_prio";
            if (s.size() == prefix.size() + 1 && s.starts_with(prefix) && s.back() >= '0' && s.back() <= '7')
                return CounterInfo{std::string(s), us ? "us" : "frames", std::string(dir)};
        }
    }
    return std::nullopt;
}

// COUNTERS_DB names: sai_port_stat_pfc_N_{rx,tx}_pkts and _{rx,tx}_pause_duration_us (the
// duration without _us has no unit in SAI and is not taken).
std::optional<CounterInfo> saiPfcCounter(std::string_view s) {
    constexpr std::string_view prefix = "sai_port_stat_pfc_";
    if (!s.starts_with(prefix) || s.size() < prefix.size() + 2 || s[prefix.size()] < '0' || s[prefix.size()] > '7' ||
        s[prefix.size() + 1] != '_')
        return std::nullopt;
    const char prio = s[prefix.size()];
    const auto rest = s.substr(prefix.size() + 2);
    for (std::string_view dir : {"rx", "tx"}) {
        if (rest == std::string(dir) + "_pkts") return pfcCounter("pfc_" + std::string(dir) + "_pause_prio" + prio);
        if (rest == std::string(dir) + "_pause_duration_us")
            return pfcCounter("pfc_" + std::string(dir) + "_pause_us_prio" + prio);
    }
    return std::nullopt;
}

} // namespace

std::optional<CounterInfo> canonicalCounter(std::string_view nameOrAlias) {
    const std::string s = lower(nameOrAlias);
    for (const auto& c : kCanonical)
        if (c.name == s) return CounterInfo{std::string(c.name), std::string(c.unit), std::string(c.direction)};
    if (auto pfc = pfcCounter(s)) return pfc;
    if (auto sai = saiPfcCounter(s)) return sai;
    for (const auto& a : kAliases)
        if (a.alias == s) return canonicalCounter(a.canonical);
    return std::nullopt;
}

double aliasScale(std::string_view nameOrAlias) {
    const std::string s = lower(nameOrAlias);
    for (const auto& a : kAliases)
        if (a.alias == s) return a.scale;
    return 1.0;
}

} // namespace fabscope
