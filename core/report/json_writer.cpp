#include "core/report/json_writer.h"

#include "core/analysis/context.h"
#include "core/report/doc_sections.h"
#include "core/report/document.h"
#include "core/version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace fabscope {
namespace {

using nlohmann::ordered_json;

double r4(double v) { return std::isfinite(v) ? std::round(v * 1e4) / 1e4 : 0; }

ordered_json stats(const UtilStats& s) {
    return {{"p50", r4(s.p50)}, {"p95", r4(s.p95)}, {"p99", r4(s.p99)}, {"max", r4(s.max)}, {"mean", r4(s.mean)},
            {"seconds_above", r4(s.secondsAbove)}, {"seconds_measured", r4(s.secondsMeasured)}};
}

ordered_json port(const PortRef& p) {
    ordered_json j{{"node", p.node}};
    if (!p.guid.empty()) j["guid"] = p.guid;
    j["port"] = p.port;
    return j;
}

ordered_json fabricJson(const FabricSummary& f) {
    ordered_json j;
    j["nodes"] = {{"switch", f.switches}, {"ca", f.cas}, {"router", f.routers}};
    j["ports"] = f.ports;
    j["links"] = f.links;
    j["tiers"] = ordered_json::array();
    for (const auto& t : f.tiers)
        j["tiers"].push_back({{"tier", t.tier}, {"role", t.role}, {"switch", t.switches}, {"ca", t.cas}, {"router", t.routers}});
    j["link_generations"] = ordered_json::array();
    for (const auto& g : f.generations)
        j["link_generations"].push_back({{"class", g.linkClass}, {"width_speed", g.widthSpeed}, {"gbps", g.gbps}, {"links", g.links}});
    j["oversubscription"] = ordered_json::array();
    for (const auto& o : f.oversubscription)
        j["oversubscription"].push_back({{"node", o.node}, {"tier", o.tier}, {"down_links", o.downLinks}, {"down_gbps", o.downGbps},
                                         {"up_links", o.upLinks}, {"up_gbps", o.upGbps}, {"ratio", r4(o.ratio())},
                                         {"nominal_ratio", r4(o.nominalRatio())}});
    return j;
}

ordered_json utilisationJson(const UtilisationReport& u) {
    ordered_json j;
    j["threshold"] = u.threshold;
    j["by_tier"] = ordered_json::array();
    for (const auto& g : u.groups)
        j["by_tier"].push_back({{"direction", g.label}, {"from_tier", g.fromTier}, {"to_tier", g.toTier}, {"links", g.directions},
                                {"unmeasured", g.unmeasured}, {"utilisation", stats(g.stats)}});
    j["top_links"] = ordered_json::array();
    for (const auto& l : u.top)
        j["top_links"].push_back({{"tx", port(l.tx)}, {"rx", port(l.rx)}, {"direction", l.group}, {"capacity_gbps", l.capacityGbps},
                                  {"utilisation", stats(l.stats)}});
    return j;
}

ordered_json riskJson(const GpuRisk& r) {
    ordered_json j{{"upper_bound", true},
                   {"from_jobs", r.fromJobs},
                   {"gpus_counted", r.gpusCounted},
                   {"gpu_seconds", r4(r.totalGpuSeconds)},
                   {"gpu_hours", r4(r.totalGpuSeconds / 3600.0)}};
    j["findings"] = ordered_json::array();
    for (const auto& f : r.findings)
        j["findings"].push_back({{"id", f.findingId}, {"reaches", f.scope}, {"gpus", f.gpus}, {"seconds", r4(f.seconds)}});
    j["jobs"] = ordered_json::array();
    for (const auto& job : r.jobs)
        j["jobs"].push_back({{"job", job.job}, {"gpus", job.gpus}, {"seconds", r4(job.seconds)}, {"gpu_seconds", r4(job.gpuSeconds())}});
    return j;
}

ordered_json numberOrNull(const std::optional<double>& v) { return v ? ordered_json(r4(*v)) : ordered_json(nullptr); }

// The pairwise benchmarks (docs/REPORTS.md): the classes, the slow hosts and every pair with a
// slow or failed run. Figures in GB/s (busbw, 10^9 bytes/s), NIC rates in Gb/s, shares 0..1.
ordered_json pairwiseJson(const PairBenchmarks& pb, const PairBenchmarkConfig& c) {
    ordered_json j;
    j["runs"] = pb.runs.size();
    j["hosts"] = pb.hosts;
    j["other_runs"] = pb.otherRuns;
    j["min_size_bytes"] = static_cast<std::int64_t>(c.minSizeBytes);
    j["protocol_efficiency"] = c.protocolEfficiency;
    j["classes"] = ordered_json::array();
    for (const PairClass& k : pb.classes)
        if (!k.runs.empty())  // not the placeholder a failed run without a table leaves
            j["classes"].push_back({{"label", k.label()},
                                {"tool", k.tool},
                                {"gpus_per_node", k.gpusPerNode},
                                {"min_bytes", k.minBytes},
                                {"max_bytes", k.maxBytes},
                                {"distance", k.distance == PairDistance::Unknown ? ordered_json(nullptr) : ordered_json(toString(k.distance))},
                                {"runs", k.runs.size()},
                                {"good_runs", k.goodRuns},
                                {"slow_runs", k.slowRuns},
                                {"failed_runs", k.failedRuns},
                                {"judged", k.judged},
                                {"median_gbs", numberOrNull(k.medianGBs)},
                                {"mad_gbs", numberOrNull(k.madGBs)},
                                {"expected_gbs", numberOrNull(k.expectedGBs)},
                                {"nic_gbps", numberOrNull(k.nicGbps)},
                                {"nics_per_host", k.nicsPerHost}});
    j["slow_hosts"] = ordered_json::array();
    for (const HostVerdict& v : pb.verdicts)
        if (v.slow)
            j["slow_hosts"].push_back({{"host", v.host},
                                       {"runs", v.runs},
                                       {"slow_runs", v.slowRuns},
                                       {"failed_runs", v.failedRuns},
                                       {"peers", v.peers},
                                       {"bad_peers", v.badPeers},
                                       {"expected_share", r4(v.expectedShare)},
                                       {"p_value", std::max(v.pValue, 1e-300)}});  // as the slow_host finding: no denormals
    j["slow_pairs"] = ordered_json::array();
    for (const docsec::BenchPair& p : docsec::badBenchPairs(pb)) {
        ordered_json entry{{"hosts", ordered_json::array({p.a, p.b})}, {"runs", p.runs}, {"slow_runs", p.slowRuns}, {"failed_runs", p.failedRuns}};
        entry["benchmarks"] = p.badTools;
        if (p.worst) {
            const PairClass& k = pb.classes[p.worst->classIndex];
            entry["worst"] = {{"tool", p.worst->tool},
                             {"gpus_per_node", p.worst->gpusPerNode},
                             {"figure_gbs", numberOrNull(p.worst->figureGBs)},
                             {"class_median_gbs", numberOrNull(k.medianGBs)},
                             {"ratio", numberOrNull(p.worst->ratio)}};
        } else {
            entry["worst"] = nullptr;
        }
        entry["failures"] = ordered_json::array();
        for (const PairRun* r : p.failures)
            entry["failures"].push_back({{"tool", r->tool}, {"gpus_per_node", r->gpusPerNode}, {"reason", r->failure}});
        entry["slow_host"] = p.slowHost.empty() ? ordered_json(nullptr) : ordered_json(p.slowHost);
        j["slow_pairs"].push_back(std::move(entry));
    }
    return j;
}

// Single points of stress (docs/REPORTS.md): each evaluated top-tier switch failed in turn, or
// each leaf's most loaded uplink, worst first; utilisation as fractions 0..1, loads in Gb/s.
ordered_json worstLinkJson(const std::optional<WhatIfLink>& w) {
    if (!w || w->ports.size() != 2) return nullptr;
    return {{"tx", port(w->ports[0])},
            {"rx", port(w->ports[1])},
            {"capacity_gbps", r4(w->after.capacityGbps)},
            {"p95_util_before", r4(w->before.p95Util())},
            {"p95_util_after", r4(w->after.p95Util())},
            {"peak_util_after", r4(w->after.peakUtil())}};
}

void stressOutcome(const SwitchStress& x, ordered_json& e) {
    e["worst_link"] = worstLinkJson(x.worst);
    e["turning_hot"] = x.turningHot;
    e["disconnected"] = x.report.disconnected;
    e["jobs"] = ordered_json::array();
    for (const JobImpact& j : x.report.jobs)
        e["jobs"].push_back({{"job", j.name},
                             {"ranks", j.ranks},
                             {"slowdown", r4(j.slowdown)},
                             {"gpu_hours_at_risk", r4(j.gpuHoursAtRisk)},
                             {"disconnected", j.disconnected}});
    e["worst_slowdown"] = x.worstJob ? ordered_json(r4(x.worstJob->slowdown)) : ordered_json(nullptr);
    e["gpu_hours_at_risk"] = r4(x.gpuHoursAtRisk);
}

ordered_json stressJson(const StressReport& st) {
    ordered_json a = ordered_json::array();
    for (const SwitchStress& x : st.rows) {
        ordered_json e{{"switch", x.node}};
        if (!x.guid.empty()) e["guid"] = x.guid;
        e["tier"] = st.tier;
        e["links_failed"] = x.linksFailed;
        e["load_p95_gbps"] = r4(x.loadGbps);
        stressOutcome(x, e);
        a.push_back(std::move(e));
    }
    return a;
}

ordered_json uplinkStressJson(const StressReport& st) {
    ordered_json a = ordered_json::array();
    for (const SwitchStress& x : st.uplinkRows) {
        ordered_json e{{"leaf", x.node}};
        if (!x.guid.empty()) e["guid"] = x.guid;
        e["uplinks"] = x.uplinks;
        ordered_json failed = worstLinkJson(x.failedUplink);
        if (!failed.is_null()) {  // before the failure: the uplink's up direction
            failed.erase("p95_util_after");
            failed.erase("peak_util_after");
            failed["capacity_gbps"] = r4(x.failedUplink->before.capacityGbps);
        }
        e["uplink_failed"] = std::move(failed);
        e["links_failed"] = x.linksFailed;
        e["load_p95_gbps"] = r4(x.loadGbps);
        stressOutcome(x, e);
        a.push_back(std::move(e));
    }
    return a;
}

// Every table of the report document (the new sections' included), keyed by its CSV name: rows
// as objects by column header (units are in the headers); numeric columns as numbers.
ordered_json tablesJson(const ReportDocument& doc) {
    ordered_json j = ordered_json::object();
    for (const Table& t : allTables(doc)) {
        ordered_json rows = ordered_json::array();
        for (const auto& r : t.rows) {
            ordered_json row = ordered_json::object();
            for (std::size_t i = 0; i < t.columns.size(); ++i) {
                const std::string cell = i < r.cells.size() ? r.cells[i] : std::string();
                char* end = nullptr;
                const double v = cell.empty() ? 0 : std::strtod(cell.c_str(), &end);
                const bool isNumber = i < t.numeric.size() && t.numeric[i] && !cell.empty() && end && *end == '\0' && std::isfinite(v);
                if (cell.empty()) row[t.columns[i]] = nullptr;
                else if (isNumber) row[t.columns[i]] = v;
                else row[t.columns[i]] = cell;
            }
            rows.push_back(std::move(row));
        }
        j[t.id] = {{"caption", t.caption}, {"columns", t.columns}, {"rows", std::move(rows)}};
    }
    return j;
}

} // namespace

