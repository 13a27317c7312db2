#pragma once
// Times as every view writes them: UTC, from UNIX seconds rounded to the whole millisecond (one
// rounding everywhere, so a table and a chart never name a sample a second apart).
#include <QDateTime>
#include <QString>

#include <cmath>
#include <vector>

namespace fabscope {

inline QString utcText(double unixSeconds, const QString& format = QStringLiteral("yyyy-MM-dd HH:mm:ss")) {
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(unixSeconds * 1000)), Qt::UTC).toString(format);
}

// Whether [t0, t1] crosses a midnight (UTC): a time axis then labels its ticks with the day.
inline bool crossesDays(double t0, double t1) {
    const QString day = QStringLiteral("yyyyMMdd");
    return utcText(t0, day) != utcText(t1, day);
}

// The date a time axis' title gives: "2023-11-14", or "2023-11-14 – 2023-11-15" across days.
inline QString utcDates(double t0, double t1) {
    const QString day = QStringLiteral("yyyy-MM-dd");
    return crossesDays(t0, t1) ? QStringLiteral("%1 – %2").arg(utcText(t0, day), utcText(t1, day)) : utcText(t0, day);
}

// A span as text: "2023-11-14 22:20:00 – 22:21:40"; the end's date is written too when the span
// crosses a midnight, so a window from 23:59 to 00:01 never reads as running backwards.
inline QString utcSpanText(double t0, double t1) {
    return QStringLiteral("%1 – %2").arg(utcText(t0), crossesDays(t0, t1) ? utcText(t1) : utcText(t1, QStringLiteral("HH:mm:ss")));
}

struct TimeTick {
    double t = 0;  // UNIX seconds
    QString label;
};

// Ticks for a time axis over [t0, t1] with at most `maxTicks` labels: at multiples of a round step
// since the epoch (round UTC times: the epoch is midnight UTC), fine enough that a narrow axis still
// gets three or more (3 and 4 min between 2 and 5; 20 and 40 min between 15 and 60). Labelled
// "HH:mm:ss" below a minute's step, "HH:mm" from a minute, the day before them across midnight.
inline std::vector<TimeTick> timeTicks(double t0, double t1, int maxTicks) {
    static constexpr double steps[] = {1,    2,    5,    10,   15,    30,    60,    120,   180,   240,    300,
                                       600,  900,  1200, 1800, 2400,  3600,  7200,  10800, 21600, 43200, 86400, 172800, 604800};
    const double span = t1 - t0;
    double step = std::ceil(span / maxTicks / 604800) * 604800;
    for (double s : steps)
        if (span / s <= maxTicks) {
            step = s;
            break;
        }
    const QString clock = step < 60 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm");
    const QString format = crossesDays(t0, t1) ? QStringLiteral("MM-dd ") + clock : clock;
    std::vector<TimeTick> out;
    for (double t = std::ceil(t0 / step) * step; t <= t1 && step > 0; t += step) {
        QString label = utcText(t, format);
        if (out.empty() || out.back().label != label) out.push_back({t, std::move(label)});
    }
    return out;
}

} // namespace fabscope
