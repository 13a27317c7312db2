// "Pairwise benchmarks" section: nccl-tests runs between two hosts (the bisect sweep), judged per
// class by core/analysis/pair_benchmarks.h: the classes with their median, MAD and what the NICs
// allow, a host x host matrix per class, the slow hosts with their binomial p-values and the slow
// or failed pairs. Built only when the store has two-host runs (document.cpp).
#include "core/byte_size.h"
#include "core/report/doc_sections.h"
#include "core/report/escape.h"
#include "core/report/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace fabscope::docsec {
namespace {

std::string gbs(const std::optional<double>& v) { return v ? reportfmt::number(*v, 4) : "-"; }

std::string pValue(double p) {
    if (p < 1e-99) return "< 1e-99";  // smaller says nothing more, and reaches denormals
    char buf[32];
    std::snprintf(buf, sizeof buf, p < 0.001 ? "%.1e" : "%.3f", p);
    return buf;
}

std::string share(std::size_t part, std::size_t whole) {
    return whole ? reportfmt::percent(static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

bool fromBenchmarks(const Finding& f) { return metricText(f, "source") == "benchmarks"; }

// The id of the slow_host finding of `host`, or of the slow_pair finding of a and b.
std::string hostFinding(const ReportData& d, const std::string& host) {
    for (const Finding& f : d.findings.findings)
        if (f.kind == FindingKind::SlowHost && fromBenchmarks(f) && metricText(f, "host") == host) return f.id;
    return "-";
}
const Finding* pairFinding(const ReportData& d, const BenchPair& p) {
    for (const Finding& f : d.findings.findings) {
        if (f.kind != FindingKind::SlowPair || !fromBenchmarks(f)) continue;
        const std::string src = metricText(f, "src"), dst = metricText(f, "dst");
        if ((src == p.a && dst == p.b) || (src == p.b && dst == p.a)) return &f;
    }
    return nullptr;
}

// What the expected figure is made from, or why there is none.
std::string expectedFrom(const ReportData& d, const PairClass& c) {
    if (!c.nicGbps) return d.snapshotLabel.empty() ? "no topology: expected unknown" : "hosts not in the topology: expected unknown";
    std::string s = std::to_string(c.nicsPerHost) + " x " + reportfmt::number(*c.nicGbps, 4) + " Gb/s NIC" +
                    (c.nicsPerHost == 1 ? "" : "s") + ", efficiency " + reportfmt::number(d.config.pairBenchmark.protocolEfficiency, 3);
    if (!c.expectedGBs) s += ": no model for " + c.tool;
    return s;
}

// ---- The matrix: one panel per class, cells coloured by the pair's figure / class median. ----

struct Bin {
    double from;  // ratio at or above
    const char* fill;
    const char* label;
};
constexpr Bin kBins[] = {{0.95, "#d3e9d3", "\u2265 95%"}, {0.85, "#f1e4a4", "85-95%"}, {0.75, "#f4bb6c", "75-85%"},
                         {0.65, "#e5823f", "65-75%"},     {0.55, "#cf3f35", "55-65%"},  {0.0, "#8a1515", "< 55%"}};
constexpr const char* kFailedFill = "#2f353b";
constexpr const char* kNoRunFill = "#ffffff";
constexpr const char* kSelfFill = "#e4e8eb";
constexpr const char* kFont = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";
constexpr std::size_t kMaxPanels = 9;
constexpr std::size_t kMaxCells = 60000;  // cells of all panels together
constexpr std::size_t kMaxTitledHosts = 64;  // larger matrices leave out the per-cell tooltips

// Classes with runs (a failed run without a table leaves an empty placeholder behind).
std::size_t classCount(const PairBenchmarks& pb) {
    return static_cast<std::size_t>(std::count_if(pb.classes.begin(), pb.classes.end(), [](const PairClass& c) { return !c.runs.empty(); }));
}

const char* binFill(double ratio) {
    for (const Bin& b : kBins)
        if (ratio >= b.from) return b.fill;
    return kBins[std::size(kBins) - 1].fill;
}

struct Cell {
    const PairRun* run = nullptr;  // the worst run of the pair in the class
    bool slow = false;
};

std::string shortHost(const std::string& h) { return h.size() <= 14 ? h : h.substr(0, 13) + "\u2026"; }

// The classes drawn: every class when few, else those with the largest share of bad runs.
std::vector<std::size_t> panelClasses(const PairBenchmarks& pb) {
    const std::size_t n = std::max<std::size_t>(1, pb.hosts.size());
    const std::size_t limit = std::clamp<std::size_t>(kMaxCells / (n * n), 1, kMaxPanels);
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < pb.classes.size(); ++k)
        if (!pb.classes[k].runs.empty()) out.push_back(k);
    if (out.size() <= limit) return out;
    const auto badShare = [&](std::size_t k) {
        const PairClass& c = pb.classes[k];
        return static_cast<double>(c.slowRuns + c.failedRuns) / static_cast<double>(c.runs.size());
    };
    std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return badShare(a) > badShare(b); });
    out.resize(limit);
    std::sort(out.begin(), out.end());
    return out;
}

