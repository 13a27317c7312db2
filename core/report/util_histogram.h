#pragma once
// Time-weighted histogram of utilisation in 0.1-point bins: percentiles of a tier's millions of
// samples in constant memory (a 32k-GPU fabric has ~60 M link-direction intervals per hour).
#include "core/report/utilisation.h"

#include <array>

namespace fabscope {

class UtilHistogram {
public:
    static constexpr int kBins = 1500;  // 0 .. 150%, 0.1 point each; above goes in the last bin
    void add(double util, double seconds, double threshold);
    // Percentiles read as the upper edge of their bin (rounded up, never under-stated); max exact.
    [[nodiscard]] UtilStats stats() const;

private:
    std::array<double, kBins> weight_{};
    double total_ = 0, weightedSum_ = 0, max_ = 0, above_ = 0;
};

} // namespace fabscope
