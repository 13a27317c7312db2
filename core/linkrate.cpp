#include "core/linkrate.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <utility>

namespace fabscope {
namespace {
// Per-lane data rates as vendors quote them (4xHDR = 200 Gb/s); see docs/FORMATS.md.
constexpr std::array<std::pair<std::string_view, double>, 9> kLaneRates{{
    {"SDR", 2.5},
    {"DDR", 5.0},
    {"QDR", 10.0},
    {"FDR10", 10.0},
    {"FDR", 14.0},
    {"EDR", 25.0},
    {"HDR", 50.0},
    {"NDR", 100.0},
    {"XDR", 200.0},
}};
} // namespace

std::optional<int> parseWidth(std::string_view token) {
    if (token.empty()) return std::nullopt;
    if (token.back() == 'x' || token.back() == 'X') token.remove_suffix(1);
    int w = 0;
    auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), w);
    if (ec != std::errc{} || p != token.data() + token.size() || w <= 0 || w > 32) return std::nullopt;
    return w;
}

std::optional<std::string> ibSpeedOfLaneRate(double gbps) {
    for (const auto& [name, rate] : kLaneRates)
        if (rate == gbps && name != "FDR10") return std::string(name);
    return std::nullopt;
}

std::optional<double> laneRateGbps(std::string_view speed) {
    for (const auto& [name, rate] : kLaneRates)
        if (name == speed) return rate;
    if (speed.size() > 3 && speed.ends_with("GbE")) {  // "400GbE", "2.5GbE"
        double g = 0;
        const auto digits = speed.substr(0, speed.size() - 3);
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), g);
        if (ec == std::errc{} && p == digits.data() + digits.size() && g > 0 && g <= 3200) return g;
    }
    return std::nullopt;
}

namespace {

std::string gbeName(double gbps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%gGbE", gbps);
    return buf;
}

}  // namespace

std::optional<std::string> ethernetSpeed(std::string_view text) {
    if (text.starts_with("Speed:")) text.remove_prefix(6);
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    // A number, with "p" as the decimal point in lldpd's names ("2p5GigT").
    std::string number;
    std::size_t k = 0;
    auto digitAt = [&](std::size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); };
    while (digitAt(k) || (k > 0 && (text[k] == 'p' || text[k] == '.') && digitAt(k + 1))) number += text[k] == 'p' ? '.' : text[k], ++k;
    if (number.empty()) return std::nullopt;
    double v = 0;
    auto [p, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
    if (ec != std::errc{} || v <= 0) return std::nullopt;
    std::string unit;
    for (std::size_t j = k; j < text.size() && j < k + 4; ++j) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[j])));
    if (unit.starts_with("g")) return gbeName(v);  // 400GbaseR, 10GigBaseR, 400GBASE-SR8, SONiC's 400G
    // ethtool's 400000Mb/s, lldpd's 1000BaseTFD / 100BaseTXFD, SONiC's 100M
    if (unit.starts_with("mb/s") || unit.starts_with("mbps") || unit.starts_with("base") || unit == "m" || unit.starts_with("m "))
        return gbeName(v / 1000.0);
    return std::nullopt;
}

std::optional<WidthSpeed> parseWidthSpeedToken(std::string_view token) {
    std::size_t i = 0;
    WidthSpeed ws;
    if (token.starts_with("??")) {
        i = 2;
        if (i < token.size() && (token[i] == 'x' || token[i] == 'X')) ++i;
    } else {
        while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
        if (i == 0 || i >= token.size() || (token[i] != 'x' && token[i] != 'X')) return std::nullopt;
        ws.width = parseWidth(token.substr(0, i + 1));
        if (!ws.width) return std::nullopt;
        ++i;
    }
    std::string_view speed = token.substr(i);
    if (speed.empty()) return std::nullopt;
    if (speed.find_first_not_of('?') == std::string_view::npos) {
        ws.speed = "???";
        return ws;
    }
    if (!laneRateGbps(speed)) return std::nullopt;
    ws.speed = std::string(speed);
    return ws;
}

std::uint64_t capacityBps(std::optional<int> width, std::string_view speed) {
    auto rate = laneRateGbps(speed);
    if (!width || !rate) return 0;
    return static_cast<std::uint64_t>(*width * *rate * 1e9);
}

std::string widthSpeedLabel(std::optional<int> width, std::string_view speed) {
    if (speed.ends_with("GbE")) return std::string(speed);  // Ethernet: the port's speed, no lanes
    if (!width && (speed.empty() || speed == "???")) return "unknown";  // e.g. LLDP without a MAU type
    std::string s = width ? std::to_string(*width) + "x" : std::string("??");
    s += speed.empty() ? std::string_view("???") : speed;
    return s;
}

} // namespace fabscope
