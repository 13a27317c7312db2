#pragma once
// Prometheus HTTP API answers (`/api/v1/query_range` matrices, `/api/v1/query` vectors) read into
// FabScope series. Shared by the saved-answer importer (one answer, one file) and the server pull
// (one answer per time chunk and selector, all written together), so both map labels to fabric
// ports the same way.
#include "importers/importer.h"
#include "importers/series_collector.h"

#include <string>
#include <string_view>

namespace fabscope {

class PromApiSeries {
public:
    // `fileHost`: the host node_exporter series belong to when they carry no `instance` label.
    PromApiSeries(const FabricIndex* fabric, std::string fileHost) : fabric_(fabric), fileHost_(std::move(fileHost)) {}

    // Adds the samples of one answer. Fails through `diag` on invalid JSON (with its line), on
    // `"status":"error"` (errorType and error), on a result type other than matrix/vector.
    void add(std::string_view answer, DiagnosticSink& diag, const ProgressFn& progress = {});

    // Writes every series read; fails when none held a counter FabScope stores (the metrics seen
    // are listed) and warns once about skipped series, NaN/Inf and malformed samples.
    std::int64_t write(SampleWriter& out, DiagnosticSink& diag);

    [[nodiscard]] std::int64_t samples() const { return samples_; }

private:
    const FabricIndex* fabric_;
    std::string fileHost_;
    SeriesCollector collector_;
    std::int64_t samples_ = 0, nonFinite_ = 0, ignored_ = 0, bad_ = 0;
    std::string ignoredNames_, nonFiniteSeries_;
};

} // namespace fabscope
