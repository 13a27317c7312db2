// Pairwise benchmarks through the command line (issue 18): a folder of nccl-tests runs between
// every pair of hosts, imported and analysed, names every slow pair and failed run, and the one
// host whose NIC runs at half speed as the only slow_host; the real 17-host sweep of
// tests/data/nccl-tests/pairwise-g1 names the pairs its own summary lists as slow or failed.
#include "pair_bench_fixture.h"

#include "cli_run.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

namespace {

using clitest::Run;
using clitest::runCli;

struct Named {
    std::map<std::string, QJsonObject> pairs;  // "a|b" (a < b) -> metrics
    std::set<std::string> hosts;
    QJsonArray findings;
};

Named analyzeJson(const QString& db) {
    const Run an = runCli({QStringLiteral("analyze"), QStringLiteral("--db"), db, QStringLiteral("--json")});
    if (an.code != 0) qFatal("analyze failed: %s", an.err.constData());
    Named n;
    n.findings = QJsonDocument::fromJson(an.out).object()[QStringLiteral("findings")].toArray();
    for (const auto& v : n.findings) {
        const QJsonObject f = v.toObject();
        const QJsonObject m = f[QStringLiteral("metrics")].toObject();
        if (f[QStringLiteral("kind")].toString() == QLatin1String("slow_pair") && m[QStringLiteral("source")].toString() == QLatin1String("benchmarks")) {
            std::string a = m[QStringLiteral("src")].toString().toStdString(), b = m[QStringLiteral("dst")].toString().toStdString();
            if (b < a) std::swap(a, b);
            n.pairs[a + "|" + b] = m;
        }
        if (f[QStringLiteral("kind")].toString() == QLatin1String("slow_host"))
            n.hosts.insert(m[QStringLiteral("host")].toString().toStdString());
    }
    return n;
}

} // namespace

class TestCliPairwise : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void sweepNamesSlowPairsFailedRunsAndTheBadHost() {
        const pairbench::Sweep sweep;
        const QString logs = dir_.filePath(QStringLiteral("sweep"));
        QCOMPARE(sweep.write(logs.toStdString()), 408);
        const QString db = dir_.filePath(QStringLiteral("sweep.sqlite"));
        const Run imp = runCli({QStringLiteral("import"), QStringLiteral("--db"), db, logs});
        QVERIFY2(imp.code == 0, imp.err.constData());

        const Named n = analyzeJson(db);
        std::set<std::string> named;
        for (const auto& [pair, m] : n.pairs) named.insert(pair);
        QCOMPARE(named, sweep.badPairs());  // every slow pair and failed run, no other pair
        QCOMPARE(n.hosts, std::set<std::string>{sweep.halfSpeedHost});
        for (const auto& f : sweep.failed) {
            const QJsonObject m = n.pairs.at(f.a + "|" + f.b);
            QCOMPARE(m[QStringLiteral("failed")].toDouble(), 1.0);
            QVERIFY2(m[QStringLiteral("bad_runs")].toString().contains(QString::fromStdString(f.tool + " G" + std::to_string(f.g))),
                     qPrintable(m[QStringLiteral("bad_runs")].toString()));
        }
        QCOMPARE(n.pairs.at("node-02|node-11")[QStringLiteral("failed")].toDouble(), 0.0);
        QCOMPARE(n.pairs.at("node-02|node-11")[QStringLiteral("benchmarks_agreeing")].toDouble(), 2.0);
        QCOMPARE(n.pairs.at("node-02|node-11")[QStringLiteral("slow_runs")].toDouble(), 2.0);
        // A pair of the half-speed host: slow in all 9 runs, at about half its class.
        const QJsonObject bad = n.pairs.at("node-01|node-07");
        QCOMPARE(bad[QStringLiteral("slow_runs")].toDouble(), 9.0);
        QCOMPARE(bad[QStringLiteral("slow_host")].toString(), QStringLiteral("node-07"));
        QVERIFY(std::abs(bad[QStringLiteral("ratio")].toDouble() - 0.5) < 0.05);

        // Runs are dated by their files (no `date` line in real sweeps), never 1970.
        for (const auto& v : n.findings) {
            const double start = v.toObject()[QStringLiteral("start")].toDouble();
            QVERIFY2(start > QDateTime::currentSecsSinceEpoch() - 86400, qPrintable(QString::number(start)));
        }
    }

    // A store whose only file failed to import has no time at all: no 1970 window.
    void emptyStoreHasNoWindow() {
        const QString bad = dir_.filePath(QStringLiteral("cut.log"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#  Rank  0 Group  0 Pid 1 on a device  0 [0000:1b:00] NVIDIA H100\n    33554432  8388608  float  sum  -1  1.0\n");
        f.close();
        const QString db = dir_.filePath(QStringLiteral("empty.sqlite"));
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), db, bad}).code, 1);
        const Run an = runCli({QStringLiteral("analyze"), QStringLiteral("--db"), db});
        QCOMPARE(an.code, 0);
        QVERIFY2(an.out.startsWith("window none"), an.out.constData());
        QVERIFY(!an.out.contains("1970"));
    }

    void realSweepNamesThePairsItsSummaryListsAsSlowOrFailed() {
        const QString db = dir_.filePath(QStringLiteral("real.sqlite"));
        const Run imp = runCli({QStringLiteral("import"), QStringLiteral("--db"), db,
                                  QStringLiteral(FABSCOPE_TEST_DATA "/nccl-tests/pairwise-g1")});
        QVERIFY2(imp.code == 0, imp.err.constData());
        const Named n = analyzeJson(db);
        // From the sweep's own summary.csv / failures.txt: under 45 % of the median in both
        // alltoall and sendrecv, or no bandwidth at all.
        const std::set<std::string> slowBoth{"cnode2-001|cnode2-004", "cnode2-002|cnode2-003", "cnode2-002|cnode2-006",
                                             "cnode2-004|cnode2-006", "cnode2-004|cnode2-009", "cnode2-011|cnode2-012",
                                             "cnode2-013|cnode2-016", "cnode2-013|cnode2-017"};
        const std::set<std::string> failed{"cnode2-005|cnode2-016", "cnode2-007|cnode2-016", "cnode2-002|cnode2-008",
                                           "cnode2-003|cnode2-008", "cnode2-008|cnode2-009"};
        std::set<std::string> expected = slowBoth;
        expected.insert(failed.begin(), failed.end());
        std::set<std::string> named;
        for (const auto& [pair, m] : n.pairs) named.insert(pair);
        QCOMPARE(named, expected);
        for (const auto& p : slowBoth) QCOMPARE(n.pairs.at(p)[QStringLiteral("benchmarks_agreeing")].toDouble(), 2.0);
        for (const auto& p : failed) {
            QCOMPARE(n.pairs.at(p)[QStringLiteral("failed")].toDouble(), 1.0);
            QVERIFY(n.pairs.at(p)[QStringLiteral("failures")].toString().contains(QLatin1String("NCCL failure")) ||
                    n.pairs.at(p)[QStringLiteral("failures")].toString().contains(QLatin1String("no result table")));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliPairwise)
#include "tst_cli_pairwise.moc"
