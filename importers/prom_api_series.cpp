#include "importers/prom_api_series.h"

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

} // namespace

void PromApiSeries::add(std::string_view answer, DiagnosticSink& diag, const ProgressFn& progress) {
    json doc;
    try {
        doc = json::parse(answer.begin(), answer.end());
    } catch (const json::parse_error& e) {
        diag.fail(lineAt(answer, e.byte > 0 ? e.byte - 1 : 0), std::string("not valid JSON: ") + e.what());
    } catch (const json::exception& e) {  // e.g. a number too large for a double
        diag.fail(0, std::string("unreadable JSON: ") + e.what());
    }
    try {
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
            const auto target = mapPromSeries(metric, labels, fabric_, fileHost_, why);
            if (!target) {
                ++ignored_;
                if (ignoredNames_.size() < 600 && ignoredNames_.find(metric) == std::string::npos)
                    ignoredNames_ += (ignoredNames_.empty() ? "" : ", ") + (metric.empty() ? std::string("(no __name__)") : metric) + " (" + why + ")";
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
                    ++bad_;
                    continue;
                }
                if (!std::isfinite(v)) {
                    if (nonFinite_++ == 0) nonFiniteSeries_ = metric + " " + target->node + " port " + target->port;
                    continue;
                }
                collector_.add(*target, std::llround(t * 1000.0), v, 0);
                ++samples_;
            }
        }
    } catch (const json::exception& e) {  // a field of the wrong type somewhere
        diag.fail(0, std::string("unexpected Prometheus API response: ") + e.what());
    }
}

std::int64_t PromApiSeries::write(SampleWriter& out, DiagnosticSink& diag) {
    if (samples_ == 0)
        diag.fail(0, "no InfiniBand counter samples" + (ignoredNames_.empty() ? std::string() : " (seen: " + ignoredNames_ + ")"));
    if (bad_) diag.warn(0, std::to_string(bad_) + " malformed [time, \"value\"] pairs skipped");
    if (nonFinite_) diag.warn(0, std::to_string(nonFinite_) + " NaN/Inf counter samples skipped (first in " + nonFiniteSeries_ + ")");
    if (ignored_) diag.warn(0, std::to_string(ignored_) + " series FabScope does not store were skipped: " + ignoredNames_);
    return collector_.write(out, diag);
}

} // namespace fabscope
