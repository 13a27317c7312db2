// The what-if JSON (docs/FINDINGS.md "whatif JSON") and the --fail / --degrade arguments.
#include "core/analysis/json_values.h"
#include "core/whatif/whatif.h"

namespace fabscope {
namespace {

using nlohmann::ordered_json;

constexpr const char* kModel =
    "ECMP re-spreading of measured load (p95 and peak over the window): a failed link's load moves in equal shares onto "
    "its lower switch's other links one tier up (and the down traffic onto the same links' other direction); beyond a "
    "top-tier switch that stays up, the traffic it carried to and from its other neighbours moves onto the siblings' "
    "top-tier switches in proportion to that switch's per-link load. A degraded link keeps its load on less capacity. "
    "Forwarding tables are not replayed (none imported, or not for every switch).";

constexpr const char* kModelLft =
    "Re-routing with the imported forwarding tables, of measured load (p95 and peak over the window): a failed "
    "direction's load is split evenly over the host LIDs its switch's table sends out of that port; each LID's share "
    "follows what the subnet manager would do: the same table entry where it is still a live min-hop port, else the "
    "switch's remaining min-hop ports split evenly, onward along the next switches' tables. A transit switch the change "
    "puts farther from a destination is left by its upstream switches: the share goes back to the links whose tables "
    "pointed at it, in proportion to their measured load per LID (every live link into it by its load when none "
    "does), and is re-routed from there. The old route's "
    "remaining hops lose the share. A degraded link keeps its load on less capacity.";

ordered_json useJson(const DirectionUse& u, bool failed) {
    ordered_json j;
    if (failed) {
        j["state"] = "failed";
        return j;
    }
    j["p95_util"] = jsonv::number(std::round(u.p95Util() * 1e4) / 1e4);
    j["peak_util"] = jsonv::number(std::round(u.peakUtil() * 1e4) / 1e4);
    j["p95_gbps"] = jsonv::number(std::round(u.p95Gbps * 100) / 100);
    j["capacity_gbps"] = jsonv::number(u.capacityGbps);
    return j;
}

std::pair<std::string, std::string> split(const std::string& text, char at) {
    const auto p = text.rfind(at);
    if (p == std::string::npos) return {text, ""};
    return {text.substr(0, p), text.substr(p + 1)};
}

} // namespace

std::string WhatIfChange::label() const {
    const std::string where = node + (port.empty() ? "" : ":" + port);
    return kind == Fail ? "fail " + where : "degrade " + where + "=" + widthSpeed;
}

WhatIfChange parseFail(const std::string& text) {
    WhatIfChange c;
    std::tie(c.node, c.port) = split(text, ':');
    if (c.node.empty()) throw std::invalid_argument("--fail takes NODE or NODE:PORT, got '" + text + "'");
    return c;
}

WhatIfChange parseDegrade(const std::string& text) {
    WhatIfChange c;
    c.kind = WhatIfChange::Degrade;
    const auto [where, ws] = split(text, '=');
    std::tie(c.node, c.port) = split(where, ':');
    c.widthSpeed = ws;
    if (c.node.empty() || c.port.empty() || ws.empty())
        throw std::invalid_argument("--degrade takes NODE:PORT=WIDTHxSPEED (e.g. leaf03:21=1xHDR), got '" + text + "'");
    return c;
}

std::string whatIfJson(const WhatIfReport& r, int indent) {
    ordered_json j;
    j["fabscope_whatif"] = 1;
    j["routing"] = r.routing;
    j["model"] = r.routing == "lft" ? kModelLft : kModel;
    j["window"] = {{"start", jsonv::number(r.windowStart)}, {"end", jsonv::number(r.windowEnd)}};
    j["changes"] = ordered_json::array();
    for (const WhatIfChange& c : r.changes) {
        ordered_json o;
        o["kind"] = c.kind == WhatIfChange::Fail ? "fail" : "degrade";
        o["node"] = c.node;
        if (!c.port.empty()) o["port"] = c.port;
        if (c.kind == WhatIfChange::Degrade) o["width_speed"] = c.widthSpeed;
        j["changes"].push_back(std::move(o));
    }
    j["links"] = ordered_json::array();
    for (const WhatIfLink& l : r.links) {
        ordered_json o;
        o["ports"] = jsonv::ports(l.ports);
        o["before"] = useJson(l.before, false);
        o["after"] = useJson(l.after, l.failed);
        o["turns_hot"] = l.turnsHot;
        j["links"].push_back(std::move(o));
    }
    j["total_p95_gbps"] = {{"before", jsonv::number(std::round(r.totalBeforeGbps * 100) / 100)},
                           {"after", jsonv::number(std::round(r.totalAfterGbps * 100) / 100)}};
    j["disconnected"] = r.disconnected;
    ordered_json jobs = ordered_json::array();
    for (const JobImpact& ji : r.jobs) {
        ordered_json o;
        o["name"] = ji.name;
        o["ranks"] = ji.ranks;
        o["worst_p95_util_before"] = jsonv::number(std::round(ji.worstBefore * 1e4) / 1e4);
        o["worst_p95_util_after"] = jsonv::number(std::round(ji.worstAfter * 1e4) / 1e4);
        o["bottleneck"] = jsonv::ports(ji.bottleneck);
        o["slowdown"] = jsonv::number(std::round(ji.slowdown * 1e4) / 1e4);
        o["gpu_hours_at_risk"] = jsonv::number(std::round(ji.gpuHoursAtRisk * 100) / 100);
        o["disconnected"] = ji.disconnected;
        jobs.push_back(std::move(o));
    }
    // The contract's "job": the job with the largest predicted slowdown; "jobs": every job.
    if (!r.jobs.empty()) {
        std::size_t worst = 0;
        for (std::size_t i = 1; i < r.jobs.size(); ++i)
            if (r.jobs[i].slowdown > r.jobs[worst].slowdown) worst = i;
        j["job"] = jobs[worst];
    } else {
        j["job"] = nullptr;
    }
    j["jobs"] = jobs;
    return j.dump(indent);
}

} // namespace fabscope
