// The CLI's progress line, as a user at a terminal sees it: a report of a fabric names each
// what-if of its single points of stress on one line redrawn in place, never wider than the
// terminal, cleared before the command's own lines; a pipe or a log gets none of it.
#include "app/cli_progress.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace {

constexpr int kColumns = 100;

struct Run {
    int code = -1;
    QByteArray err;  // what the terminal (or the pipe) got
};

// fabscope with stderr on a pseudo-terminal of kColumns columns, read while it runs (a full
// terminal buffer would stop it).
Run onTerminal(const QStringList& args) {
    int master = -1, slave = -1;
    winsize size{};
    size.ws_col = kColumns;
    size.ws_row = 24;
    if (::openpty(&master, &slave, nullptr, nullptr, &size) != 0) qFatal("openpty failed");
    ::fcntl(master, F_SETFL, O_NONBLOCK);
    QProcess p;
    p.setChildProcessModifier([slave] { ::dup2(slave, STDERR_FILENO); });
    p.start(QStringLiteral(FABSCOPE_BIN), args);
    // A binary that cannot start never "finishes": fail at once, not at ctest's timeout.
    if (!p.waitForStarted()) qFatal("fabscope did not start: %s", qPrintable(p.errorString()));
    Run r;
    char buf[4096];
    auto drain = [&] {
        for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) r.err.append(buf, static_cast<int>(n));
    };
    QElapsedTimer waited;
    waited.start();
    while (p.state() != QProcess::NotRunning && !p.waitForFinished(20)) {
        drain();
        if (waited.elapsed() > 120000) qFatal("fabscope did not finish");
    }
    ::close(slave);
    drain();
    ::close(master);
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

Run onPipe(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(FABSCOPE_BIN), args);
    if (!p.waitForFinished(120000)) qFatal("fabscope did not finish");
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardError()};
}

// The characters a terminal shows for `bytes` (UTF-8 code points).
int columns(const QByteArray& bytes) { return static_cast<int>(QString::fromUtf8(bytes).toUcs4().size()); }

} // namespace

