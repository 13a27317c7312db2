#include "importers/ibdiagnet_port_block.h"

#include "core/fabric_builder.h"
#include "importers/ibdiagnet_folder.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

namespace fabscope {

std::optional<IbdiagnetPortLine> parseIbdiagnetPortLine(std::string_view l) {
    if (!l.starts_with("Port=")) return std::nullopt;
    const auto lid = l.find(" Lid="), guid = l.find(" GUID=");
    if (lid == std::string_view::npos || guid == std::string_view::npos || guid < lid) return std::nullopt;
    const auto number = parseU64(l.substr(5, lid - 5));
    const std::string_view g = l.substr(guid + 6, l.find(' ', guid + 6) - (guid + 6));
    IbdiagnetPortLine p{normaliseGuid(g), number ? static_cast<int>(*number) : 0};
    if (!number || *number == 0 || *number > 255 || p.guid.empty()) return std::nullopt;
    return p;
}

std::optional<double> ibdiagnetRunningTimestamp(std::string_view l) {
    if (!l.starts_with('#')) return std::nullopt;
    const auto colon = l.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    if (trim(l.substr(1, colon - 1)) != "Running timestamp") return std::nullopt;
    return parseIbdiagnetDate(trim(l.substr(colon + 1)));
}

bool hasIbdiagnetPortLines(std::string_view head) {
    return (head.starts_with("Port=") || head.find("\nPort=") != std::string_view::npos) &&
           head.find(" Lid=0x") != std::string_view::npos && head.find(" GUID=0x") != std::string_view::npos;
}

}  // namespace fabscope
