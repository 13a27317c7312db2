#pragma once
// The sections of a report document, one builder per topic (internal to core/report).
#include "core/report/document.h"

#include <optional>
#include <set>

namespace fabscope::docsec {

Section summary(const ReportData& d);
Section fabric(const ReportData& d);
Section utilisation(const ReportData& d);
Section hotLinks(const ReportData& d);
Section degradedLinks(const ReportData& d);
Section errorLinks(const ReportData& d);
Section ecmpImbalance(const ReportData& d);
Section pfcCongestion(const ReportData& d);
Section stragglers(const ReportData& d);
Section topologyChanges(const ReportData& d);
Section cablingPlan(const ReportData& d);  // only when the store holds a cabling plan and a fabric (doc_cabling_plan.cpp)
Section findings(const ReportData& d);
Section gpuRisk(const ReportData& d);
Section annotations(const ReportData& d);
Section benchmarks(const ReportData& d);
Section latency(const ReportData& d);
Section pairwise(const ReportData& d);  // only when the store has two-host runs (doc_pairwise.cpp)
Section stress(const ReportData& d);    // only when the store has counters and a topology (doc_stress.cpp)
Section modules(const ReportData& d);   // only when the store has module readings or ibdiagnet checks (doc_modules.cpp)
Section methods(const ReportData& d);

// Shared helpers.
Tone toneOf(FindingSeverity s);
std::optional<double> metricNumber(const Finding& f, const std::string& key);
std::string metricText(const Finding& f, const std::string& key);
std::string portLabel(const PortRef& p);            // "leaf02 p9"
std::string linkLabel(const Finding& f, const char* arrow);  // "leaf02 p9 -> spine01 p2"
std::size_t countKind(const FindingsReport& r, FindingKind kind);
std::string incidentOthers(const FindingsReport& r, const Incident& inc);  // "hot_link-1, ..." (after the cause)

// A host pair of the pairwise benchmarks with a slow or failed run (doc_pairwise.cpp); the JSON
// writer lists the same pairs.
struct BenchPair {
    std::string a, b;  // a < b
    std::size_t runs = 0, slowRuns = 0, failedRuns = 0;
    std::set<std::string> badTools;
    const PairRun* worst = nullptr;         // its slow run furthest below its class median
    std::vector<const PairRun*> failures;   // its failed runs
    std::string slowHost;                   // an end named a slow host, else empty
    [[nodiscard]] std::size_t badRuns() const { return slowRuns + failedRuns; }
};
// Pairs without a slow host first, then by bad runs (most first) and worst ratio (lowest first).
std::vector<BenchPair> badBenchPairs(const PairBenchmarks& pb);

} // namespace fabscope::docsec
