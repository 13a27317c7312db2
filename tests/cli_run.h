#pragma once
// Runs the built `fabscope` as a script would (FABSCOPE_BIN) and keeps its exit code, stdout
// and stderr; the CLI tests share it.
#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <QtGlobal>

namespace clitest {

struct Run {
    int code = -1;  // -1 when it crashed
    QByteArray out, err;
};

inline Run runCli(const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(QStringLiteral(FABSCOPE_BIN), args);
    if (!p.waitForFinished(timeoutMs)) qFatal("fabscope did not finish");
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace clitest
