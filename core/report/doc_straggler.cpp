// Jobs: per job its hosts, rings and trees, its tightest pairs as the fabric routes them, and its
// straggler path drawn hop by hop with each switch's out-port, with why it is the worst.
#include "core/report/doc_sections.h"
#include "core/report/route_diagram.h"
#include "core/report/text_format.h"

#include <algorithm>

namespace fabscope::docsec {
namespace {

constexpr std::size_t kListed = 32;      // hosts and ring members written out per job
constexpr std::size_t kPairsPerJob = 5;  // tightest pairs tabled per job
constexpr std::size_t kUnplacedNamed = 8;  // ranks off the fabric named per job, the rest counted
constexpr std::size_t kTightRanks = 5;     // ranks tabled per job by the median headroom of their pairs

std::string listed(const std::vector<std::string>& items, const char* sep) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < kListed; ++i) out += (i ? sep : "") + items[i];
    if (items.size() > kListed) out += " ... (" + std::to_string(items.size() - kListed) + " more)";
    return out;
}

// A straggler pair names two ranks; the one whose every pair is tight is the one behind the
// bottleneck (its host link, say), the other only shares this pair. Empty when either rank's
// pairs were not scored.
std::string whichEnd(const JobRoutes& j, const Finding& f) {
    const auto place = [&](const char* key) -> const JobRankPlace* {
        const std::optional<double> rank = metricNumber(f, key);
        for (const JobRankPlace& p : j.rankPlaces)
            if (rank && static_cast<double>(p.rank) == *rank && p.medianPairHeadroom) return &p;
        return nullptr;
    };
    const JobRankPlace* src = place("src_rank");
    const JobRankPlace* dst = place("dst_rank");
    if (!src || !dst) return {};
    auto one = [](const JobRankPlace& p) {
        return "rank " + std::to_string(p.rank) + " (" + p.host + ") " + reportfmt::percent(*p.medianPairHeadroom) + "%";
    };
    std::string text = "Median headroom of the pairs each rank is in: " + one(*src) + ", " + one(*dst);
    const double a = *src->medianPairHeadroom, b = *dst->medianPairHeadroom;
    if (reportfmt::percent(a) == reportfmt::percent(b)) return text + ": alike, so the bottleneck is not at one rank's end.";
    const JobRankPlace& behind = a < b ? *src : *dst;
    return text + ": rank " + std::to_string(behind.rank) + " (" + behind.host + ") is behind the bottleneck, its other pairs as tight.";
}

const Finding* findingById(const ReportData& d, const std::string& id) {
    for (const auto& f : d.findings.findings)
        if (f.id == id) return &f;
    return nullptr;
}

// The job's ranks whose pairs are tightest (median pair headroom, lowest first; the lower rank
// first among equals): a rank whose every pair is tight sits behind a bottleneck of its own.
std::vector<const JobRankPlace*> tightestRanks(const JobRoutes& j) {
    std::vector<const JobRankPlace*> scored;
    for (const JobRankPlace& p : j.rankPlaces)
        if (p.medianPairHeadroom) scored.push_back(&p);
    const std::size_t n = std::min(scored.size(), kTightRanks);
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(n), scored.end(), [](const JobRankPlace* a, const JobRankPlace* b) {
        return *a->medianPairHeadroom != *b->medianPairHeadroom ? *a->medianPairHeadroom < *b->medianPairHeadroom : a->rank < b->rank;
    });
    scored.resize(n);
    return scored;
}

std::string routedBy(const JobPairRoute& p) {
    return p.routedBy == "forwarding_tables" ? "forwarding tables" : "1 of " + std::to_string(p.routes) + " equal-cost routes";
}

} // namespace