std::string panelTitle(const PairBenchmarks& pb, const PairClass& c) {
    std::string t = c.tool + " G" + std::to_string(c.gpusPerNode);
    std::size_t siblings = 0;  // classes of the same benchmark and GPU count (another distance or size sweep)
    for (const PairClass& o : pb.classes) siblings += !o.runs.empty() && o.tool == c.tool && o.gpusPerNode == c.gpusPerNode;
    if (siblings > 1) {
        std::string dist(toString(c.distance));
        std::replace(dist.begin(), dist.end(), '_', ' ');
        t += ", " + (dist.empty() ? std::string("distance unknown") : dist);
        if (c.maxBytes > 0) t += ", " + binarySize(c.minBytes) + "-" + binarySize(c.maxBytes);
    }
    return t;
}

Diagram matrixDiagram(const PairBenchmarks& pb, const std::string& minSize) {
    const std::vector<std::size_t> panels = panelClasses(pb);
    const std::size_t n = pb.hosts.size();
    std::map<std::string, std::size_t> indexOf;
    for (std::size_t i = 0; i < n; ++i) indexOf[pb.hosts[i]] = i;
    const int cell = std::clamp(static_cast<int>(200 / std::max<std::size_t>(1, n)), 2, 14);
    const bool labels = cell >= 7;
    const bool titled = n <= kMaxTitledHosts;
    const int font = std::min(9, cell - 1);
    std::size_t longest = 0;
    for (const auto& h : pb.hosts) longest = std::max(longest, shortHost(h).size());
    const int labelW = labels ? std::min(80, 8 + static_cast<int>(static_cast<double>(longest) * font * 0.62)) : 4;
    const int side = static_cast<int>(n) * cell;
    const int panelW = labelW + side + 18, panelH = 36 + labelW + side + 12;
    const int cols = static_cast<int>(std::min<std::size_t>(3, panels.size()));
    const int rows = static_cast<int>((panels.size() + 2) / 3);
    const int legendH = 58;
    const int width = std::max(cols * panelW, 600), height = rows * panelH + legendH;

    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << ' '
      << height << "\" role=\"img\" aria-label=\"Pairwise benchmark matrices\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << height << "\" fill=\"#ffffff\"/>\n";
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const PairClass& c = pb.classes[panels[p]];
        const int ox = static_cast<int>(p % 3) * panelW + 4, oy = static_cast<int>(p / 3) * panelH;
        std::vector<Cell> cells(n * n);
        for (std::size_t i : c.runs) {
            const PairRun& r = pb.runs[i];
            const std::size_t a = indexOf.at(r.hostA), b = indexOf.at(r.hostB);
            for (const std::size_t at : {a * n + b, b * n + a}) {
                Cell& x = cells[at];
                x.slow = x.slow || r.slow;
                const bool worse = !x.run || (r.failed() && !x.run->failed()) ||
                                   (!r.failed() && !x.run->failed() && r.ratio.value_or(1) < x.run->ratio.value_or(1));
                if (worse) x.run = &r;
            }
        }
        std::string sub = "median " + gbs(c.medianGBs) + " GB/s, " + std::to_string(c.runs.size()) + " runs";
        if (c.slowRuns) sub += ", " + std::to_string(c.slowRuns) + " slow";
        if (c.failedRuns) sub += ", " + std::to_string(c.failedRuns) + " failed";
        o << "<text x=\"" << ox << "\" y=\"" << oy + 14 << "\" " << kFont << " font-size=\"11\" font-weight=\"bold\" fill=\"#1d2329\">"
          << htmlEscape(panelTitle(pb, c)) << "</text>\n";
        o << "<text x=\"" << ox << "\" y=\"" << oy + 27 << "\" " << kFont << " font-size=\"9\" fill=\"#5b6670\">" << htmlEscape(sub)
          << "</text>\n";
        const int mx = ox + labelW, my = oy + 36 + labelW;
        o << "<rect x=\"" << mx << "\" y=\"" << my << "\" width=\"" << side << "\" height=\"" << side << "\" fill=\"" << kNoRunFill
          << "\" stroke=\"#b8c0c7\" stroke-width=\"1\"/>\n";
        if (labels)
            for (std::size_t i = 0; i < n; ++i) {
                const std::string name = htmlEscape(shortHost(pb.hosts[i]));
                const int at = static_cast<int>(i) * cell + cell - std::max(1, (cell - font) / 2) - 1;
                o << "<text x=\"" << mx - 3 << "\" y=\"" << my + at << "\" " << kFont << " font-size=\"" << font
                  << "\" text-anchor=\"end\" fill=\"#1d2329\">" << name << "</text>\n";
                o << "<text x=\"" << mx + at << "\" y=\"" << my - 3 << "\" transform=\"rotate(-90 " << mx + at << ' ' << my - 3 << ")\" "
                  << kFont << " font-size=\"" << font << "\" fill=\"#1d2329\">" << name << "</text>\n";
            }
        const int inner = cell >= 6 ? cell - 1 : cell;
        const std::string label = c.tool + " G" + std::to_string(c.gpusPerNode);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const int x = mx + static_cast<int>(j) * cell, y = my + static_cast<int>(i) * cell;
                const Cell& cl = cells[i * n + j];
                if (i == j) {
                    o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << inner << "\" height=\"" << inner << "\" fill=\"" << kSelfFill
                      << "\"/>\n";
                    continue;
                }
                if (!cl.run) continue;
                const PairRun& r = *cl.run;
                o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << inner << "\" height=\"" << inner << "\" fill=\""
                  << (r.failed() ? kFailedFill : binFill(r.ratio.value_or(1))) << '"';
                if (titled) {
                    std::string t = label + ", " + pb.hosts[i] + " x " + pb.hosts[j] + ": ";
                    t += r.failed() ? "failed (" + r.failure + ")"
                                    : gbs(r.figureGBs) + " GB/s, " + (r.ratio ? reportfmt::percent(*r.ratio) : std::string("-")) +
                                          "% of the class median" + (cl.slow ? ", slow" : "");
                    o << "><title>" << htmlEscape(t) << "</title></rect>\n";
                } else {
                    o << "/>\n";
                }
                if (r.failed() && cell >= 6)  // a cross: failed reads without colour too
                    o << "<path d=\"M" << x + 2 << ' ' << y + 2 << " L" << x + inner - 2 << ' ' << y + inner - 2 << " M" << x + inner - 2
                      << ' ' << y + 2 << " L" << x + 2 << ' ' << y + inner - 2 << "\" stroke=\"#ffffff\" stroke-width=\"1.2\"/>\n";
                else if (cl.slow)
                    o << "<circle cx=\"" << x + inner / 2.0 << "\" cy=\"" << y + inner / 2.0 << "\" r=\"" << std::max(1.2, inner * 0.2)
                      << "\" fill=\"#ffffff\" stroke=\"#1d2329\" stroke-width=\"0.8\"/>\n";
            }
    }
    // Legend: what a cell's colour means, with units.
    const int ly = rows * panelH + 12;
    o << "<text x=\"4\" y=\"" << ly << "\" " << kFont << " font-size=\"10\" fill=\"#1d2329\">"
      << htmlEscape("Cell: the pair's figure (mean busbw over sizes \u2265 " + minSize + ", GB/s) as % of its class median (its worst run)")
      << "</text>\n";
    int lx = 4;
    const auto swatch = [&](const char* fill, const std::string& text, bool cross, bool dot) {
        o << "<rect x=\"" << lx << "\" y=\"" << ly + 10 << "\" width=\"12\" height=\"12\" fill=\"" << fill
          << "\" stroke=\"#b8c0c7\" stroke-width=\"0.8\"/>\n";
        if (cross)
            o << "<path d=\"M" << lx + 2 << ' ' << ly + 12 << " L" << lx + 10 << ' ' << ly + 20 << " M" << lx + 10 << ' ' << ly + 12 << " L"
              << lx + 2 << ' ' << ly + 20 << "\" stroke=\"#ffffff\" stroke-width=\"1.2\"/>\n";
        if (dot)
            o << "<circle cx=\"" << lx + 6 << "\" cy=\"" << ly + 16 << "\" r=\"2.4\" fill=\"#ffffff\" stroke=\"#1d2329\" stroke-width=\"0.8\"/>\n";
        o << "<text x=\"" << lx + 16 << "\" y=\"" << ly + 20 << "\" " << kFont << " font-size=\"9\" fill=\"#1d2329\">" << htmlEscape(text)
          << "</text>\n";
        lx += 22 + static_cast<int>(static_cast<double>(text.size()) * 5.4);
    };
    for (const Bin& b : kBins) swatch(b.fill, b.label, false, false);
    lx = 4;
    o << "<g transform=\"translate(0 18)\">\n";  // the marks on a second row
    swatch(kFailedFill, "failed (no figure)", true, false);
    swatch(binFill(0.5), "slow: an outlier of its class", false, true);
    swatch(kNoRunFill, "no run", false, false);
    swatch(kSelfFill, "same host", false, false);
    o << "</g>\n</svg>\n";
    return Diagram{o.str(),
                   "Host x host, hosts ordered by leaf switch (by name without a topology); one matrix per class" +
                       std::string(panels.size() < classCount(pb) ? " (the classes with the most slow or failed runs)" : ""),
                   width, height};
}

} // namespace

