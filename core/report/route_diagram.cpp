#include "core/report/route_diagram.h"

#include "core/report/escape.h"
#include "core/report/fabric_summary.h"

#include <algorithm>
#include <sstream>

namespace fabscope {
namespace {

constexpr int kBoxW = 118, kBoxH = 42, kGap = 62, kMargin = 10, kTop = 26, kHeight = 124;
constexpr const char* kFont = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";
constexpr const char* kBad = "#b3261e";

// Cut at a character boundary so a long description never runs into the next box.
std::string shorten(const std::string& s, std::size_t max) {
    if (s.size() <= max) return s;
    std::size_t cut = max - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return s.substr(0, cut) + "\u2026";
}

std::string portName(const PortRef& p) {
    const bool number = !p.port.empty() && p.port.find_first_not_of("0123456789") == std::string::npos;
    return (number ? "p" : "") + p.port;
}

bool same(const PortRef& a, const PortRef& b) { return a.node == b.node && a.port == b.port; }

} // namespace

Diagram routeDiagram(const std::vector<PortRef>& path, const std::vector<PortRef>& bad, const std::string& badNote,
                     std::string caption) {
    const std::size_t hops = path.size() / 2;
    std::vector<std::string> nodes;  // node i sends hop i
    if (hops) nodes.push_back(path[0].node);
    for (std::size_t h = 0; h < hops; ++h) nodes.push_back(path[2 * h + 1].node);
    const int n = static_cast<int>(nodes.size());
    const int width = std::max(1, n) * kBoxW + std::max(0, n - 1) * kGap + 2 * kMargin;

    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << width
      << ' ' << kHeight << "\" role=\"img\" aria-label=\"" << htmlEscape(caption) << "\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << kHeight << "\" fill=\"#ffffff\"/>\n";
    auto boxX = [](int i) { return kMargin + i * (kBoxW + kGap); };
    for (int i = 0; i < n; ++i) {
        // Position in the route gives the tier of a fat-tree route: hosts at the ends, then leaves, spines.
        const int tier = std::min(i, n - 1 - i);
        const bool host = tier == 0;
        o << "<text x=\"" << boxX(i) + kBoxW / 2 << "\" y=\"" << kTop - 8 << "\" " << kFont
          << " font-size=\"10\" text-anchor=\"middle\" fill=\"#5b6670\">" << htmlEscape(tierRole(tier)) << "</text>\n";
        o << "<rect x=\"" << boxX(i) << "\" y=\"" << kTop << "\" width=\"" << kBoxW << "\" height=\"" << kBoxH
          << "\" rx=\"4\" fill=\"" << (host ? "#eef3f8" : "#f4f1ea") << "\" stroke=\"#5b6670\" stroke-width=\"1\"/>\n";
        // "dgx001 mlx5_0" on two lines (host, device); each line shortened to fit the box. The
        // full names are in the hop table next to the drawing.
        const std::string& name = nodes[static_cast<std::size_t>(i)];
        const std::size_t space = name.find(' ');
        const bool twoLines = space != std::string::npos && name.size() > 16;
        const std::vector<std::string> lines =
            twoLines ? std::vector<std::string>{name.substr(0, space), name.substr(space + 1)} : std::vector<std::string>{name};
        for (std::size_t k = 0; k < lines.size(); ++k)
            o << "<text x=\"" << boxX(i) + kBoxW / 2 << "\" y=\"" << kTop + (twoLines ? 18 + 13 * static_cast<int>(k) : kBoxH / 2 + 4)
              << "\" " << kFont << " font-size=\"10\" text-anchor=\"middle\" fill=\"#1d2329\">" << htmlEscape(shorten(lines[k], 19))
              << "</text>\n";
    }
    const int y = kTop + kBoxH / 2;
    for (std::size_t h = 0; h < hops; ++h) {
        const PortRef& tx = path[2 * h];
        const PortRef& rx = path[2 * h + 1];
        const bool isBad = bad.size() >= 2 && same(tx, bad[0]) && same(rx, bad[1]);
        const std::string colour = isBad ? kBad : "#5b6670";
        const int x0 = boxX(static_cast<int>(h)) + kBoxW, x1 = x0 + kGap;
        o << "<line x1=\"" << x0 << "\" y1=\"" << y << "\" x2=\"" << x1 - 6 << "\" y2=\"" << y << "\" stroke=\"" << colour
          << "\" stroke-width=\"" << (isBad ? 4 : 1.5) << "\"/>\n";
        o << "<polygon points=\"" << x1 << ',' << y << ' ' << x1 - 8 << ',' << y - 5 << ' ' << x1 - 8 << ',' << y + 5 << "\" fill=\""
          << colour << "\"/>\n";
        // The transmitting port above the line at its start, the receiving port at its end.
        o << "<text x=\"" << x0 + 3 << "\" y=\"" << y - 6 << "\" " << kFont << " font-size=\"9\" fill=\"" << colour << "\">"
          << htmlEscape(shorten(portName(tx), 8)) << "</text>\n";
        o << "<text x=\"" << x1 - 3 << "\" y=\"" << y + 14 << "\" " << kFont << " font-size=\"9\" text-anchor=\"end\" fill=\""
          << colour << "\">" << htmlEscape(shorten(portName(rx), 8)) << "</text>\n";
        if (isBad) {
            const int cx = (x0 + x1) / 2;
            o << "<text x=\"" << cx << "\" y=\"" << kTop + kBoxH + 22 << "\" " << kFont
              << " font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"" << kBad << "\">bottleneck</text>\n";
            o << "<text x=\"" << cx << "\" y=\"" << kTop + kBoxH + 35 << "\" " << kFont
              << " font-size=\"9\" text-anchor=\"middle\" fill=\"" << kBad << "\">" << htmlEscape(badNote) << "</text>\n";
        }
    }
    o << "</svg>\n";
    return Diagram{o.str(), std::move(caption), width, kHeight};
}

} // namespace fabscope
