#include "core/linkrate.h"

#include <array>
#include <cctype>
#include <charconv>
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

std::optional<double> laneRateGbps(std::string_view speed) {
    for (const auto& [name, rate] : kLaneRates)
        if (name == speed) return rate;
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
    std::string s = width ? std::to_string(*width) + "x" : std::string("??");
    s += speed.empty() ? std::string_view("???") : speed;
    return s;
}

} // namespace fabscope
