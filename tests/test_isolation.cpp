// Linked into every test executable: the tests never read or write the user's real settings or
// home. Before the test's QCoreApplication is used, HOME, the XDG directories and QSettings' user
// paths point into one temporary directory that is removed when the process ends.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

QTemporaryDir& isolatedHome() {
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/fabscope-test-home-XXXXXX"));
    return dir;
}

void isolateFromTheUsersFiles() {
    const QString home = isolatedHome().path();
    qputenv("HOME", home.toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", (home + QStringLiteral("/config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", (home + QStringLiteral("/data")).toLocal8Bit());
    qputenv("XDG_CACHE_HOME", (home + QStringLiteral("/cache")).toLocal8Bit());
    qputenv("XDG_STATE_HOME", (home + QStringLiteral("/state")).toLocal8Bit());
    const QString runtime = home + QStringLiteral("/runtime");  // Qt wants it private (0700)
    if (QDir().mkpath(runtime))
        QFile::setPermissions(runtime, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    qputenv("XDG_RUNTIME_DIR", runtime.toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, home + QStringLiteral("/settings"));
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, home + QStringLiteral("/settings"));
}

}  // namespace

Q_COREAPP_STARTUP_FUNCTION(isolateFromTheUsersFiles)
