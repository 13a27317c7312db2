// Benchmarks section: perftest results per host pair, and nccl-tests runs with their bus
// bandwidth against the narrowest link on the run's ring (core/analysis/collective_bandwidth.h).
#include "core/byte_size.h"
#include "core/report/busbw_chart.h"
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <set>

namespace fabscope::docsec {
namespace {

std::string opt(const std::optional<double>& v) { return v ? reportfmt::number(*v, 4) : "-"; }

std::string hostsOf(const CollectiveRun& r) {
    std::set<std::string> seen;
    std::string out;
    for (const auto& h : r.hosts)
        if (seen.insert(h).second) out += (out.empty() ? "" : ", ") + h;
    return out.empty() ? "unknown" : out;
}

} // namespace

Section benchmarks(const ReportData& d) {
    Section s{"benchmarks", "Benchmarks", {}};
    const auto& b = d.benchmarks;
    if (b.empty()) {
        s.blocks.emplace_back(Paragraph{"No perftest or nccl-tests results were imported into this store.", false});
        return s;
    }
    // Runs of a judged pairwise class (a sweep of many two-host runs) are told in Pairwise
    // benchmarks: hundreds of rows and lines here would hide the other runs.
    std::set<std::int64_t> pairwise;
    for (const PairRun& r : d.pairBenchmarks.runs)
        if (d.pairBenchmarks.classes[r.classIndex].judged) pairwise.insert(r.runId);
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < b.runs.size(); ++i)
        if (!pairwise.count(b.runs[i].id)) shown.push_back(i);
    if (!pairwise.empty())
        s.blocks.emplace_back(Paragraph{
            std::to_string(pairwise.size()) + " nccl-tests runs between two hosts are compared in Pairwise benchmarks and not listed here.",
            false});
    if (!shown.empty()) {
        s.blocks.emplace_back(Paragraph{
            "nccl-tests runs: bus bandwidth (busbw, GB/s = 10^9 bytes/s as nccl-tests prints it) at the largest message "
            "size, compared with the narrowest link (Gb/s) on the routes between consecutive hosts of the run's ring "
            "(equal-cost shortest paths; per host pair the best route). Efficiency = busbw x 8 / that capacity; a host "
            "with several NICs on separate rails can exceed one link.",
            false});
        Table t{"nccl_tests_runs",
                "nccl-tests runs",
                {"Run", "Hosts", "Ranks", "Largest size", "busbw at largest (GB/s)", "Avg busbw (GB/s)", "Peak busbw (GB/s)",
                 "Bottleneck link", "Bottleneck (Gb/s)", "Efficiency (%)"},
                {false, false, true, false, true, true, true, false, true, true},
                {},
                ""};
        std::vector<CollectiveRun> charted;
        for (const std::size_t i : shown) {
            const auto& r = b.runs[i];
            charted.push_back(r);
            const auto& a = b.assessments[i];
            std::string link = a.note.empty() ? "-" : a.note;
            std::string cap = "-";
            if (a.bottleneck) {
                link = a.bottleneck->txNode + " p" + a.bottleneck->txPort + " -> " + a.bottleneck->rxNode + " p" + a.bottleneck->rxPort;
                cap = reportfmt::number(a.bottleneck->capacityGbps, 4);
            }
            t.rows.push_back({{r.tool + " #" + std::to_string(r.id), hostsOf(r), std::to_string(r.hosts.size()),
                               a.largestBytes ? binarySize(a.largestBytes) : "-", opt(a.busbwGBs), opt(r.avgBusbwGBs),
                               opt(a.peakBusbwGBs), link, cap, a.efficiency ? reportfmt::percent(*a.efficiency) : "-"},
                              a.efficiency && *a.efficiency < 0.5 ? Tone::Warning : Tone::None});
        }
        s.blocks.emplace_back(std::move(t));
        s.blocks.emplace_back(Diagram{renderBusbwChart(charted), "busbw by message size; dashed: in-place", 560, 250});
    }
    if (!b.perftest.empty()) {
        Table t{"perftest_results",
                "perftest results",
                {"Pair", "Test", "Size (B)", "t_typical (us)", "p99 (us)", "p99.9 (us)", "BW avg (Gb/s)", "Time (UTC)"},
                {false, false, true, true, true, true, true, false},
                {},
                ""};
        for (const auto& p : b.perftest)
            t.rows.push_back({{p.src + " -> " + p.dst, p.tool, std::to_string(p.msgBytes), opt(p.latencyUs), opt(p.stat("p99_us")),
                               opt(p.stat("p999_us")), opt(p.stat("bw_avg_gbps")), reportfmt::utc(p.time)},
                              Tone::None});
        s.blocks.emplace_back(std::move(t));
    }
    return s;
}

} // namespace fabscope::docsec
