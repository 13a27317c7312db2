// Probes through the command line: import the ibsim fat tree, its forwarding tables and a
// pingmesh CSV, then `analyze --json` names the planted lossy cable and the slow host's pairs;
// a broken pingmesh row fails the import with FILE:LINE and exit code 1.
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

QString data(const char* rel) { return QStringLiteral(FABSCOPE_TEST_DATA "/") + QLatin1String(rel); }

} // namespace

class TestCliProbes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void importAndAnalyzeJson() {
        const QString db = dir_.filePath(QStringLiteral("s.sqlite"));
        const Run imp = fabscope({QStringLiteral("import"), QStringLiteral("--db"), db, data("ibsim/ibnetdiscover.txt"),
                                  data("ibsim/dump_fts.txt"), data("probes/pingmesh.csv")});
        QVERIFY2(imp.code == 0, imp.err.constData());
        const Run an = fabscope({QStringLiteral("analyze"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        QCOMPARE(an.code, 0);
        QJsonParseError err{};
        const QJsonObject j = QJsonDocument::fromJson(an.out, &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        const double start = j[QStringLiteral("window")].toObject()[QStringLiteral("start")].toDouble();
        QVERIFY(start >= 1700000000 && start < 1700000002);  // the first probe, as the store holds no counters
        int lossy = 0, slow = 0;
        int lastSeverity = 0;
        for (const auto& v : j[QStringLiteral("findings")].toArray()) {
            const QJsonObject f = v.toObject();
            const QString sev = f[QStringLiteral("severity")].toString();
            const int rank = sev == QLatin1String("critical") ? 0 : sev == QLatin1String("warning") ? 1 : 2;
            QVERIFY(rank >= lastSeverity);  // sorted by severity
            lastSeverity = rank;
            const QString kind = f[QStringLiteral("kind")].toString();
            if (kind == QLatin1String("lossy_link")) {
                ++lossy;
                const QJsonArray ports = f[QStringLiteral("ports")].toArray();
                QCOMPARE(ports.size(), 2);
                QCOMPARE(ports[0].toObject()[QStringLiteral("node")].toString(), QStringLiteral("leaf02"));
                QCOMPARE(ports[0].toObject()[QStringLiteral("port")].toInt(), 1);
                QCOMPARE(ports[1].toObject()[QStringLiteral("node")].toString(), QStringLiteral("spine01"));
                QCOMPARE(ports[1].toObject()[QStringLiteral("port")].toInt(), 2);
                QVERIFY(ports[0].toObject()[QStringLiteral("guid")].toString().startsWith(QLatin1String("0x")));
                QVERIFY(f[QStringLiteral("metrics")].toObject()[QStringLiteral("bad_votes")].toDouble() > 0);
            } else if (kind == QLatin1String("slow_pair")) {
                ++slow;
                QVERIFY(f[QStringLiteral("path")].toArray().size() >= 2);
            }
        }
        QCOMPARE(lossy, 1);
        QCOMPARE(slow, 14);
    }

    void brokenRowNamesFileAndLine() {
        const QString csv = dir_.filePath(QStringLiteral("broken.csv"));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("timestamp,src,dst,rtt_us,sent,lost\n1700000000,gpu001,gpu002,2.1,5,0\n1700000010,gpu001,gpu002,2.1,5,9\n");
        f.close();
        const Run imp = fabscope({QStringLiteral("import"), QStringLiteral("--db"), dir_.filePath(QStringLiteral("b.sqlite")), csv});
        QCOMPARE(imp.code, 1);
        QVERIFY2(imp.err.contains("broken.csv:3: lost 9 > sent 5"), imp.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliProbes)
#include "tst_cli_probes.moc"
