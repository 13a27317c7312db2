#include "views/report/rich_text.h"

#include "core/report/escape.h"

#include <QPainter>
#include <QSvgRenderer>

#include <algorithm>
#include <sstream>

namespace fabscope {
namespace {

// Qt rich text has no per-cell borders or flexbox: tones become row tints, charts go two to a row.
const char* tint(Tone t) {
    switch (t) {
    case Tone::Critical: return "#fbe3e1";
    case Tone::Warning: return "#fdefd6";
    case Tone::Info: return "#e4ecf8";
    case Tone::Good: return "#e2f2e5";
    case Tone::None: return "";
    }
    return "";
}

std::string e(const std::string& s) { return htmlEscape(s); }

// SVG drawn at 4x so it stays sharp in print (~380 dpi at the size it is placed).
QImage svgImage(const std::string& svg, int width, int height) {
    QSvgRenderer r(QByteArray::fromStdString(svg));
    QImage img(width * 4, height * 4, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    r.render(&p);
    return img;
}

bool numeric(const Table& t, std::size_t i) { return i < t.numeric.size() && t.numeric[i]; }

// Wide tables are set a point smaller so their columns fit.
double tablePt(const Table& t) { return t.columns.size() > 8 ? 7 : 8; }

// Every row of a table is its own piece, so the columns are fixed once for all of them, in
// characters: each column gets at least its longest word (ids and numbers never wrap), then the
// rest of the line goes to the columns whose longest cell still wraps, in proportion.
std::vector<int> columnPercents(const Table& t) {
    const std::size_t n = t.columns.size();
    const double lineChars = 100 * 8 / tablePt(t);  // about an A4 text width
    std::vector<double> minW(n, 3), want(n, 3);
    auto measure = [&](std::size_t i, const std::string& text, double bold) {
        std::istringstream words(text);
        for (std::string word; words >> word;) minW[i] = std::max(minW[i], static_cast<double>(word.size()) * bold + 1.5);
        want[i] = std::max(want[i], std::min(60.0, static_cast<double>(text.size()) * bold + 1.5));
    };
    for (std::size_t i = 0; i < n; ++i) measure(i, t.columns[i], 1.15);  // headers are bold
    for (const auto& r : t.rows)
        for (std::size_t i = 0; i < r.cells.size() && i < n; ++i) measure(i, r.cells[i], 1);
    double sumMin = 0, sumWant = 0;
    for (std::size_t i = 0; i < n; ++i) want[i] = std::max(want[i], minW[i]), sumMin += minW[i], sumWant += want[i];
    std::vector<double> w = want;
    if (sumWant > lineChars && sumWant > sumMin) {
        const double share = std::max(0.0, lineChars - sumMin) / (sumWant - sumMin);
        for (std::size_t i = 0; i < n; ++i) w[i] = minW[i] + (want[i] - minW[i]) * share;
    }
    double sum = 0;
    for (double x : w) sum += x;
    std::vector<int> pct;
    for (double x : w) pct.push_back(std::max(2, static_cast<int>(x * 100 / sum)));
    return pct;
}

class Builder {
public:
    explicit Builder(double pageWidth) : pageWidth_(pageWidth) {}

    void table(const Table& t) {
        if (t.rows.empty()) {
            add("<p style=\"color:#5b6670\"><i>" + e(t.caption) + ": " + e(t.emptyText) + "</i></p>");
            return;
        }
        add("<p style=\"margin:0; font-size:3pt\">&nbsp;</p><p style=\"margin-top:0; margin-bottom:2px\"><b>" + e(t.caption) +
                "</b></p>",
            true);
        const std::vector<int> pct = columnPercents(t);
        const int total = isCompact(t) ? 70 : 100;
        auto openTable = [&] {
            return "<table width=\"" + std::to_string(total) +
                   "%\" cellspacing=\"0\" cellpadding=\"2\" border=\"0.5\" style=\"border-collapse:collapse; border-color:#c5ccd2; "
                   "border-style:solid; font-size:" + std::to_string(static_cast<int>(tablePt(t))) + "pt\"><tr>";
        };
        std::string head = openTable();
        for (std::size_t i = 0; i < t.columns.size(); ++i)
            head += "<th bgcolor=\"#e9edf1\" width=\"" + std::to_string(pct[i]) + "%\" align=\"" + (numeric(t, i) ? "right" : "left") +
                    "\">" + e(t.columns[i]) + "</th>";
        add(head + "</tr></table>", true);
        const int header = static_cast<int>(pieces_.size()) - 1;
        for (const auto& r : t.rows) {
            const std::string bg = tint(r.tone);
            std::string row = openTable();
            if (!bg.empty()) row.replace(row.size() - 4, 4, "<tr bgcolor=\"" + bg + "\">");
            for (std::size_t i = 0; i < t.columns.size(); ++i)
                row += "<td width=\"" + std::to_string(pct[i]) + "%\" align=\"" + (numeric(t, i) ? "right" : "left") + "\">" +
                       (i < r.cells.size() ? e(r.cells[i]) : std::string()) + "</td>";
            add(row + "</tr></table>");
            pieces_.back().header = header;
        }
        add("<p style=\"margin:0; font-size:4pt\">&nbsp;</p>");  // space after the table
    }

    void figures(const Figures& f) {
        constexpr std::size_t kPerRow = 4;
        std::string o = "<table width=\"100%\" cellspacing=\"4\" cellpadding=\"4\" border=\"0\">";
        for (std::size_t i = 0; i < f.items.size(); i += kPerRow) {
            o += "<tr>";
            for (std::size_t k = i; k < i + kPerRow; ++k) {
                if (k >= f.items.size()) {
                    o += "<td width=\"25%\"></td>";
                    continue;
                }
                const std::string bg = tint(k < f.tones.size() ? f.tones[k] : Tone::None);
                o += "<td width=\"25%\" bgcolor=\"" + (bg.empty() ? std::string("#f3f5f7") : bg) +
                     "\"><span style=\"color:#5b6670; font-size:7pt\">" + e(f.items[k].first) + "</span><br><b style=\"font-size:10pt\">" +
                     e(f.items[k].second) + "</b></td>";
            }
            o += "</tr>";
        }
        add(o + "</table>");
    }

    void definitions(const Definitions& d) {
        for (const auto& [term, meaning] : d.items)
            add("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"3\" border=\"0\"><tr><td width=\"22%\" valign=\"top\"><b>" + e(term) +
                "</b></td><td width=\"78%\">" + e(meaning) + "</td></tr></table>");
    }

    // Charts in pairs: a borderless two-column row, each image half the page wide.
    void charts(const std::vector<const Chart*>& charts) {
        const double w = (pageWidth_ - 16) / 2;
        for (std::size_t i = 0; i < charts.size(); i += 2) {
            RichPiece piece;
            std::string o = "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"2\" border=\"0\"><tr>";
            for (std::size_t k = i; k < i + 2; ++k) {
                o += "<td width=\"50%\" align=\"center\">";
                if (k < charts.size()) {
                    ChartSpec spec = charts[k]->spec;
                    spec.width = 380;  // narrower canvas, same 10 px type: readable at half a page
                    spec.height = 200;
                    const QString url = QStringLiteral("fabscope-chart://%1").arg(++imageCount_);
                    piece.images.emplace_back(url, svgImage(renderSvgChart(spec), spec.width, spec.height));
                    o += "<img src=\"" + url.toStdString() + "\" width=\"" + std::to_string(static_cast<int>(w)) + "\" height=\"" +
                         std::to_string(static_cast<int>(w * spec.height / spec.width)) + "\">";
                }
                o += "</td>";
            }
            piece.html = QString::fromStdString(o + "</tr></table>");
            pieces_.push_back(std::move(piece));
        }
    }

    void diagram(const Diagram& g) {
        const double w = std::min(pageWidth_, static_cast<double>(g.width));
        RichPiece piece;
        const QString url = QStringLiteral("fabscope-chart://%1").arg(++imageCount_);
        piece.images.emplace_back(url, svgImage(g.svg, g.width, g.height));
        piece.html = QString::fromStdString("<p style=\"margin-top:4px\"><img src=\"" + url.toStdString() + "\" width=\"" +
                                            std::to_string(static_cast<int>(w)) + "\" height=\"" +
                                            std::to_string(static_cast<int>(w * g.height / g.width)) +
                                            "\"><br><span style=\"color:#5b6670; font-size:7pt\">" + e(g.caption) + "</span></p>");
        pieces_.push_back(std::move(piece));
    }

    std::vector<RichPiece> build(const ReportDocument& d) {
        std::string head = "<h1 style=\"font-size:17pt; margin-bottom:4px\">" + e(d.title) +
                           "</h1><table cellspacing=\"0\" cellpadding=\"1\" border=\"0\">";
        for (const auto& [k, v] : d.meta) head += "<tr><td style=\"color:#5b6670\">" + e(k) + "&nbsp;&nbsp;</td><td>" + e(v) + "</td></tr>";
        add(head + "</table><hr>");
        for (const auto& s : d.sections) {
            // A piece's first block loses its top margin in Qt: the space above is an empty line.
            add("<p style=\"margin:0; font-size:7pt\">&nbsp;</p><h2 style=\"font-size:12.5pt; margin-top:0; margin-bottom:4px; "
                "color:#1d2329\">" + e(s.title) + "</h2>", true);
            std::vector<const Chart*> pending;
            for (const auto& b : s.blocks) {
                if (const auto* c = std::get_if<Chart>(&b)) {
                    pending.push_back(c);
                    continue;
                }
                if (!pending.empty()) charts(pending), pending.clear();
                if (const auto* p = std::get_if<Paragraph>(&b))
                    add(std::string("<p") + (p->note ? " style=\"background-color:#fff6e6\"" : "") + ">" + e(p->text) + "</p>");
                else if (const auto* f = std::get_if<Figures>(&b)) figures(*f);
                else if (const auto* df = std::get_if<Definitions>(&b)) definitions(*df);
                else if (const auto* t = std::get_if<Table>(&b)) table(*t);
                else if (const auto* g = std::get_if<Diagram>(&b)) diagram(*g);
            }
            if (!pending.empty()) charts(pending);
        }
        return std::move(pieces_);
    }

private:
    void add(const std::string& html, bool keepWithNext = false) {
        RichPiece p;
        p.html = QString::fromStdString(html);
        p.keepWithNext = keepWithNext;
        pieces_.push_back(std::move(p));
    }

    double pageWidth_;
    std::vector<RichPiece> pieces_;
    int imageCount_ = 0;
};

} // namespace

std::vector<RichPiece> buildRichPieces(const ReportDocument& doc, double pageWidthPx) { return Builder(pageWidthPx).build(doc); }

} // namespace fabscope