std::vector<BenchPair> badBenchPairs(const PairBenchmarks& pb) {
    std::set<std::string> slowHosts;
    for (const HostVerdict& v : pb.verdicts)
        if (v.slow) slowHosts.insert(v.host);
    std::map<std::pair<std::string, std::string>, BenchPair> byPair;
    for (const PairRun& r : pb.runs) {
        const auto& [a, b] = std::minmax(r.hostA, r.hostB);
        BenchPair& p = byPair[{a, b}];
        p.a = a;
        p.b = b;
        ++p.runs;
        if (r.failed()) {
            ++p.failedRuns;
            p.failures.push_back(&r);
            p.badTools.insert(r.tool);
        } else if (r.slow) {
            ++p.slowRuns;
            p.badTools.insert(r.tool);
            if (!p.worst || r.ratio.value_or(1) < p.worst->ratio.value_or(1)) p.worst = &r;
        }
    }
    std::vector<BenchPair> out;
    for (auto& [key, p] : byPair) {
        if (p.badRuns() == 0) continue;
        p.slowHost = slowHosts.count(p.a) ? p.a : slowHosts.count(p.b) ? p.b : std::string();
        out.push_back(std::move(p));
    }
    const auto worstRatio = [](const BenchPair& p) { return p.worst ? p.worst->ratio.value_or(1) : 1.0; };
    std::stable_sort(out.begin(), out.end(), [&](const BenchPair& x, const BenchPair& y) {
        if (x.slowHost.empty() != y.slowHost.empty()) return x.slowHost.empty();
        if (x.badRuns() != y.badRuns()) return x.badRuns() > y.badRuns();
        return worstRatio(x) < worstRatio(y);
    });
    return out;
}

