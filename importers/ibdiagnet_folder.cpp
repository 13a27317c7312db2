#include "importers/ibdiagnet_folder.h"

#include <array>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace fabscope {

std::optional<IbdiagnetFileRole> ibdiagnetFileRole(std::string_view name) {
    using Use = IbdiagnetFileRole::Use;
    static constexpr std::array<std::pair<std::string_view, IbdiagnetFileRole>, 18> kRoles{{
        {"ibdiagnet2.db_csv", {Use::Read, "the run's nodes, ports, links and port counters"}},
        {"ibdiagnet2.fdbs", {Use::Read, "unicast forwarding tables"}},
        {"ibdiagnet2.ibnetdiscover", {Use::SameAsDbCsv, "the run's fabric in ibnetdiscover form"}},
        {"ibdiagnet2.lst", {Use::SameAsDbCsv, "the run's fabric in LST form"}},
        {"ibdiagnet2.pm", {Use::SameAsDbCsv, "the run's port counters, also in db_csv PM_INFO"}},
        {"ibdiagnet2.net_dump", {Use::NotUsed, "per-port link summary (speeds and widths are read from db_csv)"}},
        {"ibdiagnet2.net_dump_ext", {Use::Read, "each port's FEC mode and bit error rates"}},
        {"ibdiagnet2.cables", {Use::Read, "each port module's identity, temperature, lane powers and alarm flags"}},
        {"ibdiagnet2.nodes_info", {Use::NotUsed, "node firmware and hardware versions, not used"}},
        {"ibdiagnet2.pkey", {Use::NotUsed, "partition keys, not used"}},
        {"ibdiagnet2.vports", {Use::NotUsed, "virtual ports, not used"}},
        {"ibdiagnet2.vports_pkey", {Use::NotUsed, "virtual ports' partition keys, not used"}},
        {"ibdiagnet2.sm", {Use::NotUsed, "subnet managers, not used"}},
        {"ibdiagnet2.log", {Use::NotUsed, "ibdiagnet's log (its counter pause is read with db_csv)"}},
        {"ibdiagnet2.debug", {Use::NotUsed, "ibdiagnet's debug log, not used"}},
        {"ibdiagnet2.rnc2", {Use::NotUsed, "adaptive-routing notification counters, not used"}},
        {"ibdiagnet2.aguid", {Use::NotUsed, "alias GUIDs, not used"}},
        {"topodiff.names", {Use::NotUsed, "ibdiagnet's topology-diff name map, not used"}},
    }};
    for (const auto& [file, role] : kRoles)
        if (name == file) return role;
    return std::nullopt;
}

std::optional<double> ibdiagnetCounterPause(std::string_view dbCsvPath) {
    const auto log = std::filesystem::path(std::string(dbCsvPath)).parent_path() / "ibdiagnet2.log";
    std::ifstream in(log);
    if (!in) return std::nullopt;
    constexpr std::string_view kTag = "Going to sleep for ";
    std::string line;
    for (int n = 0; n < 5000 && std::getline(in, line); ++n) {
        const auto at = line.find(kTag);
        if (at == std::string::npos) continue;
        std::istringstream num(line.substr(at + kTag.size()));
        double s = 0;
        if (num >> s && s > 0 && s < 3600) return s;
    }
    return std::nullopt;
}

std::optional<double> parseIbdiagnetDate(std::string_view text) {
    const std::string s(text);
    std::tm tm{};
    const char* end = strptime(s.c_str(), "%Y-%m-%d %H:%M:%S", &tm);
    if (!end) return std::nullopt;
    double t = static_cast<double>(timegm(&tm));
    // " UTC +0000" or " +0200": the offset says how far local time was ahead of UTC.
    const std::string_view rest(end);
    if (const auto sign = rest.find_first_of("+-"); sign != std::string_view::npos && rest.size() >= sign + 5) {
        const auto hh = rest.substr(sign + 1, 2), mm = rest.substr(sign + 3, 2);
        if (std::isdigit(static_cast<unsigned char>(hh[0])) && std::isdigit(static_cast<unsigned char>(hh[1])) &&
            std::isdigit(static_cast<unsigned char>(mm[0])) && std::isdigit(static_cast<unsigned char>(mm[1]))) {
            const int off = ((hh[0] - '0') * 10 + (hh[1] - '0')) * 3600 + ((mm[0] - '0') * 10 + (mm[1] - '0')) * 60;
            t -= rest[sign] == '+' ? off : -off;
        }
    }
    return t;
}

}  // namespace fabscope