std::string renderJson(const ReportData& d, int indent) {
    ordered_json j = ordered_json::parse(findingsJson(d.findings, -1));
    ordered_json r;
    r["fabscope_report"] = 1;
    r["generated_at"] = std::round(d.generatedAt);
    r["fabscope_version"] = kVersion;
    r["store"] = d.storePath;
    r["snapshot"] = {{"label", d.snapshotLabel}, {"time", d.snapshotTime}};
    r["fabric"] = fabricJson(d.fabric);
    r["utilisation"] = utilisationJson(d.utilisation);
    double lost = 0;
    for (const auto& f : d.findings.findings)
        if (f.kind == FindingKind::DegradedLink)
            for (const auto& [k, v] : f.metrics)
                if (k == "capacity_lost_gbps" && std::holds_alternative<double>(v)) lost += std::get<double>(v);
    r["capacity_lost_gbps"] = lost;
    r["gpu_time_at_risk"] = riskJson(d.gpuRisk);
    r["annotations"] = ordered_json::array();
    for (const auto& a : d.annotations) {
        ordered_json ports = ordered_json::array();
        for (const auto& p : a.ports) ports.push_back(port(p));
        r["annotations"].push_back(
            {{"id", a.id}, {"start", a.start}, {"end", a.end}, {"note", a.note}, {"author", a.author}, {"ports", std::move(ports)}});
    }
    r["pairwise_benchmarks"] = pairwiseJson(d.pairBenchmarks, d.config.pairBenchmark);
    r["single_points_of_stress"] = stressJson(d.stress);
    r["single_points_of_stress_uplinks"] = uplinkStressJson(d.stress);
    r["single_points_of_stress_scope"] = {{"evaluated", d.stress.evaluated},
                                          {"top_tier_switches", d.stress.topTierSwitches},
                                          {"switches_evaluated", d.stress.rows.size()},
                                          {"chosen_by_load", d.stress.byLoad},
                                          {"leaf_uplink_groups", d.stress.uplinkGroups},
                                          {"uplink_groups_evaluated", d.stress.uplinkRows.size()},
                                          {"uplinks_chosen_by_load", d.stress.uplinksByLoad}};
    r["tables"] = tablesJson(buildDocument(d));
    j["report"] = std::move(r);
    // Node descriptions are not guaranteed UTF-8: replace bad bytes rather than fail the report.
    return j.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
}

} // namespace fabscope
