#include "core/analysis/findings.h"

#include "core/analysis/json_text.h"
#include "core/analysis/json_values.h"

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

void writePort(JsonText& w, const PortRef& p) {  // as jsonv::port()
    w.beginObject().key("node").value(p.node);
    if (!p.guid.empty()) w.key("guid").value(p.guid);
    w.key("port");
    if (const auto n = jsonv::portNumber(p.port)) w.value(*n);
    else w.value(p.port);
    w.endObject();
}

void writePorts(JsonText& w, const std::vector<PortRef>& ports) {
    w.beginArray();
    for (const auto& p : ports) writePort(w, p);
    w.endArray();
}

} // namespace

std::string findingsJson(const FindingsReport& report, int indent) {
    JsonText w(indent);
    w.beginObject();
    w.key("fabscope_findings").value(1);
    w.key("window").beginObject().key("start").number(report.windowStart).key("end").number(report.windowEnd).endObject();
    w.key("findings").beginArray();
    for (const auto& f : report.findings) {
        w.beginObject();
        w.key("id").value(f.id);
        w.key("kind").value(kindName(f.kind));
        w.key("severity").value(toString(f.severity));
        w.key("incident").value(f.incident);
        w.key("start").number(f.start);
        w.key("end").number(f.end);
        w.key("summary").value(f.summary);
        w.key("ports");
        writePorts(w, f.ports);
        if (f.origin) {
            w.key("origin");
            writePort(w, *f.origin);
        }
        if (!f.path.empty()) {
            w.key("path");
            writePorts(w, f.path);
        }
        w.key("metrics").beginObject();
        for (const auto& [k, v] : f.metrics) {
            w.key(k);
            if (const double* d = std::get_if<double>(&v)) w.number(*d);
            else w.value(std::get<std::string>(v));
        }
        w.endObject();
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.take();
}

} // namespace fabscope
