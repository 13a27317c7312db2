#pragma once
// Times as every view writes them: UTC, from UNIX seconds (rounded to the millisecond, so a
// sample at 12.9996 s reads 12:00:13, not :12).
#include <QDateTime>
#include <QString>

#include <cmath>

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

} // namespace fabscope
