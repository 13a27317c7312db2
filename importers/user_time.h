#pragma once
// A time a user types (the CLI's --from/--to, the GUI's View > Go to time…): UNIX seconds, or a
// UTC time as FabScope prints it or ISO 8601 writes it: "2023-11-14 22:13:20 UTC",
// "2023-11-14T22:13:20Z", "2023-11-14T23:13:20+01:00" (an offset is converted; no zone is UTC).
#include <optional>
#include <string_view>

namespace fabscope {

[[nodiscard]] std::optional<double> readUserTime(std::string_view text);

// A time of day alone ("22:17:05", "22:17"), as a log line gives it: seconds since midnight UTC.
[[nodiscard]] std::optional<double> readTimeOfDay(std::string_view text);

} // namespace fabscope
