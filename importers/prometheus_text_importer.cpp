#include "importers/prometheus_text_importer.h"

#include "importers/line_reader.h"
#include "importers/series_collector.h"
#include "importers/text_util.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace fabscope {
namespace {

bool nameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; }
bool nameChar(char c) { return nameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

// "NaN", "+Inf", "-Inf" and floats such as 1.8527668e+07.
std::optional<double> parseValue(std::string_view s) {
    if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "+Inf" || s == "Inf" || s == "+inf") return std::numeric_limits<double>::infinity();
    if (s == "-Inf" || s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s.starts_with('+')) s.remove_prefix(1);
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
    return v;
}

// {a="x",b="y\"z"} starting at s[i] == '{'; advances i past '}'.
bool parseLabels(std::string_view s, std::size_t& i, Labels& out) {
    ++i;
    while (true) {
        while (i < s.size() && (s[i] == ' ' || s[i] == ',')) ++i;
        if (i < s.size() && s[i] == '}') {
            ++i;
            return true;
        }
        const auto b = i;
        while (i < s.size() && nameChar(s[i])) ++i;
        if (i == b || i + 1 >= s.size() || s[i] != '=' || s[i + 1] != '"') return false;
        std::string key(s.substr(b, i - b)), value;
        i += 2;
        while (i < s.size() && s[i] != '"') {
            if (s[i] == '\\' && i + 1 < s.size()) {
                ++i;
                value += s[i] == 'n' ? '\n' : s[i];
            } else {
                value += s[i];
            }
            ++i;
        }
        if (i >= s.size()) return false;
        ++i;
        out[std::move(key)] = std::move(value);
    }
}

} // namespace

int PrometheusTextImporter::detect(std::string_view head) const {
    int score = 0;
    if (head.find("# TYPE ") != std::string_view::npos) score += 40;
    if (head.find("# HELP ") != std::string_view::npos) score += 20;
    if (head.find("node_infiniband_") != std::string_view::npos || head.find("infiniband_switch_port_") != std::string_view::npos ||
        head.find("infiniband_hca_port_") != std::string_view::npos || head.find("node_ethtool_") != std::string_view::npos)
        score += 30;
    if (head.find("\"resultType\"") != std::string_view::npos) return 0;  // a JSON API response
    return std::min(score, 90);
}

std::int64_t PrometheusTextImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                           const ProgressFn& progress) const {
    // OpenMetrics timestamps are seconds, the classic text format's milliseconds.
    const bool openMetrics = in.bytes.find("# EOF") != std::string_view::npos;
    const std::string fileHost = hostFromFileName(in.file);
    SeriesCollector collector;
    double defaultTime = in.mtime;
    bool eof = false;
    std::int64_t nonFinite = 0, nonFiniteLine = 0, ignored = 0, ignoredLine = 0, samples = 0;
    std::string ignoredNames;
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto n = reader.number();
        const std::string_view l = trim(raw);
        if (l.empty()) continue;
        if (l == "# EOF") {
            eof = true;
            continue;
        }
        if (l.front() == '#') continue;  // HELP, TYPE, UNIT and comments
        if (auto t = parseTimeLine(l)) {
            defaultTime = *t;
            continue;
        }
        if (eof) {
            diag.warn(n, "text after '# EOF' ignored");
            eof = false;
        }
        std::size_t i = 0;
        while (i < l.size() && nameChar(l[i])) ++i;
        if (i == 0 || !nameStart(l[0]) || (i < l.size() && l[i] != '{' && l[i] != ' ' && l[i] != '\t')) {
            diag.warn(n, "ignored a line that is not a Prometheus sample: " + std::string(l.substr(0, 60)));
            continue;
        }
        const std::string_view metric = l.substr(0, i);
        Labels labels;
        if (i < l.size() && l[i] == '{' && !parseLabels(l, i, labels)) diag.fail(n, "malformed label set in '" + std::string(l.substr(0, 80)) + "'");
        std::string_view rest = trim(l.substr(i));
        const auto sp = rest.find_first_of(" \t");
        const std::string_view valueText = rest.substr(0, sp);
        const auto value = parseValue(valueText);
        if (!value) diag.fail(n, "bad sample value '" + std::string(valueText.substr(0, 40)) + "'");
        double time = defaultTime;
        if (sp != std::string_view::npos) {
            const std::string_view ts = trim(rest.substr(sp));
            const auto tv = parseValue(ts.substr(0, ts.find_first_of(" \t#")));
            if (!tv || !std::isfinite(*tv) || *tv < 0) diag.fail(n, "bad timestamp '" + std::string(ts.substr(0, 40)) + "'");
            time = openMetrics ? *tv : *tv / 1000.0;
        }
        std::string why;
        const auto target = mapPromSeries(metric, labels, in.fabric, fileHost, why);
        if (!target) {
            if (ignored++ == 0) ignoredLine = n;
            if (ignoredNames.size() < 600 && ignoredNames.find(std::string(metric)) == std::string::npos)
                ignoredNames += (ignoredNames.empty() ? "" : ", ") + std::string(metric) + " (" + why + ")";
            continue;
        }
        if (!std::isfinite(*value)) {  // a counter cannot be NaN or infinite: not a measurement
            if (nonFinite++ == 0) nonFiniteLine = n;
            continue;
        }
        collector.add(*target, std::llround(time * 1000.0), *value, n);
        ++samples;
    }
    if (samples == 0)
        diag.fail(0, "no InfiniBand counter samples" + (ignoredNames.empty() ? std::string() : " (seen: " + ignoredNames + ")"));
    if (nonFinite)
        diag.warn(nonFiniteLine, std::to_string(nonFinite) + " NaN/Inf counter samples skipped (first here)");
    if (ignored)
        diag.warn(ignoredLine, std::to_string(ignored) + " samples of series FabScope does not store were skipped: " + ignoredNames);
    return collector.write(out, diag);
}

// The file's host names series whose labels name none (a node exporter's own /metrics has no `instance`).
std::string PrometheusTextImporter::nameFromPath(std::string_view path, std::string_view text) const {
    return text.find("instance=") == std::string_view::npos ? hostFromFileName(path) : std::string();
}

} // namespace fabscope
