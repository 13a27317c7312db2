#pragma once
// What-if in the window (issue #22): a prediction of what happens when a link or a switch fails
// (core/whatif/whatif.h) drawn on the fabric with compare mode's diverging scale: each link by
// its predicted change of p95 utilisation, after − before in percentage points (blue: less load,
// grey: unchanged, red: more), the failed links dashed. Every title says "Prediction": these
// are the core's figures from the window's measured p95, not a measurement.
#include "core/whatif/whatif.h"
#include "views/compare_colouring.h"

#include <QString>

#include <memory>
#include <vector>

namespace fabscope {

struct StoreSnapshot;

// A finished what-if: the core's report and how the change is named on screen.
struct WhatIfResult {
    WhatIfReport report;
    QString what;  // "what if leaf01:20 fails", "what if leaf03:21 runs at 1xHDR"
};

// "Prediction: what if leaf01:20 fails (window 2024-05-01 10:00–10:30 UTC)"
QString whatIfTitle(const WhatIfResult& result);
// The shown link of a what-if link's ports (transmitting end first); -1 when not on the fabric.
int linkOfPorts(const StoreSnapshot& shown, const std::vector<PortRef>& ports);

class WhatIfColouring : public CompareColouring {
public:
    WhatIfColouring(std::shared_ptr<const WhatIfResult> result, const StoreSnapshot& shown);

    [[nodiscard]] const WhatIfResult& prediction() const { return *prediction_; }
    [[nodiscard]] QString title() const override;
    [[nodiscard]] QString header() const override;
    [[nodiscard]] QString hint() const override;
    [[nodiscard]] QString tooltip(std::size_t link) const override;
    [[nodiscard]] static QString predictionLegendTitle();  // with its unit

protected:
    [[nodiscard]] QString scaleTitle() const override { return predictionLegendTitle(); }
    [[nodiscard]] QString removedLabel() const override;

private:
    std::shared_ptr<const WhatIfResult> prediction_;
    std::vector<float> before_, after_;  // per shown link, p95 % of the direction drawn (NaN: not touched)
    std::vector<bool> failed_, hot_;
};

} // namespace fabscope
