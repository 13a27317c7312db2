#pragma once
// Tests that drive an outside tool (poppler's pdfinfo, Prometheus, dpkg-deb): on a developer's
// machine without the tool the check is skipped with the package to install; in CI (CI=true),
// where ./build.sh test has installed every such package, a missing tool fails the test instead,
// so a CI run never skips silently.
#include <QStandardPaths>
#include <QtTest>

namespace fabscope::test {

inline bool inCi() { return qEnvironmentVariable("CI") == QLatin1String("true"); }

}  // namespace fabscope::test

// Use inside a test function: FABSCOPE_REQUIRE_TOOL("pdfinfo", "poppler-utils");
#define FABSCOPE_REQUIRE_TOOL(tool, package)                                                          \
    do {                                                                                              \
        if (QStandardPaths::findExecutable(QStringLiteral(tool)).isEmpty()) {                         \
            const char* why = tool " not installed (Debian package " package                          \
                              "; ./build.sh test installs it)";                                       \
            if (fabscope::test::inCi()) QFAIL(why);                                                   \
            QSKIP(why);                                                                               \
        }                                                                                             \
    } while (false)
