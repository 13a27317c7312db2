#include "core/analysis/findings.h"

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

// Integral seconds print as integers (1700000000, not 1700000000.0).
ordered_json number(double v) {
    if (std::isfinite(v) && v == std::round(v) && std::fabs(v) < 9e15) return static_cast<std::int64_t>(v);
    return v;
}

bool allDigits(std::string_view s) {
    return !s.empty() && s.size() < 10 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

ordered_json portJson(const PortRef& p) {
    ordered_json j;
    j["node"] = p.node;
    if (!p.guid.empty()) j["guid"] = p.guid;
    if (allDigits(p.port)) j["port"] = std::stoi(p.port);
    else j["port"] = p.port;
    return j;
}

ordered_json portsJson(const std::vector<PortRef>& ports) {
    ordered_json a = ordered_json::array();
    for (const auto& p : ports) a.push_back(portJson(p));
    return a;
}

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
