#include "core/report/report_data.h"

#include "core/analysis/ber_rule.h"
#include "core/analysis/context.h"
#include "core/analysis/host_places.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

namespace fabscope {

ReportData buildReportData(const Store& store, const ReportOptions& options) {
    ReportData r;
    r.storePath = store.path();
    r.config = options.config;
    r.generatedAt = options.generatedAt > 0
                        ? options.generatedAt
                        : std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    if (auto snap = store.latestSnapshot()) {
        r.snapshotLabel = snap->label;
        r.snapshotTime = snap->time;
        if (const auto plans = store.plans(); !snap->planned && !plans.empty())
            r.plan = ReportData::Plan{plans.back().label, plans.back().time, store.loadFabric(plans.back().id).links.size()};
    }
    const auto tell = [&options](double fraction, const std::string& stage) {
        if (options.progress) options.progress(fraction, stage);
    };
    tell(0.0, "Analysing the fabric…");
    // One context for the findings and the report's figures: the same window and fabric.
    const std::unique_ptr<AnalysisContext> context = analysisContext(store, options.window, options.config);
    const AnalysisContext& ctx = *context;
    const double from = ctx.windowStart(), to = ctx.windowEnd();
    const bool reuse = options.findings && options.findings->windowStart == from && options.findings->windowEnd == to;
    r.findings = reuse ? *options.findings : analyze(store, ctx, options.cancel);
    tell(0.3, "Summarising utilisation, benchmarks and probes…");
    r.fabric = summariseFabric(ctx.fabric());
    r.utilisation = measureUtilisation(ctx, r.fabric.tierOfNode, options.topLinks, options.chartedLinks);
    r.gpuRisk = estimateGpuRisk(store, ctx.fabric(), r.fabric.tierOfNode, r.findings);
    r.annotations = annotations(store, r.findings.windowStart, r.findings.windowEnd);
    r.benchmarks = collectBenchmarks(store, ctx.fabric(), ctx.capacities());
    // The same runs and thresholds as the slow_pair / slow_host detector, so the section and the
    // findings agree.
    const HostPlaces& places = ctx.hostPlaces();  // the analysis' host index, for both
    r.pairBenchmarks = judgePairBenchmarks(r.benchmarks.runs, places, options.config.pairBenchmark);
    r.probes = loadProbePairs(store, places, r.findings.windowStart, r.findings.windowEnd,
                              static_cast<std::size_t>(options.config.lossyLink.maxRoutes));
    const bool measured = std::any_of(r.utilisation.groups.begin(), r.utilisation.groups.end(),
                                      [](const TierDirection& g) { return g.directions > 0; });
    // The top-tier switches, then the leaf uplinks, each half of what is left.
    r.stress = singlePointsOfStress(ctx, measured, options.stressSwitches, options.stressUplinkGroups, options.cancel,
                                    [&tell](const std::string& kind, std::size_t done, std::size_t total) {
                                        const double half = kind == "leaf uplink" ? 0.5 : 0.0;
                                        tell(0.4 + 0.6 * (half + 0.5 * static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(total, 1))),
                                             "Single points of stress: what-if " + std::to_string(done) + " of " + std::to_string(total) + " (" + kind + ")…");
                                    });
    tell(1.0, "Reading the ports' modules and the tools' events…");
    // Named as the findings name ports: the node's description, else its GUID.
    std::map<std::string, std::string> nodeName;
    for (const Node& n : ctx.fabric().nodes) nodeName.emplace(n.guid, n.description.empty() ? n.guid : n.description);
    auto where = [&nodeName](const std::string& guid, const std::string& port) {
        const auto it = nodeName.find(guid);
        return (it == nodeName.end() ? guid : it->second) + (port.empty() ? "" : " p" + port);
    };
    std::set<std::pair<std::string, std::string>> linked;  // (node GUID, port) of every port on a link
    const Fabric& f = ctx.fabric();
    for (const Link& l : f.links)
        for (const PortId p : {l.a, l.b}) linked.emplace(f.node(f.port(p).node).guid, f.port(p).name);
    for (PortOptics& o : loadPortOptics(store, ctx.snapshotId())) {
        const bool onLink = linked.count({o.nodeGuid, o.port}) > 0;
        r.optics.push_back({where(o.nodeGuid, o.port), onLink, std::move(o)});
    }
    for (FabricEvent& e : loadFabricEvents(store, ctx.snapshotId())) r.toolEvents.emplace_back(where(e.nodeGuid, e.port), std::move(e));
    for (const PortBer& b : loadPortBer(store, ctx.snapshotId())) {
        ++r.bitErrors.ports;
        r.bitErrors.withRates += b.hasRates();
        r.bitErrors.above += berExcess(b, options.config.errorLink).has_value();
        if (!b.fecMode.empty()) ++r.bitErrors.fecModes[b.fecMode];
    }
    return r;
}

} // namespace fabscope
