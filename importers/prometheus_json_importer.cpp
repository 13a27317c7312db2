#include "importers/prometheus_json_importer.h"

#include "importers/series_collector.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabscope {
namespace {

using nlohmann::json;

std::int64_t lineAt(std::string_view bytes, std::size_t offset) {
    offset = std::min(offset, bytes.size());
    return 1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
}

// [<unix seconds>, "<value>"]; values are strings and may be "NaN", "+Inf".
bool samplePair(const json& p, double& t, double& v) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_string()) return false;
    t = p[0].get<double>();
    const auto& s = p[1].get_ref<const std::string&>();
    if (s == "NaN") v = std::numeric_limits<double>::quiet_NaN();
    else if (s == "+Inf" || s == "Inf") v = std::numeric_limits<double>::infinity();
    else if (s == "-Inf") v = -std::numeric_limits<double>::infinity();
    else {
        try {
            std::size_t used = 0;
            v = std::stod(s, &used);
            if (used != s.size()) return false;
        } catch (const std::exception&) {
            return false;
        }
    }
    return std::isfinite(t);
}

std::int64_t readResponse(const json& doc, const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                          const ProgressFn& progress) {
    if (!doc.is_object()) diag.fail(1, "expected a Prometheus API response object");
    const std::string status = doc.value("status", "");
    if (status == "error")
        diag.fail(1, "Prometheus answered with an error: " + doc.value("errorType", std::string("?")) + ": " +
                         doc.value("error", std::string("?")));
    if (status != "success" || !doc.contains("data") || !doc["data"].is_object())
        diag.fail(1, "expected {\"status\": \"success\", \"data\": {...}}");
    if (doc.contains("warnings") && doc["warnings"].is_array())
        for (const auto& w : doc["warnings"]) diag.warn(0, "Prometheus warning: " + (w.is_string() ? w.get<std::string>() : w.dump()));
    const json& data = doc["data"];
    const std::string type = data.value("resultType", "");
    if (type != "matrix" && type != "vector") diag.fail(1, "resultType '" + type + "' holds no counter series (matrix or vector expected)");
    if (!data.contains("result") || !data["result"].is_array()) diag.fail(1, "data.result is not an array");

    const std::string fileHost = hostFromFileName(in.file);
    SeriesCollector collector;
    std::int64_t samples = 0, nonFinite = 0, ignored = 0, bad = 0;
    std::string ignoredNames, nonFiniteSeries;
    const json& result = data["result"];
    for (std::size_t k = 0; k < result.size(); ++k) {
        if (progress && (k & 0xff) == 0 && !progress(static_cast<double>(k) / static_cast<double>(result.size()))) throw ImportCancelled();
        const json& r = result[k];
        if (!r.is_object() || !r.contains("metric") || !r["metric"].is_object()) diag.fail(0, "result " + std::to_string(k) + " has no metric");
        Labels labels;
        for (const auto& [key, value] : r["metric"].items())
            if (value.is_string()) labels[key] = value.get<std::string>();
        const std::string metric = labels.count("__name__") ? labels["__name__"] : std::string();
        std::string why;
        const auto target = mapPromSeries(metric, labels, in.fabric, fileHost, why);
        if (!target) {
            ++ignored;
            if (ignoredNames.size() < 600 && ignoredNames.find(metric) == std::string::npos)
                ignoredNames += (ignoredNames.empty() ? "" : ", ") + (metric.empty() ? std::string("(no __name__)") : metric) + " (" + why + ")";
            continue;
        }
        const json* points = nullptr;
        json single = json::array();
        if (r.contains("values") && r["values"].is_array()) points = &r["values"];
        else if (r.contains("value")) {
            single.push_back(r["value"]);
            points = &single;
        } else {
            diag.fail(0, "result " + std::to_string(k) + " (" + metric + ") has neither values nor value");
        }
        for (const auto& p : *points) {
            double t = 0, v = 0;
            if (!samplePair(p, t, v)) {
                ++bad;
                continue;
            }
            if (!std::isfinite(v)) {
                if (nonFinite++ == 0) nonFiniteSeries = metric + " " + target->node + " port " + target->port;
                continue;
            }
            collector.add(*target, std::llround(t * 1000.0), v, 0);
            ++samples;
        }
    }
    if (samples == 0)
        diag.fail(0, "no InfiniBand counter samples" + (ignoredNames.empty() ? std::string() : " (seen: " + ignoredNames + ")"));
    if (bad) diag.warn(0, std::to_string(bad) + " malformed [time, \"value\"] pairs skipped");
    if (nonFinite) diag.warn(0, std::to_string(nonFinite) + " NaN/Inf counter samples skipped (first in " + nonFiniteSeries + ")");
    if (ignored) diag.warn(0, std::to_string(ignored) + " series FabScope does not store were skipped: " + ignoredNames);
    return collector.write(out, diag);
}

} // namespace

int PrometheusJsonImporter::detect(std::string_view head) const {
    const auto b = head.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos || head[b] != '{') return 0;
    int score = 0;
    if (head.find("\"resultType\"") != std::string_view::npos) score += 60;
    if (head.find("\"status\"") != std::string_view::npos) score += 20;
    if (head.find("\"metric\"") != std::string_view::npos) score += 15;
    return std::min(score, 95);
}

std::int64_t PrometheusJsonImporter::parse(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                           const ProgressFn& progress) const {
    json doc;
    try {
        doc = json::parse(in.bytes.begin(), in.bytes.end());
    } catch (const json::parse_error& e) {
        diag.fail(lineAt(in.bytes, e.byte > 0 ? e.byte - 1 : 0), std::string("not valid JSON: ") + e.what());
    } catch (const json::exception& e) {  // e.g. a number too large for a double
        diag.fail(0, std::string("unreadable JSON: ") + e.what());
    }
    try {
        return readResponse(doc, in, out, diag, progress);
    } catch (const json::exception& e) {  // a field of the wrong type somewhere
        diag.fail(0, std::string("unexpected Prometheus API response: ") + e.what());
    }
}

} // namespace fabscope
