#include "importers/ibroute_importer.h"

#include "core/fabric_builder.h"
#include "importers/line_reader.h"
#include "importers/text_util.h"

namespace fabscope {
namespace {

constexpr std::uint64_t kMaxUnicastLid = 0xbfff;

} // namespace

int IbrouteImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find("Unicast lids [") != std::string_view::npos) score += 70;
    if (head.find(" of switch ") != std::string_view::npos) score += 10;
    if (head.find("  Lid  Out   Destination") != std::string_view::npos) score += 20;
    return std::min(score, 100);
}

TopologyResult IbrouteImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    TopologyResult r;
    SwitchRoutes* current = nullptr;
    bool skipping = false;  // inside a multicast block
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto n = reader.number();
        const std::string_view l = trim(raw);
        if (l.empty() || l.starts_with("Lid ") || l.starts_with("Port ") || l.ends_with("lids dumped") ||
            l.ends_with("mlids dumped"))
            continue;
        // "Unicast lids [0x0-0xe] of switch Lid 7 guid 0x0000000000200004 (leaf03):"
        if (l.starts_with("Unicast lids [") || l.starts_with("Multicast mlids [")) {
            skipping = l.starts_with("Multicast");
            if (skipping) {
                diag.warn(n, "multicast forwarding table skipped: only unicast routes are used for path tracing");
                current = nullptr;
                continue;
            }
            const auto at = l.find(" guid 0x");
            const std::string_view tail = at == std::string_view::npos ? std::string_view{} : l.substr(at + 6);
            const std::string guid = normaliseGuid(tail.substr(0, tail.find(' ')));
            if (guid.empty()) diag.fail(n, "forwarding table header without the switch GUID");
            r.routes.push_back({guid, {}});
            current = &r.routes.back();
            continue;
        }
        if (skipping) continue;
        // "0x000c 004 : (Channel Adapter portguid 0x000000000010000b: 'gpu006 mlx5_0')"
        if (l.starts_with("0x")) {
            if (!current) diag.fail(n, "route line before any 'Unicast lids [...] of switch ...' header");
            const auto sp = l.find(' ');
            const auto lid = parseU64(l.substr(0, sp));
            std::string_view rest = sp == std::string_view::npos ? std::string_view{} : trim(l.substr(sp));
            const auto port = parseU64(rest.substr(0, rest.find(' ')));
            if (!lid || *lid > kMaxUnicastLid || !port || *port >= SwitchRoutes::kNoRoute)
                diag.fail(n, "expected 'LID PORT : ...' with a unicast LID and a port number");
            auto& e = current->egress;
            if (e.size() <= *lid) e.resize(*lid + 1, SwitchRoutes::kNoRoute);
            e[*lid] = static_cast<std::uint8_t>(*port);
            continue;
        }
        diag.warn(n, "ignored a line that is not forwarding table output: " + std::string(l.substr(0, 60)));
    }
    if (r.routes.empty()) diag.fail(0, "no unicast forwarding table found (expected 'Unicast lids [...] of switch ...')");
    return r;
}

} // namespace fabscope
