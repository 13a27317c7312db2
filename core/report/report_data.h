#pragma once
// What a report says, as numbers: built once from a store and written as HTML, PDF, CSV or JSON
// (docs/REPORTS.md). No Qt, no formatting here; the writers decide how it looks.
#include "core/analysis/analyze.h"
#include "core/analysis/pair_benchmarks.h"
#include "core/analysis/probe_pairs.h"
#include "core/store/annotations.h"
#include "core/store/fabric_events.h"
#include "core/store/port_optics.h"
#include "core/report/benchmarks.h"
#include "core/report/fabric_summary.h"
#include "core/report/gpu_risk.h"
#include "core/report/stress.h"
#include "core/report/utilisation.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct ReportData {
    std::string storePath;
    std::string snapshotLabel;
    double snapshotTime = 0;     // UNIX seconds, 0 without topology
    double generatedAt = 0;      // UNIX seconds
    FindingsReport findings;     // the docs/FINDINGS.md findings over the window
    AnalysisConfig config;       // thresholds the report was made with (methods section)
    FabricSummary fabric;
    UtilisationReport utilisation;
    GpuRisk gpuRisk;
    std::vector<Annotation> annotations;  // overlapping the window
    BenchmarkResults benchmarks;          // perftest and nccl-tests results (all of them)
    ProbePairs probes;                    // probe pairs over the window (latency section)
    PairBenchmarks pairBenchmarks;        // two-host nccl-tests runs judged by class (all of them, as benchmarks)
    StressReport stress;                  // each top-tier switch failed in turn (what-if), with counters and a topology
    // What the ports' modules and ibdiagnet reported (ibdiagnet2.cables, db_csv WARNINGS_/ERRORS_),
    // each with its port or node as the report names it ("leaf02 p9", "leaf02").
    struct Module {
        std::string where;    // "leaf02 p9"
        bool onLink = false;  // a module in a port without a link sees no light: its loss flags say so
        PortOptics reading;
    };
    std::vector<Module> optics;
    std::vector<std::pair<std::string, FabricEvent>> toolEvents;
    // What ibdiagnet read of the ports' physical layer (ibdiagnet2.net_dump_ext): how many ports,
    // how many with rates, how many above the error_link threshold, and the FEC modes in use.
    struct BitErrors {
        std::size_t ports = 0, withRates = 0, above = 0;
        std::map<std::string, std::size_t> fecModes;  // mode -> ports
    } bitErrors;
    // The cabling plan the fabric was checked against (the latest stored; ibdm-topo, ibsim-net).
    struct Plan {
        std::string label;
        double time = 0;           // its file's mtime, UNIX seconds
        std::size_t cables = 0;    // planned
    };
    std::optional<Plan> plan;
};

struct ReportOptions {
    AnalysisWindow window;
    AnalysisConfig config;
    std::size_t topLinks = 10;   // rows of the hot-links table
    std::size_t chartedLinks = 4;  // of which get a chart
    double generatedAt = 0;      // 0: now
    std::size_t stressSwitches = 48;  // top-tier switches failed in turn at most (single points of stress); 0: none
    std::size_t stressUplinkGroups = 48;  // leaves that lose their most loaded uplink at most (the same section); 0: none
    // Findings already made over the same window with the same config (the GUI's, on screen):
    // used instead of analysing again when their window is the report's.
    std::shared_ptr<const FindingsReport> findings;
    const std::atomic<bool>* cancel = nullptr;  // stops the analysis early (AnalysisCancelled)
    // How far the building is (0..1, never falling) and what it is doing ("Single points of
    // stress: what-if 12 of 48 (top-tier switch)"), on the building thread; the stress section
    // is most of a large fabric's report with forwarding tables (~11 s of 12 at k=48).
    std::function<void(double fraction, const std::string& stage)> progress;
};

// Throws StoreError on store failures.
ReportData buildReportData(const Store& store, const ReportOptions& options);

} // namespace fabscope
