#pragma once
// Colour scales of the link metrics, with the legend (name, unit, ticks) drawn the same way by the
// fabric view and the heatmap. Utilisation and the shares of time (XmitWait, PFC pauses) are
// linear 0-100 %, throughput linear 0-400 Gb/s; errors and ECN/CNP are log scales. On every
// scale but utilisation and throughput exactly zero has a colour of its own ("clean"), apart from
// the smallest non-zero value.
#include "core/timeseries/link_series.h"

#include <QColor>
#include <QString>

#include <array>

class QFontMetrics;
class QPainter;
class QRect;

namespace fabscope {

class ColourScale {
public:
    explicit ColourScale(LinkMetric metric = LinkMetric::UtilMax);
    [[nodiscard]] LinkMetric metric() const { return metric_; }
    // Colour of a value (NaN: the "no data" grey).
    [[nodiscard]] QRgb rgb(float value) const;
    [[nodiscard]] static QRgb noData() { return qRgb(185, 188, 194); }
    // Exactly zero (errors, shares of time, ECN/CNP), drawn apart from the smallest non-zero value.
    [[nodiscard]] static QRgb zero() { return qRgb(226, 242, 226); }
    [[nodiscard]] bool zeroApart() const { return zeroApart_; }
    // "93 %", "61 % of time", "0.05 errors/s"
    [[nodiscard]] QString format(double value) const;
    [[nodiscard]] QString unit() const;
    [[nodiscard]] QString name() const;
    // A name short enough for a legend or a header line that still says the direction:
    // "PFC pause share, max direction" for "PFC pause share (max of both directions)".
    [[nodiscard]] static QString shortName(LinkMetric m);
    // The legend's title in `width` pixels, its unit always shown: the full name when it fits,
    // else the short name (elided only if even that does not fit).
    [[nodiscard]] QString legendTitle(const QFontMetrics& fm, int width) const;
    // The title as paintLegend draws it inside `area`.
    [[nodiscard]] QString legendTitleIn(const QFontMetrics& fm, const QRect& area) const;
    // The legend's tooltip: the full name with its unit, the scale's range and what grey (and,
    // where zero has its own colour, pale green) mean.
    [[nodiscard]] QString legendTooltip() const;
    // Paints a legend box (title with unit, gradient, ticks, "none" and "zero" swatches) inside `area`.
    void paintLegend(QPainter& p, const QRect& area) const;
    // Position 0..1 on the scale.
    [[nodiscard]] double position(float value) const;

private:
    LinkMetric metric_;
    double lo_ = 0, hi_ = 100;  // linear: value range; log: log10 range
    bool log_ = false;
    bool zeroApart_ = false;
    std::array<QRgb, 256> lut_{};
};

} // namespace fabscope
