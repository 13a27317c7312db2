// "Latency, jitter and loss" section: pingmesh / perftest latency pairs over the window per
// distance class (core/analysis/probe_pairs.h), the worst pairs, and the links lossy_link blamed.
#include "core/report/doc_sections.h"
#include "core/report/text_format.h"

#include <algorithm>

namespace fabscope::docsec {
namespace {

std::string us(const std::optional<double>& v) { return v ? reportfmt::number(*v, 4) : "-"; }

// Median of the values the pairs have: the typical pair of a class.
std::optional<double> medianOf(std::vector<double> v) {
    if (v.empty()) return std::nullopt;
    std::sort(v.begin(), v.end());
    return percentile(v, 0.5);
}

TableRow pairRow(const ProbePair& p) {
    return {{p.src + " -> " + p.dst, std::string(describe(p.distance)), std::to_string(p.sent), us(p.p50), us(p.p99), us(p.p999),
             us(p.jitter()), reportfmt::percent(p.lossRate())},
            Tone::None};
}

Table pairTable(const std::string& id, const std::string& caption) {
    return {id,
            caption,
            {"Pair", "Distance", "Probes", "p50 (us)", "p99 (us)", "p99.9 (us)", "Jitter (us)", "Loss (%)"},
            {false, false, true, true, true, true, true, true},
            {},
            "None."};
}

} // namespace

Section latency(const ReportData& d) {
    Section s{"latency", "Latency, jitter and loss", {}};
    std::vector<const ProbePair*> pairs;
    for (const ProbePair& p : d.probes.pairs)
        if (!p.bandwidth() && (p.p50 || p.sent > 0)) pairs.push_back(&p);
    if (pairs.empty()) {
        s.blocks.emplace_back(Paragraph{"No probe data in this window.", false});
        return s;
    }
    s.blocks.emplace_back(Paragraph{
        "Round-trip times of host pairs (pingmesh, perftest latency), per distance class. Per class the percentiles "
        "and jitter (p99 - p50) are the median over its pairs (the typical pair); loss = lost / sent over all its probes.",
        false});
    Table cls{"latency_by_distance",
              "Latency by distance class",
              {"Distance", "Pairs", "Probes", "p50 (us)", "p99 (us)", "p99.9 (us)", "Jitter (us)", "Loss (%)"},
              {false, true, true, true, true, true, true, true},
              {},
              ""};
    for (const auto c : {DistanceClass::SameLeaf, DistanceClass::SamePod, DistanceClass::AcrossSpines}) {
        std::vector<double> p50, p99, p999, jitter;
        std::int64_t sent = 0, lost = 0, n = 0;
        for (const ProbePair* p : pairs) {
            if (p->distance != c) continue;
            ++n;
            sent += p->sent;
            lost += p->lost;
            if (p->p50) p50.push_back(*p->p50);
            if (p->p99) p99.push_back(*p->p99);
            if (p->p999) p999.push_back(*p->p999);
            if (const auto j = p->jitter()) jitter.push_back(*j);
        }
        if (n == 0) continue;
        cls.rows.push_back({{std::string(describe(c)), std::to_string(n), std::to_string(sent), us(medianOf(p50)), us(medianOf(p99)),
                             us(medianOf(p999)), us(medianOf(jitter)),
                             reportfmt::percent(sent > 0 ? static_cast<double>(lost) / static_cast<double>(sent) : 0)},
                            Tone::None});
    }
    s.blocks.emplace_back(std::move(cls));

    constexpr std::size_t kWorst = 10;
    auto byP99 = pairs;
    std::erase_if(byP99, [](const ProbePair* p) { return !p->p99; });
    std::sort(byP99.begin(), byP99.end(), [](const ProbePair* a, const ProbePair* b) { return *a->p99 > *b->p99; });
    Table worstP99 = pairTable("latency_worst_p99", "Worst pairs by p99 RTT");
    for (std::size_t i = 0; i < byP99.size() && i < kWorst; ++i) worstP99.rows.push_back(pairRow(*byP99[i]));
    s.blocks.emplace_back(std::move(worstP99));
    auto byLoss = pairs;
    std::erase_if(byLoss, [](const ProbePair* p) { return p->lost == 0; });
    std::sort(byLoss.begin(), byLoss.end(), [](const ProbePair* a, const ProbePair* b) { return a->lossRate() > b->lossRate(); });
    Table worstLoss = pairTable("latency_worst_loss", "Worst pairs by loss");
    worstLoss.emptyText = "No probe was lost.";
    for (std::size_t i = 0; i < byLoss.size() && i < kWorst; ++i) worstLoss.rows.push_back(pairRow(*byLoss[i]));
    s.blocks.emplace_back(std::move(worstLoss));

    Table blamed{"latency_blamed_links",
                 "Links blamed for the loss (lossy_link: votes of the pairs crossing them)",
                 {"Link", "Bad votes", "Good votes", "Bad pairs", "Loss (%)", "Probes sent"},
                 {false, true, true, true, true, true},
                 {},
                 "No link is blamed for probe loss."};
    for (const Finding& f : d.findings.findings) {
        if (f.kind != FindingKind::LossyLink) continue;
        const auto loss = metricNumber(f, "loss_rate");
        blamed.rows.push_back({{linkLabel(f, "<->"), metricText(f, "bad_votes"), metricText(f, "good_votes"), metricText(f, "bad_pairs"),
                                loss ? reportfmt::percent(*loss) : "-", metricText(f, "sent")},
                               toneOf(f.severity)});
    }
    s.blocks.emplace_back(std::move(blamed));
    return s;
}

} // namespace fabscope::docsec
