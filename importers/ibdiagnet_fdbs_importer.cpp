#include "importers/ibdiagnet_fdbs_importer.h"

#include "core/fabric_builder.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

#include <algorithm>
#include <map>

namespace fabscope {
namespace {

constexpr std::string_view kHeader = "osm_ucast_mgr_dump_ucast_routes:";
constexpr std::uint64_t kMaxUnicastLid = 0xbfff;

} // namespace

int IbdiagnetFdbsImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find(kHeader) != std::string_view::npos) score += 70;
    if (head.find("LID    : Port : Hops : Optimal") != std::string_view::npos) score += 25;
    return std::min(score, 95);
}

TopologyResult IbdiagnetFdbsImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    TopologyResult r;
    std::map<std::string, std::size_t> tableOf;  // switch GUID -> index in r.routes
    SwitchRoutes* current = nullptr;
    bool privateTable = false;  // inside a PLFT_NUM > 0 block: not the switch's regular table
    std::int64_t privateLine = 0, privateCount = 0, ignoredLine = 0, ignoredCount = 0;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto n = reader.number();
        const std::string_view l = trim(raw);
        if (l.empty() || l.front() == '#' || l.starts_with("LID ")) continue;
        if (l.starts_with(kHeader)) {
            std::string_view rest = trim(l.substr(kHeader.size()));
            if (!rest.starts_with("Switch ")) diag.fail(n, "forwarding table header without 'Switch 0x<GUID>'");
            rest = trim(rest.substr(7));
            const std::string guid = normaliseGuid(rest.substr(0, rest.find_first_of(" \t(")));
            if (guid.empty()) diag.fail(n, "forwarding table header with a bad switch GUID: " + std::string(rest.substr(0, 40)));
            auto [it, added] = tableOf.try_emplace(guid, r.routes.size());
            if (added) r.routes.push_back({guid, {}});
            else diag.warn(n, "switch " + guid + " has a second table: its entries overwrite the first one's");
            current = &r.routes[it->second];
            privateTable = false;
            continue;
        }
        if (l.starts_with("PLFT_NUM:")) {  // newer ibdiagnet: private LFTs of one switch, 0 = the regular table
            const auto plft = parseU64(trim(l.substr(9)));
            if (!plft) diag.fail(n, "PLFT_NUM without a number");
            privateTable = *plft != 0;
            if (privateTable && privateCount++ == 0) privateLine = n;
            continue;
        }
        if (l.starts_with("0x")) {
            // "0x0002 : 003  : 00   : yes" or "0x0001 : UNREACHABLE"
            if (!current) diag.fail(n, "route line before any 'osm_ucast_mgr_dump_ucast_routes: Switch 0x...' header");
            const auto colon = l.find(':');
            const auto lid = parseU64(trim(l.substr(0, colon)));
            if (colon == std::string_view::npos || !lid || *lid > kMaxUnicastLid)
                diag.fail(n, "expected 'LID : PORT : HOPS : OPTIMAL' with a unicast LID (at most 0xBFFF)");
            std::string_view rest = trim(l.substr(colon + 1));
            if (privateTable) continue;
            if (rest.starts_with("UNREACHABLE")) continue;  // no entry: the LID stays unrouted
            const auto port = parseU64(trim(rest.substr(0, rest.find(':'))));
            if (!port || *port >= SwitchRoutes::kNoRoute) diag.fail(n, "bad egress port in '" + std::string(l.substr(0, 60)) + "'");
            auto& e = current->egress;
            if (e.size() <= *lid) e.resize(*lid + 1, SwitchRoutes::kNoRoute);
            e[*lid] = static_cast<std::uint8_t>(*port);
            continue;
        }
        if (ignoredCount++ == 0) ignoredLine = n;
    }
    if (r.routes.empty()) diag.fail(reader.number(), "no forwarding table found (expected 'osm_ucast_mgr_dump_ucast_routes: Switch 0x...')");
    if (privateCount > 0)
        diag.warn(privateLine, std::to_string(privateCount) + " private forwarding tables (PLFT_NUM > 0) skipped: only the regular table is stored");
    if (ignoredCount > 0)
        diag.warn(ignoredLine, std::to_string(ignoredCount) + " lines that are not forwarding table output were ignored");
    return r;
}

} // namespace fabscope
