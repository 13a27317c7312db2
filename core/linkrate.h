#pragma once
// Link width/speed vocabulary of InfiniBand and Ethernet, and the capacity they give.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fabscope {

// Parses "4x", "1X", "12x"; nullopt for "??" or anything unknown.
std::optional<int> parseWidth(std::string_view token);

// Marketed per-lane data rate in Gb/s for an IB speed name (SDR..XDR, FDR10); nullopt when unknown ("???").
std::optional<double> laneRateGbps(std::string_view speed);

struct WidthSpeed {
    std::optional<int> width;    // lanes
    std::string speed;           // "HDR", "???" when unknown
};

// Splits an ibnetdiscover token such as "4xHDR", "1xSDR", "??EDR", "4x???" or "??x???".
std::optional<WidthSpeed> parseWidthSpeedToken(std::string_view token);

// Capacity in bit/s (width x lane rate); 0 when width or speed is unknown.
std::uint64_t capacityBps(std::optional<int> width, std::string_view speed);

// "4xHDR" style label, "??" / "???" where unknown.
std::string widthSpeedLabel(std::optional<int> width, std::string_view speed);

} // namespace fabscope
