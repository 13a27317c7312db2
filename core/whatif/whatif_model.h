#pragma once
// What-if over one context for many changes (issue 22): the per-direction p95/peak, the tiers, the
// jobs and, with forwarding tables, the tables with their LID maps and min-hop distances are read
// once and shared; the report's single points of stress evaluate ~100 changes on one model. The
// results are the ones whatIf(ctx, changes) gives (it builds a model for its one change).
#include "core/whatif/whatif.h"

#include <memory>
#include <string>
#include <vector>

namespace fabscope {

class AnalysisContext;

class WhatIfModel {
public:
    // Reads the tables and the jobs from ctx's store now; ctx must outlive the model.
    explicit WhatIfModel(const AnalysisContext& ctx);
    ~WhatIfModel();
    WhatIfModel(const WhatIfModel&) = delete;
    WhatIfModel& operator=(const WhatIfModel&) = delete;

    [[nodiscard]] const AnalysisContext& context() const;
    // "lft" when every switch has a forwarding table, else "ecmp".
    [[nodiscard]] std::string routing() const;

    // Reads every link direction's load now (on the worker threads) and what changes would build
    // when first asked: after it, whatIf(model, ...) may run on several threads at once.
    void prepareForThreads() const;

    struct Impl;
    [[nodiscard]] Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

// Not for two threads on one model at once, unless after model.prepareForThreads(): its caches
// fill as changes ask.
[[nodiscard]] WhatIfReport whatIf(const WhatIfModel& model, const std::vector<WhatIfChange>& changes);

} // namespace fabscope
