#include "core/analysis/findings.h"

#include "core/analysis/json_values.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace fabscope {

std::string_view toString(FindingSeverity s) {
    switch (s) {
    case FindingSeverity::Critical: return "critical";
    case FindingSeverity::Warning: return "warning";
    case FindingSeverity::Info: return "info";
    }
    return "info";
}

void sortAndNumber(std::vector<Finding>& findings) {
    auto key = [](const Finding& f) {
        PortRef first = f.ports.empty() ? PortRef{} : f.ports.front();
        return std::make_tuple(f.severity, f.start, kindName(f.kind), std::move(first.node), std::move(first.port), f.end);
    };
    std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) { return key(a) < key(b); });
    std::map<FindingKind, int> next;
    for (auto& f : findings) f.id = std::string(kindName(f.kind)) + "-" + std::to_string(++next[f.kind]);
}

namespace {

using nlohmann::ordered_json;

using jsonv::number;
ordered_json portJson(const PortRef& p) { return jsonv::port(p); }
ordered_json portsJson(const std::vector<PortRef>& ports) { return jsonv::ports(ports); }

} // namespace

std::string findingsJson(const FindingsReport& report, int indent) {
    ordered_json j;
    j["fabscope_findings"] = 1;
    j["window"] = {{"start", number(report.windowStart)}, {"end", number(report.windowEnd)}};
    j["findings"] = ordered_json::array();
    for (const auto& f : report.findings) {
        ordered_json o;
        o["id"] = f.id;
        o["kind"] = kindName(f.kind);
        o["severity"] = toString(f.severity);
        o["incident"] = f.incident;
        o["start"] = number(f.start);
        o["end"] = number(f.end);
        o["summary"] = f.summary;
        o["ports"] = portsJson(f.ports);
        if (f.origin) o["origin"] = portJson(*f.origin);
        if (!f.path.empty()) o["path"] = portsJson(f.path);
        ordered_json m = ordered_json::object();
        for (const auto& [k, v] : f.metrics) {
            if (const double* d = std::get_if<double>(&v)) m[k] = number(*d);
            else m[k] = std::get<std::string>(v);
        }
        o["metrics"] = std::move(m);
        j["findings"].push_back(std::move(o));
    }
    return j.dump(indent);
}

} // namespace fabscope
