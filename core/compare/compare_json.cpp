// The compare JSON of docs/FINDINGS.md: {"fabscope_compare": 1, "good": {...}, "bad": {...},
// "changes": [{"kind", "ports", "hosts", "good", "bad", "summary", "score"}]} sorted by score.
#include "core/analysis/json_values.h"
#include "core/compare/compare.h"

namespace fabscope {
namespace {

using nlohmann::ordered_json;

ordered_json sideJson(const CompareSide& s) {
    ordered_json j;
    j["start"] = jsonv::number(s.start);
    j["end"] = jsonv::number(s.end);
    j["store"] = s.store;
    if (!s.snapshot.empty()) {
        j["snapshot"] = s.snapshot;
        j["snapshot_time"] = jsonv::number(s.snapshotTime);
    }
    return j;
}

ordered_json valuesJson(const ChangeValues& v) {
    ordered_json j = ordered_json::object();
    for (const auto& [k, x] : v) {
        if (const double* d = std::get_if<double>(&x)) j[k] = jsonv::number(*d);
        else j[k] = std::get<std::string>(x);
    }
    return j;
}

} // namespace

std::string compareJson(const CompareReport& r, int indent) {
    ordered_json j;
    j["fabscope_compare"] = 1;
    j["good"] = sideJson(r.good);
    j["bad"] = sideJson(r.bad);
    j["changes"] = ordered_json::array();
    for (const Change& c : r.changes) {
        ordered_json o;
        o["kind"] = std::string(toString(c.kind));
        o["ports"] = jsonv::ports(c.ports);
        if (!c.hosts.empty()) o["hosts"] = c.hosts;
        o["good"] = valuesJson(c.good);
        o["bad"] = valuesJson(c.bad);
        o["summary"] = c.summary;
        o["score"] = jsonv::number(std::round(c.score * 10) / 10);
        j["changes"].push_back(std::move(o));
    }
    return j.dump(indent);
}

} // namespace fabscope