class TestCliProgress : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString demo = dir_.filePath(QStringLiteral("demo"));
        QCOMPARE(onPipe({QStringLiteral("demo"), QStringLiteral("--out"), demo}).code, 0);
        db_ = dir_.filePath(QStringLiteral("demo.sqlite"));
        QCOMPARE(onPipe({QStringLiteral("import"), QStringLiteral("--db"), db_, demo}).code, 0);
    }

    // The demo fabric has 4 top-tier switches and 8 leaves: each what-if is named, in order, the
    // percentage never goes back, no state is wider than the terminal, and the line is cleared
    // before "wrote".
    void reportOnATerminalNamesEachWhatIf() {
        const QString out = dir_.filePath(QStringLiteral("r.html"));
        const Run r = onTerminal({QStringLiteral("report"), QStringLiteral("--db"), db_, QStringLiteral("--out"), out});
        QCOMPARE(r.code, 0);
        const QList<QByteArray> states = r.err.split('\r');
        QByteArrayList stages;
        int lastPercent = -1;
        static const QRegularExpression progress(QStringLiteral("^report +(\\d+)%(?: \\[[# ]*\\])? (.*?) *$"));
        for (const QByteArray& s : states) {
            QVERIFY2(columns(s) < kColumns, s.constData());
            const auto m = progress.match(QString::fromUtf8(s));
            if (!m.hasMatch()) continue;
            const int percent = m.captured(1).toInt();
            QVERIFY2(percent >= lastPercent, s.constData());
            lastPercent = percent;
            stages.append(m.captured(2).toUtf8());
        }
        QVERIFY(lastPercent > 0);
        for (int k = 0; k <= 4; ++k)
            QVERIFY2(stages.contains("Single points of stress: what-if " + QByteArray::number(k) + " of 4 (top-tier switch)…"),
                     r.err.constData());
        for (int k = 0; k <= 8; ++k)
            QVERIFY2(stages.contains("Single points of stress: what-if " + QByteArray::number(k) + " of 8 (leaf uplink)…"),
                     r.err.constData());
        QVERIFY(stages.contains("Writing " + out.toUtf8() + "…"));
        // The last progress state is overwritten with spaces, then "wrote …" starts at column 0.
        const auto wrote = std::find_if(states.begin(), states.end(), [](const QByteArray& s) { return s.startsWith("wrote "); });
        QVERIFY2(wrote != states.end() && wrote != states.begin(), r.err.constData());
        QVERIFY2(std::prev(wrote)->trimmed().isEmpty(), std::prev(wrote)->constData());
        QVERIFY(columns(*std::prev(wrote)) >= columns(states.at(states.size() - 3)));
        QVERIFY(QFile::exists(out));
    }

    // An import names each file as it reads it, the topology first, and its bar never goes back.
    void importOnATerminalNamesEachFile() {
        const QString demo = dir_.filePath(QStringLiteral("demo"));
        const QString db = dir_.filePath(QStringLiteral("again.sqlite"));
        const Run r = onTerminal({QStringLiteral("import"), QStringLiteral("--db"), db, demo + QStringLiteral("/counters.csv"),
                                  demo + QStringLiteral("/topology.ibnetdiscover")});
        QCOMPARE(r.code, 0);
        QByteArrayList stages;
        int lastPercent = -1;
        static const QRegularExpression progress(QStringLiteral("^importing +(\\d+)%(?: \\[[# ]*\\])? ?(.*?) *$"));
        for (const QByteArray& s : r.err.split('\r')) {
            QVERIFY2(columns(s) < kColumns, s.constData());
            const auto m = progress.match(QString::fromUtf8(s));
            if (!m.hasMatch()) continue;
            QVERIFY2(m.captured(1).toInt() >= lastPercent, s.constData());
            lastPercent = m.captured(1).toInt();
            const QByteArray stage = m.captured(2).toUtf8();
            if (!stage.isEmpty() && (stages.isEmpty() || stages.back() != stage)) stages.append(stage);
        }
        const QByteArrayList expected{"file 1 of 2: topology.ibnetdiscover", "file 2 of 2: counters.csv"};
        QCOMPARE(stages, expected);
        QVERIFY2(r.err.contains("2 imported, 0 already in the store, 0 failed"), r.err.constData());
    }

    // A log or a pipe gets the command's lines alone: no carriage returns, no stages.
    void reportIntoAPipeSaysOnlyWhatItWrote() {
        const QString out = dir_.filePath(QStringLiteral("p.html"));
        const Run r = onPipe({QStringLiteral("report"), QStringLiteral("--db"), db_, QStringLiteral("--out"), out});
        QCOMPARE(r.code, 0);
        QVERIFY2(!r.err.contains('\r'), r.err.constData());
        QVERIFY2(!r.err.contains("what-if"), r.err.constData());
        QVERIFY2(r.err.startsWith("wrote " + out.toUtf8()), r.err.constData());
    }

    // A stage too long for the terminal loses its end, never half a character.
    void longStagesAreCutAtACharacter() {
        using fabscope::cli::fitToColumns;
        QCOMPARE(fitToColumns("what-if 12 of 48", 40), std::string("what-if 12 of 48"));
        QCOMPARE(fitToColumns("what-if 12 of 48", 16), std::string("what-if 12 of 48"));
        QCOMPARE(fitToColumns("what-if 12 of 48", 10), std::string("what-if 1…"));
        QCOMPARE(fitToColumns("Reading…", 8), std::string("Reading…"));
        QCOMPARE(fitToColumns("é…é…é…", 4), std::string("é…é…"));
        QCOMPARE(fitToColumns("é…é…é…", 5), std::string("é…é……"));
    }
};

QTEST_GUILESS_MAIN(TestCliProgress)
#include "tst_cli_progress.moc"
