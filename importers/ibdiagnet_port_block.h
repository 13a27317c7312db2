#pragma once
// What ibdiagnet2.cables and ibdiagnet2.pm share: the IBDIAG header with its "Running timestamp",
// and one block per port opened by "Port=N Lid=0x.. GUID=0x.. [Device=..] Port Name=..". The
// GUID is the port's (a switch's ports share its node GUID). docs/FORMATS.md.
#include <optional>
#include <string>
#include <string_view>

namespace fabscope {

struct IbdiagnetPortLine {
    std::string guid;  // normalised, "0x" + 16 hex digits
    int port = 0;      // 1..255
};

// "Port=1 Lid=0x0018 GUID=0xb0cf0e0300e5b940 Port Name=.." -> {guid, 1}; nullopt when malformed.
std::optional<IbdiagnetPortLine> parseIbdiagnetPortLine(std::string_view line);

// "# Running timestamp : 2025-03-31 23:43:18 UTC +0000" -> UNIX seconds; nullopt for other lines.
std::optional<double> ibdiagnetRunningTimestamp(std::string_view line);

// Whether a file's head has "Port=.. Lid=0x.. GUID=0x.." block openers.
bool hasIbdiagnetPortLines(std::string_view head);

}  // namespace fabscope
