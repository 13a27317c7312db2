#include "core/report/util_histogram.h"

#include <algorithm>
#include <cmath>

namespace fabscope {

void UtilHistogram::add(double util, double seconds, double threshold) {
    if (!(seconds > 0) || !std::isfinite(util)) return;
    const double u = std::max(0.0, util);
    const int bin = std::min(kBins - 1, static_cast<int>(u * 1000.0));
    weight_[static_cast<std::size_t>(bin)] += seconds;
    total_ += seconds;
    weightedSum_ += u * seconds;
    max_ = std::max(max_, u);
    if (u >= threshold) above_ += seconds;
}

UtilStats UtilHistogram::stats() const {
    UtilStats s;
    s.secondsMeasured = total_;
    s.secondsAbove = above_;
    s.max = max_;
    if (total_ <= 0) return s;
    s.mean = weightedSum_ / total_;
    auto percentile = [&](double p) {
        double acc = 0;
        for (std::size_t i = 0; i < weight_.size(); ++i) {
            acc += weight_[i];
            if (acc >= p * total_ - 1e-9) return std::min(max_, static_cast<double>(i + 1) / 1000.0);
        }
        return max_;
    };
    s.p50 = percentile(0.50);
    s.p95 = percentile(0.95);
    s.p99 = percentile(0.99);
    return s;
}

} // namespace fabscope
