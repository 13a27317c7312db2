#include "importers/prometheus_json_importer.h"

#include "importers/prom_api_series.h"
#include "importers/prom_metrics.h"

#include <algorithm>

namespace fabscope {

int PrometheusJsonImporter::detect(std::string_view head) const {
    const auto b = head.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos || head[b] != '{') return 0;
    int score = 0;
    if (head.find("\"resultType\"") != std::string_view::npos) score += 60;
    if (head.find("\"status\"") != std::string_view::npos) score += 20;
    if (head.find("\"metric\"") != std::string_view::npos) score += 15;
    return std::min(score, 95);
}

std::int64_t PrometheusJsonImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                           const ProgressFn& progress) const {
    PromApiSeries series(in.fabric, hostFromFileName(in.file));
    series.add(in.bytes, diag, progress);
    return series.write(out, diag);
}

std::string PrometheusJsonImporter::nameFromPath(std::string_view path, std::string_view text) const {
    return text.find("\"instance\"") == std::string_view::npos ? hostFromFileName(path) : std::string();
}

} // namespace fabscope