Section pairwise(const ReportData& d) {
    Section s{"pairwise_benchmarks", "Pairwise benchmarks", {}};
    const PairBenchmarks& pb = d.pairBenchmarks;
    const PairBenchmarkConfig& c = d.config.pairBenchmark;
    const std::string minSize = binarySize(static_cast<std::int64_t>(c.minSizeBytes));
    std::size_t slowRuns = 0, failedRuns = 0;
    for (const PairRun& r : pb.runs) {
        slowRuns += r.slow;
        failedRuns += r.failed();
    }
    std::string slowHosts;
    for (const HostVerdict& v : pb.verdicts)
        if (v.slow) slowHosts += (slowHosts.empty() ? "" : ", ") + v.host;
    const std::vector<BenchPair> pairs = badBenchPairs(pb);

    s.blocks.emplace_back(Paragraph{
        "nccl-tests runs between two hosts (a pairwise sweep), all of the store's. Each run gives one figure: its mean "
        "out-of-place bus bandwidth (busbw, GB/s = 10^9 bytes/s as nccl-tests prints it) over the message sizes \u2265 " +
            minSize +
            ". Runs are compared within their class (same benchmark, GPUs per node, size sweep and distance in the fabric): a run "
            "is slow when its figure is at most " +
            reportfmt::number((1 - c.minDrop) * 100) + "% of the class median and at least " + reportfmt::number(c.madFactor) +
            " scaled MADs below it, in a class of at least " + std::to_string(c.minRuns) +
            " good runs; a run that gave no figure failed. A slow host is in slow or failed runs far more often than the other hosts "
            "(binomial p-value below " +
            reportfmt::number(c.hostAlpha) + " / hosts tested, and at least " + reportfmt::number(c.hostMinShare * 100) +
            "% of its runs).",
        false});
    Figures fig{"pairwise_summary", {}, {}};
    fig.items = {{"Two-host runs", std::to_string(pb.runs.size())},
                 {"Hosts", std::to_string(pb.hosts.size())},
                 {"Classes", std::to_string(classCount(pb))},
                 {"Slow runs", std::to_string(slowRuns)},
                 {"Failed runs", std::to_string(failedRuns)},
                 {"Slow hosts", slowHosts.empty() ? "none" : slowHosts},
                 {"Pairs with slow or failed runs", std::to_string(pairs.size())}};
    fig.tones = {Tone::None,
                 Tone::None,
                 Tone::None,
                 slowRuns ? Tone::Warning : Tone::Good,
                 failedRuns ? Tone::Warning : Tone::Good,
                 slowHosts.empty() ? Tone::Good : Tone::Critical,
                 pairs.empty() ? Tone::Good : Tone::Warning};
    s.blocks.emplace_back(std::move(fig));
    if (pb.otherRuns)
        s.blocks.emplace_back(Paragraph{std::to_string(pb.otherRuns) + " run(s) on one host or on more than two are not pairwise: see Benchmarks.", true});

    // Classes: measured against expected.
    Table cls{"pairwise_classes",
              "Classes: measured against expected",
              {"Class", "Runs", "Good", "Slow", "Failed", "Median busbw (GB/s)", "MAD (GB/s)", "Expected busbw (GB/s)",
               "Median / expected (%)", "Expected from"},
              {false, true, true, true, true, true, true, true, true, false},
              {},
              ""};
    bool anyExpected = false;
    for (const PairClass& k : pb.classes) {
        if (k.runs.empty()) continue;
        anyExpected = anyExpected || k.expectedGBs;
        const bool ratio = k.expectedGBs && k.medianGBs && *k.expectedGBs > 0;
        cls.rows.push_back({{k.label() + (k.judged ? "" : " (too few good runs to judge)"), std::to_string(k.runs.size()),
                             std::to_string(k.goodRuns), std::to_string(k.slowRuns), std::to_string(k.failedRuns), gbs(k.medianGBs),
                             gbs(k.madGBs), gbs(k.expectedGBs), ratio ? reportfmt::percent(*k.medianGBs / *k.expectedGBs) : "-",
                             expectedFrom(d, k)},
                            k.slowRuns + k.failedRuns ? Tone::Warning : Tone::None});
    }
    s.blocks.emplace_back(std::move(cls));
    s.blocks.emplace_back(Paragraph{
        "Expected busbw (\"is this normal?\") is what the hosts' NICs allow: with N NICs per host at the slowest line rate R "
        "(Gb/s) of the class's hosts and efficiency " +
            reportfmt::number(c.protocolEfficiency, 3) +
            ", a host sends B = min(G, N) x R / 8 x efficiency GB/s; all_reduce-like collectives reach busbw = B; sendrecv crosses "
            "one NIC (R / 8 x efficiency); alltoall sends G/(2G-1) of each rank's bytes off the host, so busbw = B / (G x G/(2G-1)).",
        false});
    if (!anyExpected)
        s.blocks.emplace_back(Paragraph{d.snapshotLabel.empty()
                                            ? "No topology in this store names the hosts' NICs, so the expected busbw is unknown; import "
                                              "the fabric (ibnetdiscover, LLDP) to compare against it."
                                            : "The topology does not name these hosts' NICs, so the expected busbw is unknown.",
                                        true});

    s.blocks.emplace_back(matrixDiagram(pb, minSize));

    Table hosts{"pairwise_slow_hosts",
                "Slow hosts: in slow or failed runs more often than chance gives",
                {"Host", "Runs", "Slow runs", "Failed runs", "Bad peers", "Bad share (%)", "Others' bad share (%)", "p-value", "Finding"},
                {false, true, true, true, false, true, true, true, false},
                {},
                "No host is in slow or failed runs more often than chance gives."};
    std::vector<const HostVerdict*> named;
    for (const HostVerdict& v : pb.verdicts)
        if (v.slow) named.push_back(&v);
    std::sort(named.begin(), named.end(), [](const HostVerdict* a, const HostVerdict* b) { return a->pValue < b->pValue; });
    for (const HostVerdict* v : named)
        hosts.rows.push_back({{v->host, std::to_string(v->runs), std::to_string(v->slowRuns), std::to_string(v->failedRuns),
                               std::to_string(v->badPeers) + " of " + std::to_string(v->peers), share(v->badRuns(), v->runs),
                               reportfmt::percent(v->expectedShare), pValue(v->pValue), hostFinding(d, v->host)},
                              Tone::Critical});
    s.blocks.emplace_back(std::move(hosts));

    Table pt{"pairwise_slow_pairs",
             "Slow and failed pairs",
             {"Pair", "Runs", "Slow runs", "Failed runs", "Worst run", "Worst figure (GB/s)", "Class median (GB/s)", "Worst / median (%)",
              "Failures", "Finding"},
             {false, true, true, true, false, true, true, true, false, false},
             {},
             "No pair has a slow or failed run."};
    std::size_t folded = 0;
    for (const BenchPair& p : pairs) {
        if (!p.slowHost.empty() && p.failures.empty()) {  // a slow host's pairs: told by its row above
            ++folded;
            continue;
        }
        std::string failures;
        for (const PairRun* r : p.failures) failures += (failures.empty() ? "" : "; ") + r->label() + ": " + r->failure;
        const PairClass* wc = p.worst ? &pb.classes[p.worst->classIndex] : nullptr;
        const Finding* f = pairFinding(d, p);
        pt.rows.push_back({{p.a + " <-> " + p.b + (p.slowHost.empty() ? "" : " (slow host " + p.slowHost + ")"), std::to_string(p.runs),
                            std::to_string(p.slowRuns), std::to_string(p.failedRuns), p.worst ? p.worst->label() : "-",
                            p.worst ? gbs(p.worst->figureGBs) : "-", wc ? gbs(wc->medianGBs) : "-",
                            p.worst && p.worst->ratio ? reportfmt::percent(*p.worst->ratio) : "-", failures.empty() ? "-" : failures,
                            f ? f->id : "-"},
                           f ? toneOf(f->severity) : (p.failedRuns || p.badTools.size() > 1 ? Tone::Critical : Tone::Warning)});
    }
    s.blocks.emplace_back(std::move(pt));
    if (folded)
        s.blocks.emplace_back(Paragraph{std::to_string(folded) + " further pair(s) are slow only in runs with a slow host (" + slowHosts +
                                            "): the host explains them (Slow hosts above; each is a slow_pair finding too).",
                                        true});
    return s;
}

} // namespace fabscope::docsec
