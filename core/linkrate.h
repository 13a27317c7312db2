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

// The IB speed name of a per-lane rate in Gb/s ("2.5" -> SDR, "10" -> QDR, not FDR10); nullopt
// when no speed runs at it. Older tools (LST's SPD=, ibdm topology files' "-4x-5G->") write rates.
std::optional<std::string> ibSpeedOfLaneRate(double gbps);

struct WidthSpeed {
    std::optional<int> width;    // lanes
    std::string speed;           // "HDR", "???" when unknown
};

// Splits an ibnetdiscover token such as "4xHDR", "1xSDR", "??EDR", "4x???" or "??x???".
std::optional<WidthSpeed> parseWidthSpeedToken(std::string_view token);

// Ethernet: the speed a port runs at, from what tools write: lldpd's operational MAU type
// ("400GbaseR - 400GBASE-R PCS/PMA ...", "10GigBaseR", "1000BaseTFD"), IEEE names ("400GBASE-SR8"),
// ethtool ("400000Mb/s") or SONiC ("400G"). Returns the speed name FabScope stores ("400GbE",
// width 1), nullopt when the text names no speed.
std::optional<std::string> ethernetSpeed(std::string_view text);

// Capacity in bit/s (width x lane rate); 0 when width or speed is unknown. Ethernet speeds
// ("400GbE") are one lane of that rate.
std::uint64_t capacityBps(std::optional<int> width, std::string_view speed);

// "4xHDR" style label, "??" / "???" where unknown.
std::string widthSpeedLabel(std::optional<int> width, std::string_view speed);

} // namespace fabscope