Section stragglers(const ReportData& d) {
    const auto& c = d.config.stragglerPath;
    Section s{"jobs", "Jobs and straggler paths", {}};
    s.blocks.emplace_back(Paragraph{
        "Each job's communicating pairs (the ring neighbours NCCL logged; without rings every pair up to " +
            std::to_string(c.ringAbove) +
            " ranks, else rank i -> i+1) are routed hop by hop through the imported forwarding tables (destination LID -> out-port "
            "at each switch), else over every equal-cost shortest route, each weighted 1/N. A hop's headroom is 1 - the 95th "
            "percentile of its utilisation in the window, times the actual/expected capacity of a degraded link, times " +
            reportfmt::number(c.flaggedPenalty) +
            " for a link with error, flap, congestion or PFC findings; a route is as good as its worst hop. A job's worst pair is "
            "its straggler path when its headroom is at most " + reportfmt::number(c.outlierRatio * 100) +
            "% of the job's median pair (at least " + std::to_string(c.minPairs) + " pairs); critical when its bottleneck keeps " +
            reportfmt::number(c.criticalHeadroom * 100) + "% or less. A ring is as fast as its slowest hop: the job's bound is "
            "that hop's free capacity.",
        false});
    Table jobs{"jobs",
               "Jobs in the store",
               {"Job", "File", "NCCL", "Ranks", "Hosts", "Ranks not on the fabric", "Ring channels", "Tree channels", "Pairs scored",
                "Median pair headroom (%)", "Straggler path"},
               {false, false, false, true, true, true, true, true, true, true, false},
               {},
               "No jobs in the store: import an NCCL log (NCCL_DEBUG=INFO) or a job CSV to see them here."};
    Table pairs{"job_pairs",
                "The tightest pairs of each job (up to " + std::to_string(kPairsPerJob) + ")",
                {"Job", "Pair (source -> destination)", "Pair headroom (%)", "Bottleneck hop", "Bottleneck free (Gb/s)", "Reason",
                 "Routed by"},
                {false, false, true, false, true, false, false},
                {},
                "No pair of any job could be routed (hosts not on the fabric, or no topology)."};
    Table ranks{"job_tight_ranks",
                "The ranks whose pairs are tightest, by the median headroom of the pairs each is in (up to " +
                    std::to_string(kTightRanks) + " per job): low when every pair through the rank is tight",
                {"Job", "Rank", "Host (adapter)", "Host port", "Switch port", "Median pair headroom (%)"},
                {false, true, false, false, false, true},
                {},
                "No rank of any job had a pair routed."};
    for (const JobRoutes& j : d.findings.jobs) {
        jobs.rows.push_back({{j.name, j.file, j.ncclVersion.empty() ? "-" : j.ncclVersion, std::to_string(j.ranks),
                              std::to_string(j.hosts.size()), std::to_string(j.ranksUnplaced), std::to_string(j.ringChannels),
                              std::to_string(j.treeChannels), std::to_string(j.pairs.size()),
                              j.pairs.empty() ? "-" : reportfmt::percent(j.medianHeadroom),
                              j.stragglerFinding.empty() ? "none" : j.stragglerFinding},
                             j.stragglerFinding.empty() ? Tone::None : Tone::Warning});
        std::string text = "Job " + j.name + " runs on " + listed(j.hosts, ", ") + ".";
        if (!j.ring.empty()) {
            std::vector<std::string> ring;
            for (int r : j.ring) ring.push_back(std::to_string(r));
            text += " Ring on channel 0 (ranks): " + listed(ring, " -> ") + " -> " + ring.front() + ".";
        }
        if (j.ranksUnplaced > 0) {  // which ranks: the hosts to look for in the topology
            std::vector<std::string> off;
            for (const JobRankPlace& r : j.rankPlaces)
                if (!r.port && off.size() < kUnplacedNamed)
                    off.push_back("rank " + std::to_string(r.rank) + " (" + adapterName(r.host, r.device) + ")");
            text += " Not on the fabric, so their pairs are not routed: " + listed(off, ", ") +
                    (j.ranksUnplaced > off.size() ? " and " + std::to_string(j.ranksUnplaced - off.size()) + " more" : "") + ".";
        }
        s.blocks.emplace_back(Paragraph{text, false});
        for (std::size_t k = 0; k < j.pairs.size() && k < kPairsPerJob; ++k) {
            const JobPairRoute& p = j.pairs[k];
            const std::size_t h = 2 * p.bottleneckHop;
            pairs.rows.push_back({{j.name,
                                   "rank " + std::to_string(p.srcRank) + " (" + p.srcHost + ") -> rank " + std::to_string(p.dstRank) +
                                       " (" + p.dstHost + ")",
                                   reportfmt::percent(p.headroom),
                                   h + 1 < p.path.size() ? portLabel(p.path[h]) + " -> " + portLabel(p.path[h + 1]) : "-",
                                   reportfmt::number(p.bottleneckGbps), p.reason, routedBy(p)},
                                  k == 0 && !j.stragglerFinding.empty() ? Tone::Warning : Tone::None});
        }
        for (const JobRankPlace* r : tightestRanks(j))
            ranks.rows.push_back({{j.name, std::to_string(r->rank), adapterName(r->host, r->device), r->port ? portLabel(*r->port) : "-",
                                   r->switchPort ? portLabel(*r->switchPort) : "-", reportfmt::percent(*r->medianPairHeadroom)},
                                  Tone::None});
    }
    s.blocks.emplace_back(std::move(jobs));
    s.blocks.emplace_back(std::move(pairs));
    s.blocks.emplace_back(std::move(ranks));

    Table t{"straggler_paths",
            "Straggler paths: the worst pair of each job",
            {"Severity", "Job", "Pair (source -> destination)", "Pair headroom (%)", "Job median headroom (%)", "Bottleneck hop",
             "Bottleneck headroom (%)", "Reason", "Routes", "Pairs scored"},
            {false, false, false, true, true, false, true, false, true, true},
            {},
            "None in this window: no job had a pair standing out against its other pairs (or the store holds no jobs)."};
    Table hops{"straggler_routes", "Straggler routes hop by hop: each hop leaves a node by its out-port",
               {"Job", "Hop", "Leaves (node, out-port)", "Arrives (node, port)", "Bottleneck"}, {false, true, false, false, false}, {},
               "None in this window."};
    std::vector<Block> details;
    for (const JobRoutes& j : d.findings.jobs) {
        const Finding* f = findingById(d, j.stragglerFinding);
        if (!f) continue;
        const std::string pair = "rank " + metricText(*f, "src_rank") + " (" + metricText(*f, "src_host") + ") -> rank " +
                                 metricText(*f, "dst_rank") + " (" + metricText(*f, "dst_host") + ")";
        const std::string neck = f->ports.size() >= 2 ? portLabel(f->ports[0]) + " -> " + portLabel(f->ports[1]) : "";
        const double neckHeadroom = metricNumber(*f, "bottleneck_headroom").value_or(0);
        t.rows.push_back({{std::string(toString(f->severity)), j.name, pair, reportfmt::percent(metricNumber(*f, "pair_headroom").value_or(0)),
                           reportfmt::percent(metricNumber(*f, "job_median_headroom").value_or(0)), neck, reportfmt::percent(neckHeadroom),
                           metricText(*f, "bottleneck_reason"), metricText(*f, "routes"), metricText(*f, "pairs")},
                          toneOf(f->severity)});
        for (std::size_t h = 0; h + 1 < f->path.size(); h += 2) {
            const bool bad = f->ports.size() >= 2 && f->path[h] == f->ports[0] && f->path[h + 1] == f->ports[1];
            hops.rows.push_back({{j.name, std::to_string(h / 2 + 1), portLabel(f->path[h]), portLabel(f->path[h + 1]), bad ? "yes" : ""},
                                 bad ? toneOf(f->severity) : Tone::None});
        }
        details.emplace_back(Paragraph{"Why " + pair + " is job " + j.name + "'s straggler: " + f->summary + ".", false});
        if (std::string ends = whichEnd(j, *f); !ends.empty()) details.emplace_back(Paragraph{std::move(ends), false});
        if (f->path.size() >= 2)
            details.emplace_back(routeDiagram(f->path, f->ports,
                                              metricText(*f, "bottleneck_reason") + ", " + reportfmt::percent(neckHeadroom) + "% headroom",
                                              "Job " + j.name + ": " + pair));
    }
    s.blocks.emplace_back(std::move(t));
    for (auto& b : details) s.blocks.push_back(std::move(b));
    if (!hops.rows.empty()) s.blocks.emplace_back(std::move(hops));
    return s;
}

} // namespace fabscope::docsec
