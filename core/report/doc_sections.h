#pragma once
// The sections of a report document, one builder per topic (internal to core/report).
#include "core/report/document.h"

#include <optional>

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
Section findings(const ReportData& d);
Section gpuRisk(const ReportData& d);
Section annotations(const ReportData& d);
Section benchmarks(const ReportData& d);
Section latency(const ReportData& d);
Section methods(const ReportData& d);

// Shared helpers.
Tone toneOf(FindingSeverity s);
std::optional<double> metricNumber(const Finding& f, const std::string& key);
std::string metricText(const Finding& f, const std::string& key);
std::string portLabel(const PortRef& p);            // "leaf02 p9"
std::string linkLabel(const Finding& f, const char* arrow);  // "leaf02 p9 -> spine01 p2"
std::size_t countKind(const FindingsReport& r, FindingKind kind);
std::string incidentOthers(const FindingsReport& r, const Incident& inc);  // "hot_link-1, ..." (after the cause)

} // namespace fabscope::docsec
