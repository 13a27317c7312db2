#pragma once
// Screenshots for a person to look at: written only when FABSCOPE_SCREENSHOTS names a folder
// (FABSCOPE_SCREENSHOTS=/tmp/shots ctest ...), so an ordinary test run writes nothing outside its
// temporary directories. Returns false only when a requested screenshot could not be written.
#include <QDir>
#include <QPixmap>
#include <QString>

inline bool saveScreenshot(const QPixmap& shot, const QString& name) {
    const QString dir = qEnvironmentVariable("FABSCOPE_SCREENSHOTS");
    if (dir.isEmpty()) return true;
    QDir().mkpath(dir);
    return shot.save(dir + QLatin1Char('/') + name);
}
