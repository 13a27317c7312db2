// The comparison report's fabric drawing: the bad side's fabric (plus what only the good side
// has) in rows by tier, each changed link in the colour of its highest-ranked change with its rank.
// Standalone SVG that Qt Svg renders too (no CSS, no markers).
#include "core/report/compare_document.h"

#include "core/natural_order.h"
#include "core/report/escape.h"
#include "core/tiers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace fabscope {
namespace {

constexpr int kWidth = 760, kMargin = 16, kTop = 30, kRowGap = 86;
constexpr std::size_t kMaxHosts = 160;       // more hosts: only those in a change are drawn
constexpr std::size_t kMaxPlainLinks = 5000;  // more links: unchanged ones are left out
constexpr int kMaxRankLabels = 40;
constexpr const char* kFont = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";

std::string fmt1(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string shorten(const std::string& s, std::size_t max) {
    if (max < 2) return {};
    if (s.size() <= max) return s;
    std::size_t cut = max - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return s.substr(0, cut) + "\u2026";
}

std::string portText(const std::string& port) {
    const bool number = !port.empty() && port.find_first_not_of("0123456789") == std::string::npos;
    return (number ? "p" : "") + port;
}

struct DNode {
    std::string name;
    NodeType type = NodeType::Ca;
    int tier = -1;
    bool goodOnly = false;
    bool involved = false;        // an end of a changed link, or a host a change names
    const char* ring = nullptr;   // a change about the host itself (job, benchmark, probe)
    std::vector<std::string> ringTitles;
    bool drawn = false;
    double x = 0, y = 0, order = 0;
};

struct DLink {
    std::size_t a = 0, b = 0;  // DNode indexes
    std::string pa, pb;        // port names
    bool inBad = false, inGood = false;
    int rank = 0;              // rank of its highest change in "What changed", 0 when unchanged
    const char* colour = nullptr;
    bool dashed = false;
    std::vector<std::string> titles;
};

struct Legend {
    const char* colour;
    const char* text;
    bool dashed;
};

// Bad minus good on "p95_util" when both sides give it, else on the first key both give as a number.
std::optional<double> delta(const Change& c) {
    std::optional<double> first;
    for (const auto& [k, v] : c.bad) {
        if (!std::holds_alternative<double>(v)) continue;
        for (const auto& [gk, gv] : c.good)
            if (gk == k && std::holds_alternative<double>(gv)) {
                const double d = std::get<double>(v) - std::get<double>(gv);
                if (k == "p95_util") return d;
                if (!first) first = d;
            }
    }
    return first;
}

bool oneSided(const ChangeValues& v) { return v.size() == 1 && v[0].first == "data"; }

bool says(const ChangeValues& v, const char* key, const char* value) {
    return std::any_of(v.begin(), v.end(), [&](const auto& kv) {
        return kv.first == key && std::holds_alternative<std::string>(kv.second) && std::get<std::string>(kv.second) == value;
    });
}

class Drawing {
public:
    Drawing(const CompareReport& report, const CompareFabrics& fabrics) : report_(report) {
        if (fabrics.bad) addFabric(*fabrics.bad, true);
        if (fabrics.good) addFabric(*fabrics.good, false);
        haveGood_ = fabrics.good != nullptr;
        for (std::size_t i = 0; i < report.changes.size(); ++i) mark(report.changes[i], static_cast<int>(i + 1));
        layout();
    }

    Diagram render() const;

private:
    // Nodes are one across the sides by GUID (by description without one); never by description
    // within one fabric, where hosts may share one.
    std::size_t nodeFor(const Node& n, bool& existed) {
        const std::string key = n.guid.empty() ? "d:" + n.description : "g:" + n.guid;
        if (auto it = byKey_.find(key); it != byKey_.end()) {
            existed = true;
            return it->second;
        }
        existed = false;
        DNode d;
        d.name = n.description.empty() ? n.guid : n.description;
        d.type = n.type;
        nodes_.push_back(d);
        const std::size_t i = nodes_.size() - 1;
        byKey_.emplace(key, i);
        if (!n.description.empty()) byName_.emplace(n.description, i);
        if (!n.systemName.empty()) byName_.emplace(n.systemName, i);
        if (n.type == NodeType::Ca) {  // "dgx001 mlx5_0" is host dgx001
            hosts_.emplace(n.description.substr(0, n.description.find(' ')), i);
            if (!n.systemName.empty()) hosts_.emplace(n.systemName, i);
        }
        return i;
    }

    static std::pair<std::string, std::string> endKey(std::size_t node, const std::string& port) {
        return {std::to_string(node), port};
    }

    DLink& linkBetween(std::size_t a, const std::string& pa, std::size_t b, const std::string& pb) {
        auto ka = endKey(a, pa), kb = endKey(b, pb);
        if (kb < ka) std::swap(ka, kb);
        const auto key = std::make_pair(ka, kb);
        if (auto it = links_.find(key); it != links_.end()) return linkList_[it->second];
        linkList_.push_back(DLink{a, b, pa, pb, false, false, 0, nullptr, false, {}});
        links_.emplace(key, linkList_.size() - 1);
        return linkList_.back();
    }

    void addFabric(const Fabric& f, bool bad) {
        const std::vector<int> tiers = computeTiers(f);
        std::vector<std::size_t> index(f.nodes.size());
        for (std::size_t i = 0; i < f.nodes.size(); ++i) {
            bool existed = false;
            index[i] = nodeFor(f.nodes[i], existed);
            DNode& d = nodes_[index[i]];
            if (!existed && !bad) d.goodOnly = true;
            if (d.tier < 0) d.tier = tiers[i];
        }
        for (const Link& l : f.links) {
            const Port& pa = f.port(l.a);
            const Port& pb = f.port(l.b);
            DLink& d = linkBetween(index[pa.node.value()], pa.name, index[pb.node.value()], pb.name);
            (bad ? d.inBad : d.inGood) = true;
        }
    }

    std::optional<std::size_t> resolve(const PortRef& p) const {
        if (!p.guid.empty())
            if (auto it = byKey_.find("g:" + p.guid); it != byKey_.end()) return it->second;
        if (auto it = byName_.find(p.node); it != byName_.end()) return it->second;
        if (auto it = byKey_.find("g:" + p.node); it != byKey_.end()) return it->second;  // named by its GUID
        return std::nullopt;
    }

    void mark(const Change& c, int rank) {
        const std::string title = "#" + std::to_string(rank) + " " + std::string(toString(c.kind)) + ": " + c.summary;
        if (c.ports.size() >= 2) {
            const auto a = resolve(c.ports[0]), b = resolve(c.ports[1]);
            if (a && b) {
                DLink& l = linkBetween(*a, c.ports[0].port, *b, c.ports[1].port);
                l.titles.push_back(title);
                nodes_[*a].involved = nodes_[*b].involved = true;
                if (!l.rank) {
                    l.rank = rank;
                    classify(l, c);
                }
                return;
            }
        }
        for (const PortRef& p : c.ports)
            if (auto n = resolve(p)) ringNode(*n, c, title);
        for (const std::string& h : c.hosts) {
            std::set<std::size_t> of;
            for (auto [it, end] = hosts_.equal_range(h); it != end; ++it) of.insert(it->second);
            if (auto it = byName_.find(h); it != byName_.end()) of.insert(it->second);
            for (std::size_t n : of) ringNode(n, c, title);
        }
    }

    void ringNode(std::size_t n, const Change& c, const std::string& title) {
        DNode& d = nodes_[n];
        d.involved = true;
        if (!d.ring) d.ring = colourOf(c, nullptr);
        d.ringTitles.push_back(title);
    }

    const char* colourOf(const Change& c, DLink* l) {
        using namespace comparecolour;
        switch (c.kind) {
        case ChangeKind::Topology:  // the values say removed or added ("link": "none"); else the fabrics do
            if (says(c.bad, "link", "none") || (l && !l->inBad && (l->inGood || !haveGood_) && !says(c.good, "link", "none"))) {
                if (l) l->dashed = true;
                return use(kRemoved, "link removed (topology)", true);
            }
            if (says(c.good, "link", "none") || (l && haveGood_ && !l->inGood)) return use(kAdded, "link added (topology)", false);
            return use(kTopology, "link changed: width, speed or state (topology)", false);
        case ChangeKind::Routes: return use(kRoute, "route changed", false);
        case ChangeKind::Load: {
            if (oneSided(c.good) || oneSided(c.bad)) {
                if (l) l->dashed = true;
                return use(kOneSided, "load: counters on one side only", true);
            }
            const auto d = delta(c);
            if (d && *d < 0) return use(kLoadDown, "less load on the bad side", false);
            return use(kLoadUp, "more load on the bad side", false);
        }
        case ChangeKind::Errors: return use(kErrors, "errors changed", false);
        case ChangeKind::Pauses: return use(kPauses, "pauses (PFC) changed", false);
        case ChangeKind::Congestion: return use(kCongestion, "congestion changed", false);
        case ChangeKind::Job:
        case ChangeKind::Benchmark:
        case ChangeKind::Probe: return use(kOther, "job, benchmark or probe changed", false);
        }
        return kOther;
    }

    void classify(DLink& l, const Change& c) { l.colour = colourOf(c, &l); }

    const char* use(const char* colour, const char* text, bool dashed) {
        if (std::none_of(legend_.begin(), legend_.end(), [&](const Legend& g) { return g.text == text; }))
            legend_.push_back({colour, text, dashed});
        return colour;
    }

    void layout();

    const CompareReport& report_;
    bool haveGood_ = false;
    std::vector<DNode> nodes_;
    std::map<std::string, std::size_t> byKey_, byName_;
    std::multimap<std::string, std::size_t> hosts_;  // host name -> its NICs
    std::vector<DLink> linkList_;
    std::map<std::pair<std::pair<std::string, std::string>, std::pair<std::string, std::string>>, std::size_t> links_;
    std::vector<Legend> legend_;
    std::vector<std::vector<std::size_t>> rows_;  // by tier, left to right
    std::size_t hostsLeftOut_ = 0;
    bool plainLinksLeftOut_ = false;
    int height_ = 0, legendTop_ = 0;
};

void Drawing::layout() {
    std::size_t hosts = 0;
    int maxTier = 1;
    for (DNode& n : nodes_) {
        if (n.tier < 0) {
            if (!n.involved) continue;  // connected to nothing: drawn only when a change names it
            n.tier = n.type == NodeType::Switch ? 1 : 0;
        }
        if (n.tier == 0) ++hosts;
        maxTier = std::max(maxTier, n.tier);
    }
    rows_.assign(static_cast<std::size_t>(maxTier) + 1, {});
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        DNode& n = nodes_[i];
        if (n.tier < 0) continue;
        if (n.tier == 0 && hosts > kMaxHosts && !n.involved) {
            ++hostsLeftOut_;
            continue;
        }
        n.drawn = true;
        rows_[static_cast<std::size_t>(n.tier)].push_back(i);
    }
    // Leaves by name; hosts under their leaf; higher tiers over the mean place of what they reach below.
    std::vector<std::vector<std::size_t>> nbrs(nodes_.size());
    for (const DLink& l : linkList_) {
        nbrs[l.a].push_back(l.b);
        nbrs[l.b].push_back(l.a);
    }
    const auto byOrder = [&](std::vector<std::size_t>& row) {
        std::stable_sort(row.begin(), row.end(), [&](std::size_t a, std::size_t b) {
            if (nodes_[a].order != nodes_[b].order) return nodes_[a].order < nodes_[b].order;
            return naturalLess(nodes_[a].name, nodes_[b].name);
        });
        for (std::size_t k = 0; k < row.size(); ++k) nodes_[row[k]].order = static_cast<double>(k);
    };
    if (rows_.size() > 1) byOrder(rows_[1]);
    for (std::size_t i : rows_[0]) {
        double best = 1e18;
        for (std::size_t m : nbrs[i])
            if (nodes_[m].tier == 1) best = std::min(best, nodes_[m].order);
        nodes_[i].order = best;
    }
    byOrder(rows_[0]);
    for (std::size_t t = 2; t < rows_.size(); ++t) {
        for (std::size_t i : rows_[t]) {
            double sum = 0;
            int k = 0;
            for (std::size_t m : nbrs[i])
                if (nodes_[m].tier == static_cast<int>(t) - 1) sum += nodes_[m].order, ++k;
            nodes_[i].order = k ? sum / k : 1e18;
        }
        byOrder(rows_[t]);
    }
    for (std::size_t t = 0; t < rows_.size(); ++t) {
        const auto& row = rows_[t];
        const double slot = static_cast<double>(kWidth - 2 * kMargin) / static_cast<double>(std::max<std::size_t>(1, row.size()));
        for (std::size_t k = 0; k < row.size(); ++k) {
            DNode& n = nodes_[row[k]];
            n.x = kMargin + slot * (static_cast<double>(k) + 0.5);
            n.y = kTop + static_cast<double>(maxTier - static_cast<int>(t)) * kRowGap;
        }
    }
    std::size_t plain = 0;
    for (const DLink& l : linkList_) plain += l.rank == 0;
    plainLinksLeftOut_ = plain > kMaxPlainLinks;
    legendTop_ = kTop + maxTier * kRowGap + 34;
    const int legendRows = static_cast<int>(legend_.size() + 2 + 1) / 2;  // two columns, plus "unchanged" and the rank mark
    height_ = legendTop_ + 18 + legendRows * 16 + 8;
}

Diagram Drawing::render() const {
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height_ << "\" viewBox=\"0 0 " << kWidth
      << ' ' << height_ << "\" role=\"img\" aria-label=\"Fabric of the bad side, changed links marked\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << kWidth << "\" height=\"" << height_ << "\" fill=\"#ffffff\"/>\n";
    const auto line = [&](const DLink& l, const char* colour, double width, bool dashed, const std::string& id) {
        const DNode& a = nodes_[l.a];
        const DNode& b = nodes_[l.b];
        o << "<line" << (id.empty() ? "" : " id=\"" + id + "\"") << " x1=\"" << fmt1(a.x) << "\" y1=\"" << fmt1(a.y) << "\" x2=\""
          << fmt1(b.x) << "\" y2=\"" << fmt1(b.y) << "\" stroke=\"" << colour << "\" stroke-width=\"" << width << '"'
          << (dashed ? " stroke-dasharray=\"6 4\"" : "");
        if (l.titles.empty()) {
            o << "/>\n";
            return;
        }
        std::string title = a.name + " " + portText(l.pa) + " \u2013 " + b.name + " " + portText(l.pb);
        for (const auto& t : l.titles) title += "\n" + t;
        o << "><title>" << htmlEscape(title) << "</title></line>\n";
    };
    // Unchanged links first, thin and grey, so the marked ones are drawn over them.
    if (!plainLinksLeftOut_)
        for (const DLink& l : linkList_)
            if (!l.rank && nodes_[l.a].drawn && nodes_[l.b].drawn)
                line(l, l.inBad ? comparecolour::kUnchanged : comparecolour::kRemoved, 0.7, !l.inBad, "");
    std::vector<const DLink*> marked;
    for (const DLink& l : linkList_)
        if (l.rank && nodes_[l.a].drawn && nodes_[l.b].drawn) marked.push_back(&l);
    std::sort(marked.begin(), marked.end(), [](const DLink* a, const DLink* b) { return a->rank > b->rank; });  // rank 1 on top
    for (const DLink* l : marked) line(*l, l->colour, 3.2, l->dashed, "cmp-" + std::to_string(l->rank));

    // Nodes: switches as boxes, hosts as dots; names where the row leaves room, else only the
    // nodes of a change.
    for (std::size_t t = 0; t < rows_.size(); ++t) {
        const auto& row = rows_[t];
        const double slot = static_cast<double>(kWidth - 2 * kMargin) / static_cast<double>(std::max<std::size_t>(1, row.size()));
        const bool roomy = slot >= 30;
        for (std::size_t i : row) {
            const DNode& n = nodes_[i];
            const std::string fill = n.goodOnly ? "#ffffff" : n.type == NodeType::Switch ? "#f4f1ea" : "#eef3f8";
            const std::string stroke = n.goodOnly ? comparecolour::kRemoved : "#5b6670";
            o << "<g>";
            if (n.type == NodeType::Ca) {
                const double r = std::clamp(slot * 0.3, 1.2, 4.5);
                o << "<circle cx=\"" << fmt1(n.x) << "\" cy=\"" << fmt1(n.y) << "\" r=\"" << fmt1(r) << "\" fill=\"" << fill
                  << "\" stroke=\"" << stroke << "\" stroke-width=\"0.8\"/>";
                if (n.ring)
                    o << "<circle cx=\"" << fmt1(n.x) << "\" cy=\"" << fmt1(n.y) << "\" r=\"" << fmt1(r + 3) << "\" fill=\"none\" stroke=\"" << n.ring
                      << "\" stroke-width=\"2\"/>";
            } else {
                const double w = std::clamp(slot * 0.7, 2.0, 56.0), h = 12;
                o << "<rect x=\"" << fmt1(n.x - w / 2) << "\" y=\"" << fmt1(n.y - h / 2) << "\" width=\"" << fmt1(w) << "\" height=\"" << h
                  << "\" rx=\"2\" fill=\"" << fill << "\" stroke=\"" << (n.ring ? n.ring : stroke.c_str()) << "\" stroke-width=\""
                  << (n.ring ? 2 : 0.8) << "\"/>";
            }
            std::string title = n.name + (n.goodOnly ? " (only on the good side)" : "");
            for (const auto& r : n.ringTitles) title += "\n" + r;
            o << "<title>" << htmlEscape(title) << "</title></g>\n";
            if (roomy || n.involved) {
                const std::size_t chars = static_cast<std::size_t>(std::max(4.0, (roomy ? slot : 90.0) / 5.2));
                const double ty = n.type == NodeType::Ca ? n.y + 16 : n.y - 9;
                o << "<text x=\"" << fmt1(n.x) << "\" y=\"" << fmt1(ty) << "\" " << kFont << " font-size=\"8\" text-anchor=\"middle\" fill=\""
                  << (n.involved ? "#1d2329" : "#5b6670") << '"' << (n.involved ? " font-weight=\"bold\"" : "") << ">"
                  << htmlEscape(shorten(n.name, chars)) << "</text>\n";
            }
        }
    }
    // Each marked link's rank at its middle, so the drawing reads against the table.
    int labels = 0;
    for (auto it = marked.rbegin(); it != marked.rend() && labels < kMaxRankLabels; ++it, ++labels) {
        const DLink& l = **it;
        const double mx = (nodes_[l.a].x + nodes_[l.b].x) / 2, my = (nodes_[l.a].y + nodes_[l.b].y) / 2;
        o << "<circle cx=\"" << fmt1(mx) << "\" cy=\"" << fmt1(my) << "\" r=\"7\" fill=\"#ffffff\" stroke=\"" << l.colour
          << "\" stroke-width=\"1.5\"/>\n<text x=\"" << fmt1(mx) << "\" y=\"" << fmt1(my + 3) << "\" " << kFont
          << " font-size=\"8\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#1d2329\">" << l.rank << "</text>\n";
    }

    // Legend, two columns.
    o << "<text x=\"" << kMargin << "\" y=\"" << legendTop_ << "\" " << kFont << " font-size=\"10\" fill=\"#1d2329\">"
      << htmlEscape("Link colour: its highest-ranked change; the number is its rank in What changed") << "</text>\n";
    std::vector<Legend> items = legend_;
    items.push_back({comparecolour::kUnchanged, "no change", false});
    int k = 0;
    for (const Legend& g : items) {
        const int x = kMargin + (k % 2) * 370, y = legendTop_ + 16 + (k / 2) * 16;
        o << "<line x1=\"" << x << "\" y1=\"" << y - 3 << "\" x2=\"" << x + 26 << "\" y2=\"" << y - 3 << "\" stroke=\"" << g.colour
          << "\" stroke-width=\"3.2\"" << (g.dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>\n";
        o << "<text x=\"" << x + 32 << "\" y=\"" << y << "\" " << kFont << " font-size=\"9\" fill=\"#1d2329\">" << htmlEscape(g.text)
          << "</text>\n";
        ++k;
    }
    {
        const int x = kMargin + (k % 2) * 370, y = legendTop_ + 16 + (k / 2) * 16;
        o << "<rect x=\"" << x + 7 << "\" y=\"" << y - 9 << "\" width=\"12\" height=\"10\" rx=\"2\" fill=\"#ffffff\" stroke=\""
          << comparecolour::kRemoved << "\" stroke-width=\"0.8\"/>\n<text x=\"" << x + 32 << "\" y=\"" << y << "\" " << kFont
          << " font-size=\"9\" fill=\"#1d2329\">" << htmlEscape("node only on the good side (white, dark outline)") << "</text>\n";
    }
    o << "</svg>\n";

    std::string caption = "Fabric of the bad side (snapshot " + (report_.bad.snapshot.empty() ? std::string("none") : report_.bad.snapshot) +
                          "), rows by tier, hosts at the bottom; in the HTML a link's or node's tooltip lists its changes.";
    if (hostsLeftOut_) caption += " " + std::to_string(hostsLeftOut_) + " hosts without a change are not drawn.";
    if (plainLinksLeftOut_) caption += " Unchanged links are not drawn (more than " + std::to_string(kMaxPlainLinks) + ").";
    std::size_t unplaced = 0;
    for (const Change& c : report_.changes)
        if (c.ports.size() >= 2 && (!resolve(c.ports[0]) || !resolve(c.ports[1]))) ++unplaced;
    if (unplaced)
        caption += " " + std::to_string(unplaced) + (unplaced == 1 ? " changed link names" : " changed links name") +
                   " a node neither side's topology has; see the table.";
    return Diagram{o.str(), caption, kWidth, height_};
}

} // namespace

Diagram compareFabricDiagram(const CompareReport& report, const CompareFabrics& fabrics) {
    return Drawing(report, fabrics).render();
}

} // namespace fabscope
