#include "views/colour_scale.h"

#include <QLinearGradient>
#include <QObject>
#include <QPainter>

#include <cmath>

namespace fabscope {
namespace {

// A perceptually ordered ramp from calm blue-green through yellow to red (hot).
QColor ramp(double x) {
    static const QColor stops[] = {QColor(40, 110, 180), QColor(50, 165, 140), QColor(140, 200, 70),
                                   QColor(250, 210, 50), QColor(245, 130, 40), QColor(210, 30, 40)};
    constexpr int n = 5;
    x = std::clamp(x, 0.0, 1.0) * n;
    const int i = std::min(n - 1, static_cast<int>(x));
    const double f = x - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor(static_cast<int>(a.red() + (b.red() - a.red()) * f), static_cast<int>(a.green() + (b.green() - a.green()) * f),
                  static_cast<int>(a.blue() + (b.blue() - a.blue()) * f));
}

QString compact(double v) {
    const double a = std::abs(v);
    if (a >= 1e9) return QString::number(v / 1e9, 'g', 3) + QLatin1Char('G');
    if (a >= 1e6) return QString::number(v / 1e6, 'g', 3) + QLatin1Char('M');
    if (a >= 1e3) return QString::number(v / 1e3, 'g', 3) + QLatin1Char('k');
    if (a >= 10 || a == 0) return QString::number(std::round(v));
    return QString::number(v, 'g', 2);
}

} // namespace

ColourScale::ColourScale(LinkMetric metric) : metric_(metric) {
    switch (metric) {
    case LinkMetric::UtilMax:
    case LinkMetric::UtilUp:
    case LinkMetric::UtilDown: lo_ = 0, hi_ = 100, log_ = false; break;
    case LinkMetric::XmitWait:
    case LinkMetric::PfcPauseMax:
    case LinkMetric::PfcPauseUp:
    case LinkMetric::PfcPauseDown: lo_ = 0, hi_ = 100, log_ = false, zeroApart_ = true; break;  // % of time
    case LinkMetric::Errors: lo_ = -2, hi_ = 3, log_ = true, zeroApart_ = true; break;   // 0.01 .. 1000 errors/s
    case LinkMetric::EcnCnp: lo_ = 0, hi_ = 6, log_ = true, zeroApart_ = true; break;    // 1 .. 1M packets/s
    case LinkMetric::ThroughputMax:
    case LinkMetric::ThroughputUp:
    case LinkMetric::ThroughputDown: lo_ = 0, hi_ = 400, log_ = false; break;  // Gb/s, to 400G
    }
    for (int i = 0; i < 256; ++i) lut_[static_cast<std::size_t>(i)] = ramp(i / 255.0).rgb();
}

double ColourScale::position(float value) const {
    double v = value;
    if (log_) v = v > 0 ? std::log10(v) : lo_;
    return std::clamp((v - lo_) / (hi_ - lo_), 0.0, 1.0);
}

QRgb ColourScale::rgb(float value) const {
    if (std::isnan(value)) return noData();
    if (zeroApart_ && value == 0) return zero();  // a clean link must not look like a barely erroring one
    return lut_[static_cast<std::size_t>(position(value) * 255.0 + 0.5)];
}

QString ColourScale::unit() const { return QString::fromUtf8(metricUnit(metric_).data()); }
QString ColourScale::name() const { return QString::fromUtf8(metricName(metric_).data()); }

QString ColourScale::format(double value) const {
    if (std::isnan(value)) return QObject::tr("no data");
    if (!log_) {
        const int decimals = value == 0 && zeroApart_ ? 0 : std::abs(value) < 1 && value != 0 ? 2 : value < 10 ? 1 : 0;
        return QString::number(value, 'f', decimals) + QLatin1Char(' ') + unit();
    }
    return compact(value) + QLatin1Char(' ') + unit();
}

QString ColourScale::shortName(LinkMetric m) {
    switch (m) {
    case LinkMetric::UtilMax: return QObject::tr("Utilisation, max direction");
    case LinkMetric::UtilUp: return QObject::tr("Utilisation up");
    case LinkMetric::UtilDown: return QObject::tr("Utilisation down");
    case LinkMetric::XmitWait: return QObject::tr("XmitWait share");
    case LinkMetric::Errors: return QObject::tr("Errors");
    case LinkMetric::ThroughputMax: return QObject::tr("Throughput, max direction");
    case LinkMetric::ThroughputUp: return QObject::tr("Throughput up");
    case LinkMetric::ThroughputDown: return QObject::tr("Throughput down");
    case LinkMetric::PfcPauseMax: return QObject::tr("PFC pause share, max direction");
    case LinkMetric::PfcPauseUp: return QObject::tr("PFC pause share up");
    case LinkMetric::PfcPauseDown: return QObject::tr("PFC pause share down");
    case LinkMetric::EcnCnp: return QObject::tr("ECN marks / CNPs");
    }
    return {};
}

QString ColourScale::legendTitle(const QFontMetrics& fm, int width) const {
    const QString tail = QStringLiteral(" (") + unit() + QLatin1Char(')');
    const int room = std::max(0, width - fm.horizontalAdvance(tail));
    // Elided at the end, "PFC pause share (max o…" lost the direction the user picked.
    if (fm.horizontalAdvance(name()) <= room) return name() + tail;
    return fm.elidedText(shortName(metric_), Qt::ElideRight, room) + tail;
}

QString ColourScale::legendTooltip() const {
    const QString range = log_ ? QObject::tr("log scale, %1 to %2 %3").arg(compact(std::pow(10.0, lo_)), compact(std::pow(10.0, hi_)), unit())
                               : QObject::tr("linear, %1 to %2 %3").arg(lo_).arg(hi_).arg(unit());
    QString text = QObject::tr("<b>%1</b> (%2)<br>%3; above the top, the top colour<br>grey: no data")
                       .arg(name().toHtmlEscaped(), unit().toHtmlEscaped(), range.toHtmlEscaped());
    if (zeroApart_) text += QObject::tr("<br>pale green: exactly zero (counted, clean)");
    return text;
}

namespace {
constexpr int kLegendPad = 6;
} // namespace

QString ColourScale::legendTitleIn(const QFontMetrics& fm, const QRect& area) const {
    return legendTitle(fm, area.width() - 2 * kLegendPad);
}

void ColourScale::paintLegend(QPainter& p, const QRect& area) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(area, QColor(255, 255, 255, 225));
    p.setPen(QColor(120, 120, 120));
    p.drawRect(area.adjusted(0, 0, -1, -1));
    const int pad = kLegendPad;
    const QFontMetrics fm = p.fontMetrics();
    p.setPen(QColor(20, 20, 20));
    p.drawText(area.left() + pad, area.top() + pad + fm.ascent(), legendTitleIn(fm, area));
    // The swatches right of the bar: "none", and "zero" where zero has its own colour. They sat on
    // the title's line before, which left the title too little room for its direction.
    const QString noneLabel = QObject::tr("none"), zeroLabel = QObject::tr("zero");
    const int swatches = 10 + 15 + fm.horizontalAdvance(noneLabel) + (zeroApart_ ? 8 + 15 + fm.horizontalAdvance(zeroLabel) : 0);
    const QRect bar(area.left() + pad, area.top() + 2 * pad + fm.height(), std::max(40, area.width() - 2 * pad - swatches), 12);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 10; ++i) g.setColorAt(i / 10.0, QColor(lut_[static_cast<std::size_t>(i * 255 / 10)]));
    p.fillRect(bar, g);
    const QRect none(bar.right() + 10, bar.top(), 12, 12);
    p.fillRect(none, QColor(noData()));
    p.drawText(none.right() + 3, bar.bottom(), noneLabel);
    if (zeroApart_) {  // exact zero has its own swatch, after "none"
        const QRect z(none.right() + 3 + fm.horizontalAdvance(noneLabel) + 8, bar.top(), 12, 12);
        p.fillRect(z, QColor(zero()));
        p.drawText(z.right() + 3, bar.bottom(), zeroLabel);
    }
    const int ty = bar.bottom() + 4 + fm.ascent();
    for (int i = 0; i <= 4; ++i) {
        const double f = i / 4.0;
        const double v = log_ ? std::pow(10.0, lo_ + f * (hi_ - lo_)) : lo_ + f * (hi_ - lo_);
        const QString label = log_ ? compact(v) : QString::number(v, 'f', 0);
        const int x = bar.left() + static_cast<int>(f * bar.width());
        p.drawLine(x, bar.bottom(), x, bar.bottom() + 3);
        const int w = fm.horizontalAdvance(label);
        p.drawText(std::clamp(x - w / 2, area.left() + 2, area.right() - w - 2), ty, label);
    }
    p.restore();
}

} // namespace fabscope
