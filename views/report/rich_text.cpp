#include "views/report/rich_text.h"

#include "core/report/escape.h"

#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QUrl>

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

// Charts are drawn at 4x so they stay sharp in print (~380 dpi at the size they are placed).
QImage chartImage(const ChartSpec& spec) {
    const std::string svg = renderSvgChart(spec);
    QSvgRenderer r(QByteArray::fromStdString(svg));
    QImage img(spec.width * 4, spec.height * 4, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    r.render(&p);
    return img;
}

class Builder {
public:
    Builder(QTextDocument& doc, double pageWidth) : doc_(doc), pageWidth_(pageWidth) {}

    void table(const Table& t) {
        if (t.rows.empty()) {
            o_ << "<p style=\"color:#5b6670\"><i>" << e(t.caption) << ": " << e(t.emptyText) << "</i></p>\n";
            return;
        }
        o_ << "<p style=\"margin-top:6px; margin-bottom:2px\"><b>" << e(t.caption) << "</b></p>\n"
           << "<table width=\"" << (isCompact(t) ? "60%" : "100%") << "\" cellspacing=\"0\" cellpadding=\"2\" border=\"0.5\" "
              "style=\"border-collapse:collapse; border-color:#c5ccd2; border-style:solid\">\n<thead><tr>";
        for (std::size_t i = 0; i < t.columns.size(); ++i)
            o_ << "<th bgcolor=\"#e9edf1\" align=\"" << (numeric(t, i) ? "right" : "left") << "\">" << e(t.columns[i]) << "</th>";
        o_ << "</tr></thead>\n";
        for (const auto& r : t.rows) {
            const std::string bg = tint(r.tone);
            o_ << "<tr" << (bg.empty() ? "" : " bgcolor=\"" + bg + "\"") << ">";
            for (std::size_t i = 0; i < r.cells.size(); ++i)
                o_ << "<td align=\"" << (numeric(t, i) ? "right" : "left") << "\">" << e(r.cells[i]) << "</td>";
            o_ << "</tr>\n";
        }
        o_ << "</table>\n";
    }

    void figures(const Figures& f) {
        constexpr std::size_t kPerRow = 4;
        o_ << "<table width=\"100%\" cellspacing=\"4\" cellpadding=\"4\" border=\"0\">\n";
        for (std::size_t i = 0; i < f.items.size(); i += kPerRow) {
            o_ << "<tr>";
            for (std::size_t k = i; k < i + kPerRow; ++k) {
                if (k >= f.items.size()) {
                    o_ << "<td width=\"25%\"></td>";
                    continue;
                }
                const std::string bg = tint(k < f.tones.size() ? f.tones[k] : Tone::None);
                o_ << "<td width=\"25%\" bgcolor=\"" << (bg.empty() ? "#f3f5f7" : bg) << "\"><span style=\"color:#5b6670; font-size:7pt\">"
                   << e(f.items[k].first) << "</span><br><b style=\"font-size:10pt\">" << e(f.items[k].second) << "</b></td>";
            }
            o_ << "</tr>\n";
        }
        o_ << "</table>\n";
    }

    void definitions(const Definitions& d) {
        o_ << "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"3\" border=\"0\">\n";
        for (const auto& [term, meaning] : d.items)
            o_ << "<tr><td width=\"22%\" valign=\"top\"><b>" << e(term) << "</b></td><td>" << e(meaning) << "</td></tr>\n";
        o_ << "</table>\n";
    }

    // Charts in pairs: a borderless two-column table, each image half the page wide.
    void charts(const std::vector<const Chart*>& charts) {
        const double w = (pageWidth_ - 16) / 2;
        o_ << "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"2\" border=\"0\">\n";
        for (std::size_t i = 0; i < charts.size(); i += 2) {
            o_ << "<tr>";
            for (std::size_t k = i; k < i + 2; ++k) {
                o_ << "<td width=\"50%\" align=\"center\">";
                if (k < charts.size()) {
                    ChartSpec spec = charts[k]->spec;
                    spec.width = 380;  // narrower canvas, same 10 px type: readable at half a page
                    spec.height = 200;
                    const QString url = QStringLiteral("fabscope-chart://%1").arg(++chartCount_);
                    doc_.addResource(QTextDocument::ImageResource, QUrl(url), chartImage(spec));
                    o_ << "<img src=\"" << url.toStdString() << "\" width=\"" << static_cast<int>(w) << "\" height=\""
                       << static_cast<int>(w * spec.height / spec.width) << "\">";
                }
                o_ << "</td>";
            }
            o_ << "</tr>\n";
        }
        o_ << "</table>\n";
    }

    void build(const ReportDocument& d) {
        o_ << "<html><body>\n<h1 style=\"font-size:17pt; margin-bottom:4px\">" << e(d.title) << "</h1>\n"
           << "<table cellspacing=\"0\" cellpadding=\"1\" border=\"0\">\n";
        for (const auto& [k, v] : d.meta)
            o_ << "<tr><td style=\"color:#5b6670\">" << e(k) << "&nbsp;&nbsp;</td><td>" << e(v) << "</td></tr>\n";
        o_ << "</table>\n<hr>\n";
        for (const auto& s : d.sections) {
            o_ << "<h2 style=\"font-size:12.5pt; margin-top:14px; margin-bottom:4px; color:#1d2329\">" << e(s.title) << "</h2>\n";
            std::vector<const Chart*> pending;
            for (const auto& b : s.blocks) {
                if (const auto* c = std::get_if<Chart>(&b)) {
                    pending.push_back(c);
                    continue;
                }
                if (!pending.empty()) charts(pending), pending.clear();
                if (const auto* p = std::get_if<Paragraph>(&b))
                    o_ << "<p" << (p->note ? " style=\"background-color:#fff6e6\"" : "") << ">" << e(p->text) << "</p>\n";
                else if (const auto* f = std::get_if<Figures>(&b)) figures(*f);
                else if (const auto* df = std::get_if<Definitions>(&b)) definitions(*df);
                else if (const auto* t = std::get_if<Table>(&b)) table(*t);
            }
            if (!pending.empty()) charts(pending);
        }
        o_ << "</body></html>\n";
        doc_.setHtml(QString::fromStdString(o_.str()));
    }

private:
    static bool numeric(const Table& t, std::size_t i) { return i < t.numeric.size() && t.numeric[i]; }

    QTextDocument& doc_;
    double pageWidth_;
    std::ostringstream o_;
    int chartCount_ = 0;
};

} // namespace

void buildRichText(const ReportDocument& doc, QTextDocument& out, double pageWidthPx) {
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(8);
    out.setDefaultFont(font);
    out.setDocumentMargin(0);
    Builder(out, pageWidthPx).build(doc);
}

} // namespace fabscope
