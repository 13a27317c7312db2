// `fabscope whatif` (issue 22) on compare_fixture.h's 4-leaf, 3-spine fabric with steady load:
// leaf01's uplinks carry 70 % up, every other link direction 50 %, and a job runs on gpu01
// (leaf01) and gpu03 (leaf02). Failing one leaf01 uplink moves its load onto leaf01's two other
// uplinks (70 + 35 = 105 %, so they turn hot) with the total conserved; failing spine01 spreads
// its load over spine02 and spine03; the job's slowdown is the hand calculation 1.05 / 1.
#include "compare_fixture.h"

#include "cli_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

using clitest::Run;
using clitest::runCli;

std::string end(const QJsonObject& p) {
    return p[QStringLiteral("node")].toString().toStdString() + " p" + std::to_string(p[QStringLiteral("port")].toInt());
}

// tx -> {p95 before, p95 after (-1 failed), turns hot}
struct After {
    double before = 0, after = 0;
    bool hot = false;
};
std::map<std::string, After> links(const QJsonObject& j) {
    std::map<std::string, After> out;
    for (const auto& v : j[QStringLiteral("links")].toArray()) {
        const QJsonObject l = v.toObject();
        const QJsonArray ports = l[QStringLiteral("ports")].toArray();
        const QJsonObject after = l[QStringLiteral("after")].toObject();
        out[end(ports[0].toObject()) + ">" + end(ports[1].toObject())] = {
            l[QStringLiteral("before")].toObject()[QStringLiteral("p95_util")].toDouble(),
            after.contains(QStringLiteral("state")) ? -1 : after[QStringLiteral("p95_util")].toDouble(), l[QStringLiteral("turns_hot")].toBool()};
    }
    return out;
}

} // namespace

class TestCliWhatIf : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string db_;

    QJsonObject whatif(const QStringList& change) {
        QStringList args{QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_), QStringLiteral("--json")};
        args += change;
        const Run r = runCli(args);
        if (r.code != 0) qFatal("whatif failed: %s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }

    static void conserved(const QJsonObject& j) {
        const QJsonObject t = j[QStringLiteral("total_p95_gbps")].toObject();
        const double before = t[QStringLiteral("before")].toDouble(), after = t[QStringLiteral("after")].toDouble();
        QVERIFY(before > 0);
        QVERIFY2(std::abs(after - before) <= 0.01 * before, qPrintable(QString::number(before) + " -> " + QString::number(after)));
    }

private Q_SLOTS:
    void initTestCase() {
        std::ostringstream rows;
        rows.precision(17);
        for (int l = 1; l <= 4; ++l)
            for (int s = 1; s <= 3; ++s)
                for (int dir = 0; dir < 2; ++dir) {
                    const double u = dir == 0 && l == 1 ? 0.7 : 0.5;
                    std::vector<double> util(30, u);
                    rows << atest::rows(dir == 0 ? "leaf0" + std::to_string(l) : "spine0" + std::to_string(s), dir == 0 ? 19 + s : l,
                                        "xmit_bytes", atest::hdrBytes(util));
                }
        atest::Stores stores(dir_);
        db_ = stores.make(cmpfix::fabric(false), rows.str());
        const std::string job = stores.path("job.csv");
        std::ofstream(job) << "rank,host,device\n0,gpu01,mlx5_0\n1,gpu03,mlx5_0\n";
        cmpfix::importFile(db_, job);
    }

    void leafUplinkLoadMovesToItsSiblings() {
        const QJsonObject j = whatif({QStringLiteral("--fail"), QStringLiteral("leaf01:20")});
        conserved(j);
        const auto l = links(j);
        QCOMPARE(l.at("leaf01 p20>spine01 p1").after, -1.0);
        for (const char* sibling : {"leaf01 p21>spine02 p1", "leaf01 p22>spine03 p1"}) {
            QCOMPARE(l.at(sibling).before, 0.7);
            QCOMPARE(l.at(sibling).after, 1.05);  // 0.7 + 0.7 / 2
            QVERIFY(l.at(sibling).hot);
        }
        // Listed first: the links that turn hot.
        const QJsonArray arr = j[QStringLiteral("links")].toArray();
        QVERIFY(arr[0].toObject()[QStringLiteral("turns_hot")].toBool() && arr[1].toObject()[QStringLiteral("turns_hot")].toBool());
        // The down traffic spine01 carried to leaf01 now comes from spine02 and spine03.
        QCOMPARE(l.at("spine02 p1>leaf01 p21").after, 0.75);
        // What leaf01 sent through spine01 to the other leaves now comes down from spine02 and
        // spine03, in proportion to spine01's down links (a third each): 0.5 + 140/3/2 / 200.
        QVERIFY(std::abs(l.at("spine02 p2>leaf02 p21").after - (0.5 + 140.0 / 3 / 2 / 200)) < 1e-3);
        QVERIFY(std::abs(l.at("spine01 p2>leaf02 p20").after - (0.5 - 140.0 / 3 / 200)) < 1e-3);
        // The job: gpu01 -> gpu03 crosses one of leaf01's remaining uplinks, now at 105 %.
        const QJsonObject job = j[QStringLiteral("job")].toObject();
        QCOMPARE(job[QStringLiteral("slowdown")].toDouble(), 1.05);  // max(1, 1.05) / max(1, 0.7)
        QCOMPARE(job[QStringLiteral("worst_p95_util_before")].toDouble(), 0.7);
        QVERIFY(j[QStringLiteral("disconnected")].toArray().isEmpty());
    }

    void spineLoadSpreadsOverTheOtherSpines() {
        const QJsonObject j = whatif({QStringLiteral("--fail"), QStringLiteral("spine01")});
        conserved(j);
        const auto l = links(j);
        for (int leaf = 1; leaf <= 4; ++leaf) {
            const std::string lf = "leaf0" + std::to_string(leaf);
            QCOMPARE(l.at(lf + " p20>spine01 p" + std::to_string(leaf)).after, -1.0);
            for (int s = 2; s <= 3; ++s) {
                const std::string up = lf + " p" + std::to_string(19 + s) + ">spine0" + std::to_string(s) + " p" + std::to_string(leaf);
                QCOMPARE(l.at(up).after, leaf == 1 ? 1.05 : 0.75);
                const std::string down = "spine0" + std::to_string(s) + " p" + std::to_string(leaf) + ">" + lf + " p" + std::to_string(19 + s);
                QCOMPARE(l.at(down).after, 0.75);
            }
        }
    }

    void degradedLinkKeepsItsLoadOnLessCapacity() {
        const QJsonObject j = whatif({QStringLiteral("--degrade"), QStringLiteral("leaf02:21=1xHDR")});
        const auto l = links(j);
        QCOMPARE(l.at("leaf02 p21>spine02 p2").after, 2.0);  // 50 % of 200 Gb/s on 50 Gb/s
        QVERIFY(l.at("leaf02 p21>spine02 p2").hot);
    }

    void unknownNodeIsBadInput() {
        const Run r = runCli({QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_), QStringLiteral("--fail"),
                              QStringLiteral("leaf09:1")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("no node 'leaf09'"));
        QCOMPARE(runCli({QStringLiteral("whatif"), QStringLiteral("--db"), QString::fromStdString(db_)}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliWhatIf)
#include "tst_cli_whatif.moc"
