// The command line as a script or CI uses it: exit codes, stdout JSON, stderr messages.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run fabscope(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(FABSCOPE_BIN), args);
    if (!p.waitForFinished(120000)) qFatal("fabscope did not finish");
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString p(const QString& name) { return dir_.filePath(name); }

private Q_SLOTS:
    // An ibdiagnet run's folder: info counts the port modules it read (one flagged) and its own
    // warnings, in JSON and in text, and dates the counters.
    void infoCountsIbdiagnetsModulesAndWarnings() {
        const QString db = p(QStringLiteral("run.sqlite"));
        QCOMPARE(fabscope({QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral(FABSCOPE_TEST_DATA "/ibdiagnet2-run")}).code, 0);
        const Run info = fabscope({QStringLiteral("info"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        QCOMPARE(info.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(j[QStringLiteral("modules")].toObject()[QStringLiteral("read")].toInt(), 4);
        QCOMPARE(j[QStringLiteral("modules")].toObject()[QStringLiteral("flagged")].toInt(), 1);
        QCOMPARE(j[QStringLiteral("ibdiagnet")].toObject()[QStringLiteral("warnings")].toInt(), 1);
        QCOMPARE(j[QStringLiteral("ibdiagnet")].toObject()[QStringLiteral("errors")].toInt(), 0);
        const Run text = fabscope({QStringLiteral("info"), QStringLiteral("--db"), db});
        QVERIFY2(text.out.contains("modules    4 read by ibdiagnet (1 with flags set)\n"), text.out.constData());
        QVERIFY2(text.out.contains("ibdiagnet  1 warning, 0 errors\n"), text.out.constData());
        // The counters' span in UTC with its date (PM_INFO, then PM_DELTA after the logged 2 s pause).
        QVERIFY2(text.out.contains("time       2025-03-31 23:43:18 UTC .. 2025-03-31 23:43:20 UTC (2 s; UNIX 1743464598 .. 1743464600)\n"),
                 text.out.constData());
    }

    // Two idle switches' PFC captures are the same bytes: info says when each was imported and
    // which switch each path named, so the two lines of one SHA-256 say why both are there. A
    // capture whose `# node:` line names its switch has no name from its path.
    void infoNamesWhatEachPathGave() {
        const QByteArray rule = "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n";
        const QByteArray rows = "  Ethernet0       0       0       0       0       0       0       0     N/A\n";
        const QByteArray idle = "1700000000\nadmin@sonic:~$ show pfc counters\n"
                                "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + rule + rows + "\n" +
                                "    Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + rule + rows + "\n";
        QStringList files;
        for (const auto& [name, body] : {std::pair{"leaf01.pfc.txt", idle}, std::pair{"leaf02.pfc.txt", idle},
                                         std::pair{"capture.pfc.txt", "# node: spine07\n" + idle}}) {
            QFile f(p(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(body);
            files << f.fileName();
        }
        const QString db = p(QStringLiteral("names.sqlite"));
        QCOMPARE(fabscope(QStringList{QStringLiteral("import"), QStringLiteral("--db"), db} + files).code, 0);
        const Run text = fabscope({QStringLiteral("info"), QStringLiteral("--db"), db});
        QCOMPARE(text.code, 0);
        const QString out = QString::fromUtf8(text.out);
        const QString when = QStringLiteral("\\t\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC");
        for (const char* leaf : {"leaf01", "leaf02"}) {
            const QRegularExpression line(QStringLiteral("\\n  sonic-pfc\\t\\d+ rows\\t[^\\t]*/%1\\.pfc\\.txt%2\\t\\(named by its path: %1\\)\\n")
                                              .arg(QString::fromLatin1(leaf), when));
            QVERIFY2(line.match(out).hasMatch(), qPrintable(out));
        }
        const QRegularExpression named(QStringLiteral("\\n  sonic-pfc\\t\\d+ rows\\t[^\\t]*/capture\\.pfc\\.txt%1\\n").arg(when));
        QVERIFY2(named.match(out).hasMatch(), qPrintable(out));
    }

    void demoImportInfoJson() {
        QCOMPARE(fabscope({QStringLiteral("demo"), QStringLiteral("--out"), p(QStringLiteral("d"))}).code, 0);
        const Run imp = fabscope({QStringLiteral("import"), QStringLiteral("--db"), p(QStringLiteral("s.sqlite")), p(QStringLiteral("d"))});
        QCOMPARE(imp.code, 0);
        QVERIFY(imp.out.isEmpty());  // progress and messages go to stderr
        const Run info = fabscope({QStringLiteral("info"), QStringLiteral("--db"), p(QStringLiteral("s.sqlite")), QStringLiteral("--json")});
        QCOMPARE(info.code, 0);
        QJsonParseError err{};
        const QJsonObject j = QJsonDocument::fromJson(info.out, &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        // The demo is 4 spines + 8 leaves, 8 hosts per leaf: 64 host links + 32 uplinks.
        QCOMPARE(j[QStringLiteral("nodes")].toObject()[QStringLiteral("switch")].toInt(), 12);
        QCOMPARE(j[QStringLiteral("nodes")].toObject()[QStringLiteral("ca")].toInt(), 64);
        QCOMPARE(j[QStringLiteral("nodes")].toObject()[QStringLiteral("router")].toInt(), 0);
        QCOMPARE(j[QStringLiteral("links")].toInt(), 96);
        QCOMPARE(j[QStringLiteral("ports")].toInt(), 192);
        // 4 counters on each of the 128 switch ports that have a link.
        QCOMPARE(j[QStringLiteral("series")].toInt(), 4 * 128);
        QCOMPARE(j[QStringLiteral("samples")].toInt(), 4 * 128 * 60);
        QCOMPARE(j[QStringLiteral("unmapped_series")].toInt(), 0);
        QCOMPARE(j[QStringLiteral("jobs")].toInt(), 0);
        QCOMPARE(j[QStringLiteral("time")].toObject()[QStringLiteral("start")].toInteger(), 1700000000);
        QCOMPARE(j[QStringLiteral("time")].toObject()[QStringLiteral("end")].toInteger(), 1700000000 + 59 * 10);
        QCOMPARE(j[QStringLiteral("snapshots")].toArray().size(), 1);
        const QJsonArray imports = j[QStringLiteral("imports")].toArray();
        QCOMPARE(imports.size(), 2);
        for (const auto& i : imports) {
            QCOMPARE(i.toObject()[QStringLiteral("sha256")].toString().size(), 64);
            QVERIFY(i.toObject()[QStringLiteral("rows")].toInt() > 0);
        }

        // Again: nothing added, and it says so.
        const Run again = fabscope({QStringLiteral("import"), QStringLiteral("--db"), p(QStringLiteral("s.sqlite")), p(QStringLiteral("d"))});
        QCOMPARE(again.code, 0);
        QVERIFY(again.err.contains("already imported"));
        const Run info2 = fabscope({QStringLiteral("info"), QStringLiteral("--db"), p(QStringLiteral("s.sqlite")), QStringLiteral("--json")});
        QCOMPARE(info2.out, info.out);
    }

    void malformedFileExitsOneAndChangesNothing() {
        QCOMPARE(fabscope({QStringLiteral("demo"), QStringLiteral("--out"), p(QStringLiteral("m"))}).code, 0);
        QCOMPARE(fabscope({QStringLiteral("import"), QStringLiteral("--db"), p(QStringLiteral("m.sqlite")), p(QStringLiteral("m"))}).code, 0);
        const QByteArray before = fabscope({QStringLiteral("info"), QStringLiteral("--db"), p(QStringLiteral("m.sqlite")), QStringLiteral("--json")}).out;
        QFile bad(p(QStringLiteral("bad.csv")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("timestamp,node,port,counter,value\n1700000000,leaf01,1,xmit_bytes,5\n1700000010,leaf01,1\n");
        bad.close();
        const Run r = fabscope({QStringLiteral("import"), QStringLiteral("--db"), p(QStringLiteral("m.sqlite")), bad.fileName()});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains((bad.fileName() + QStringLiteral(":3: ")).toUtf8()), r.err.constData());
        QCOMPARE(fabscope({QStringLiteral("info"), QStringLiteral("--db"), p(QStringLiteral("m.sqlite")), QStringLiteral("--json")}).out, before);
    }

    void usageErrorsExitTwo() {
        QCOMPARE(fabscope({QStringLiteral("import"), p(QStringLiteral("x"))}).code, 2);            // no --db
        QCOMPARE(fabscope({QStringLiteral("info"), QStringLiteral("--db")}).code, 2);              // no value
        QCOMPARE(fabscope({QStringLiteral("info"), QStringLiteral("--bogus")}).code, 2);
        QCOMPARE(fabscope({QStringLiteral("import"), QStringLiteral("--db"), p(QStringLiteral("u.sqlite")),
                           QStringLiteral("--format"), QStringLiteral("nope"), p(QStringLiteral("x"))}).code, 2);
        const Run help = fabscope({QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("fabscope import"));
        QVERIFY(fabscope({QStringLiteral("--version")}).out.startsWith("fabscope "));
    }

    // A window given as the GUI and reports print times (UTC) is the same window as in UNIX seconds.
    void timesAreUnixSecondsOrUtc() {
        QCOMPARE(fabscope({QStringLiteral("demo"), QStringLiteral("--out"), p(QStringLiteral("t"))}).code, 0);
        const QString db = p(QStringLiteral("t.sqlite"));
        QCOMPARE(fabscope({QStringLiteral("import"), QStringLiteral("--db"), db, p(QStringLiteral("t"))}).code, 0);
        auto window = [&](const QString& from, const QString& to) {
            const Run r = fabscope({QStringLiteral("analyze"), QStringLiteral("--db"), db, QStringLiteral("--from"), from, QStringLiteral("--to"), to, QStringLiteral("--json")});
            const QJsonObject w = QJsonDocument::fromJson(r.out).object()[QStringLiteral("window")].toObject();
            return qMakePair(r.code, qMakePair(w[QStringLiteral("start")].toInteger(), w[QStringLiteral("end")].toInteger()));
        };
        const auto unix = window(QStringLiteral("1700000100"), QStringLiteral("1700000400"));
        QCOMPARE(unix.first, 0);
        QCOMPARE(unix.second, qMakePair(qint64{1700000100}, qint64{1700000400}));
        QCOMPARE(window(QStringLiteral("2023-11-14 22:15:00 UTC"), QStringLiteral("2023-11-14T22:20:00Z")), unix);
        QCOMPARE(window(QStringLiteral("2023-11-14T23:15:00+01:00"), QStringLiteral("2023-11-14 22:20:00")), unix);
        const Run bad = fabscope({QStringLiteral("analyze"), QStringLiteral("--db"), db, QStringLiteral("--from"), QStringLiteral("yesterday")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--from expects UNIX seconds or a UTC time"), bad.err.constData());
    }

    void storeErrorsExitThree() {
        QFile notStore(p(QStringLiteral("text.sqlite")));
        QVERIFY(notStore.open(QIODevice::WriteOnly));
        notStore.write(QByteArray(4096, 'x'));
        notStore.close();
        QCOMPARE(fabscope({QStringLiteral("info"), QStringLiteral("--db"), notStore.fileName()}).code, 3);
        QCOMPARE(fabscope({QStringLiteral("info"), QStringLiteral("--db"), p(QStringLiteral("missing/none.sqlite"))}).code, 3);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
