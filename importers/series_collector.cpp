#include "importers/series_collector.h"

#include <algorithm>

namespace fabscope {

void SeriesCollector::add(const PromTarget& t, std::int64_t timeMs, double value, std::int64_t line) {
    key_ = t.node;
    key_ += '\x1f';
    key_ += t.port;
    key_ += '\x1f';
    key_ += t.counter.name;
    auto [it, added] = index_.try_emplace(key_, series_.size());
    if (added) series_.push_back({t, {}});
    series_[it->second].points.push_back({timeMs, value * t.scale, line});
}

std::int64_t SeriesCollector::write(SampleWriter& out, DiagnosticSink& diag) {
    std::int64_t rows = 0, duplicates = 0, disordered = 0, firstDupLine = 0, firstDisorderLine = 0;
    for (Series& s : series_) {
        auto& p = s.points;
        for (std::size_t i = 1; i < p.size(); ++i)
            if (p[i].t < p[i - 1].t && disordered++ == 0) firstDisorderLine = p[i].line;
        std::stable_sort(p.begin(), p.end(), [](const Point& a, const Point& b) { return a.t < b.t; });
        const auto h = out.series(s.target.node, s.target.port, s.target.counter);
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (i + 1 < p.size() && p[i + 1].t == p[i].t) {  // the later one read wins
                if (duplicates++ == 0) firstDupLine = p[i + 1].line;
                continue;
            }
            out.add(h, p[i].t, p[i].v);
            ++rows;
        }
    }
    if (duplicates)
        diag.warn(firstDupLine, std::to_string(duplicates) + " samples repeat a timestamp of their series (first here): the last value read is kept");
    if (disordered)
        diag.warn(firstDisorderLine, std::to_string(disordered) + " samples are out of time order (first here): sorted by time");
    return rows;
}

} // namespace fabscope
