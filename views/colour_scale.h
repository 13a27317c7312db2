#pragma once
// Colour scales of the link metrics, with the legend (name, unit, ticks) drawn the same way by the
// fabric view and the heatmap. Utilisation is linear 0-100 %, throughput linear 0-400 Gb/s;
// XmitWait and errors are log scales, with zero in a colour of its own.
#include "core/timeseries/link_series.h"

#include <QColor>
#include <QString>

#include <array>

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
    // Log scales (XmitWait, errors): exactly zero, drawn apart from the smallest non-zero value.
    [[nodiscard]] static QRgb zero() { return qRgb(226, 242, 226); }
    // "93 %", "1.2k ticks/s", "0.05 errors/s"
    [[nodiscard]] QString format(double value) const;
    [[nodiscard]] QString unit() const;
    [[nodiscard]] QString name() const;
    // Paints a legend box (title with unit, gradient, ticks, "no data" swatch) inside `area`.
    void paintLegend(QPainter& p, const QRect& area) const;
    // Position 0..1 on the scale.
    [[nodiscard]] double position(float value) const;

private:
    LinkMetric metric_;
    double lo_ = 0, hi_ = 100;  // linear: value range; log: log10 range
    bool log_ = false;
    std::array<QRgb, 256> lut_{};
};

} // namespace fabscope
