#pragma once
// Collects the samples of a time-series file before writing them, so duplicate and out-of-order
// timestamps (common in concatenated scrapes and merged query results) are found and reported:
// samples are sorted by time, a repeated timestamp keeps the last value read.
#include "importers/importer.h"
#include "importers/prom_metrics.h"

#include <unordered_map>
#include <vector>

namespace fabscope {

class SeriesCollector {
public:
    void add(const PromTarget& t, std::int64_t timeMs, double value, std::int64_t line);
    // Writes every series; warns (with the first line concerned) about duplicates and disorder.
    std::int64_t write(SampleWriter& out, DiagnosticSink& diag);
    [[nodiscard]] std::size_t seriesCount() const { return series_.size(); }

private:
    struct Point {
        std::int64_t t;
        double v;
        std::int64_t line;
    };
    struct Series {
        PromTarget target;
        std::vector<Point> points;
    };
    std::unordered_map<std::string, std::size_t> index_;
    std::vector<Series> series_;
    std::string key_;
};

} // namespace fabscope
