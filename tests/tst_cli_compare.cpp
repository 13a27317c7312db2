// `fabscope compare` (issue 19) on compare_fixture.h's good and bad runs, one store with two
// windows and two stores: the downed uplink, the 1x link and the job that lost GPUDirect RDMA
// rank first; only the links whose load moved (the downed uplink's siblings, the 1x link) have
// load changes; a link with counters on one side only says so instead of reading as zero. Two
// ibdiagnet runs of one fabric: the port modules that got worse or were swapped between them,
// and the switch problems ibswinfo reported in the bad run only.
#include "compare_fixture.h"

#include "cli_run.h"

#include <QJsonArray>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <QDir>

#include <fstream>
#include <map>
#include <set>

namespace {

using clitest::Run;
using clitest::runCli;

QString q(const std::string& s) { return QString::fromStdString(s); }
QString secs(double v) { return QString::number(static_cast<qint64>(v)); }

std::string readData(const std::string& rel) {
    std::ifstream in(std::string(FABSCOPE_TEST_DATA "/") + rel, std::ios::binary);
    if (!in) qFatal("missing test data %s", rel.c_str());
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    if (at == std::string::npos) qFatal("no '%s' in the test text", from.c_str());
    return s.replace(at, from.size(), to);
}

// "leaf01 p21>spine02 p1": a change's link, transmitting end first.
std::string linkOf(const QJsonObject& c) {
    std::string s;
    for (const auto& p : c[QStringLiteral("ports")].toArray()) {
        const QJsonObject o = p.toObject();
        s += (s.empty() ? "" : ">") + o[QStringLiteral("node")].toString().toStdString() + " p" +
             std::to_string(o[QStringLiteral("port")].toInt());
    }
    return s;
}

} // namespace

class TestCliCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    cmpfix::Stores2 stores_;

    static QJsonArray changes(const Run& r) {
        if (r.code != 0) qFatal("compare failed: %s", r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        if (j[QStringLiteral("fabscope_compare")].toInt() != 1) qFatal("not a compare document");
        return j[QStringLiteral("changes")].toArray();
    }

    // What every comparison of the fixture must say, whichever way the runs are stored.
    static void checkChanges(const QJsonArray& changes) {
        QVERIFY(changes.size() >= 3);
        std::set<std::string> top;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject c = changes[i].toObject();
            const QString kind = c[QStringLiteral("kind")].toString();
            if (kind == QLatin1String("job")) {
                QVERIFY(c[QStringLiteral("summary")].toString().contains(QLatin1String("GPUDirect RDMA")));
                QCOMPARE(c[QStringLiteral("good")].toObject()[QStringLiteral("gdrdma_share")].toDouble(), 1.0);
                QCOMPARE(c[QStringLiteral("bad")].toObject()[QStringLiteral("gdrdma_share")].toDouble(), 0.0);
                top.insert("job");
            } else {
                QCOMPARE(kind, QStringLiteral("topology"));
                std::string link = linkOf(c);  // either end first: the snapshot's listing decides
                const auto gt = link.find('>');
                if (link.substr(gt + 1) < link.substr(0, gt)) link = link.substr(gt + 1) + ">" + link.substr(0, gt);
                top.insert(link);
            }
        }
        QCOMPARE(top, (std::set<std::string>{"job", "leaf01 p20>spine01 p1", "leaf03 p21>spine02 p3"}));
        // Scores never rise down the list.
        for (int i = 1; i < changes.size(); ++i)
            QVERIFY(changes[i].toObject()[QStringLiteral("score")].toDouble() <= changes[i - 1].toObject()[QStringLiteral("score")].toDouble());

        const std::set<std::string> moved{"leaf01 p21>spine02 p1", "spine02 p1>leaf01 p21", "leaf01 p22>spine03 p1",
                                          "spine03 p1>leaf01 p22", "leaf03 p21>spine02 p3", "spine02 p3>leaf03 p21"};
        std::set<std::string> loads;
        for (const auto& v : changes) {
            const QJsonObject c = v.toObject();
            if (c[QStringLiteral("kind")].toString() != QLatin1String("load")) continue;
            const std::string link = linkOf(c);
            const QJsonObject good = c[QStringLiteral("good")].toObject(), bad = c[QStringLiteral("bad")].toObject();
            if (link == "leaf04 p22>spine03 p4" || link == "spine03 p4>leaf04 p22") {  // counters in the good run only
                QCOMPARE(bad[QStringLiteral("data")].toString(), QStringLiteral("none"));
                QVERIFY(std::abs(good[QStringLiteral("p95_util")].toDouble() - 0.45) < 0.03);
                continue;
            }
            QVERIFY2(moved.count(link), link.c_str());  // no change on links whose load only jittered
            QVERIFY(bad[QStringLiteral("p95_util")].toDouble() > good[QStringLiteral("p95_util")].toDouble() + 0.15);
            loads.insert(link);
        }
        QCOMPARE(loads, moved);
    }

private Q_SLOTS:
    void initTestCase() {
        atest::Stores stores(dir_);
        stores_ = cmpfix::make(stores);
    }

    void oneStoreTwoWindows() {
        const Run r = runCli({QStringLiteral("compare"), QStringLiteral("--db"), q(stores_.one), QStringLiteral("--good"),
                                secs(cmpfix::kGoodFrom) + ':' + secs(cmpfix::kGoodTo), QStringLiteral("--bad"),
                                secs(cmpfix::kBadFrom) + ':' + secs(cmpfix::kBadTo), QStringLiteral("--json")});
        checkChanges(changes(r));
        const QJsonObject bad = QJsonDocument::fromJson(r.out).object()[QStringLiteral("bad")].toObject();
        QCOMPARE(bad[QStringLiteral("snapshot")].toString(), QStringLiteral("B"));  // the topology in force then
        QCOMPARE(bad[QStringLiteral("start")].toDouble(), cmpfix::kBadFrom);
        // The same windows as UTC times, each with colons of its own, and an open end.
        auto utc = [](double t) { return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(t), Qt::UTC).toString(Qt::ISODate); };
        const Run iso = runCli({QStringLiteral("compare"), QStringLiteral("--db"), q(stores_.one), QStringLiteral("--good"),
                                utc(cmpfix::kGoodFrom) + ':' + utc(cmpfix::kGoodTo), QStringLiteral("--bad"),
                                utc(cmpfix::kBadFrom) + ':', QStringLiteral("--json")});
        QCOMPARE(iso.code, 0);
        const QJsonObject isoBad = QJsonDocument::fromJson(iso.out).object()[QStringLiteral("bad")].toObject();
        QCOMPARE(isoBad[QStringLiteral("start")].toDouble(), cmpfix::kBadFrom);
        QCOMPARE(QJsonDocument::fromJson(iso.out).object()[QStringLiteral("good")].toObject()[QStringLiteral("end")].toDouble(), cmpfix::kGoodTo);
        QCOMPARE(runCli({QStringLiteral("compare"), QStringLiteral("--db"), q(stores_.one), QStringLiteral("--good"), QStringLiteral("then:now"),
                         QStringLiteral("--bad"), QStringLiteral("1:2")}).code, 2);
    }

    void twoStores() {
        const QString out = dir_.filePath(QStringLiteral("compare.json"));
        const Run r = runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), q(stores_.good), QStringLiteral("--bad-db"),
                                q(stores_.bad), QStringLiteral("--json"), QStringLiteral("--out"), out});
        checkChanges(changes(r));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().trimmed(), r.out.trimmed());
    }

    void sameRunTwiceChangesNothing() {
        const QString good = secs(cmpfix::kGoodFrom) + ':' + secs(cmpfix::kGoodTo);
        const Run r = runCli({QStringLiteral("compare"), QStringLiteral("--db"), q(stores_.good), QStringLiteral("--good"), good,
                                QStringLiteral("--bad"), good});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("no changes beyond noise"), r.out.constData());
    }

    // The good run is tests/data/ibdiagnet2-run/; in the bad one, a week later, switch A's port-1
    // optic lost 3.4 dB on lane 2, its port-3 optic latched loss of lock, and the copper cable on
    // its port 2 was swapped. Switch B's port-3 optic, flagged in both runs, is no change.
    void portModulesThatGotWorseOrWereSwapped() {
        const QString run = dir_.filePath(QStringLiteral("bad-run"));
        QVERIFY(QDir().mkpath(run));
        const std::string week = "2025-04-07 23:43:18";
        std::ofstream(run.toStdString() + "/ibdiagnet2.db_csv")
            << replaced(readData("ibdiagnet2-run/ibdiagnet2.db_csv"), "2025-03-31 23:43:18", week);
        std::string cables = replaced(readData("ibdiagnet2-run/ibdiagnet2.cables"), "2025-03-31 23:43:18", week);
        cables = replaced(cables, "RX2 Power: 0.525 mW, -2.800 dBm", "RX2 Power: 0.240 mW, -6.200 dBm");
        const auto port3 = cables.find("Port Name=sw-mgmt/U1/P1/1/3");
        const auto lol = cables.find("Latched  TX / RX LOL Indicator: 0x00", port3);
        QVERIFY(port3 != std::string::npos && lol != std::string::npos);
        cables.replace(lol, 36, "Latched  TX / RX LOL Indicator: 0x03");
        cables = replaced(cables, "SN: AD25020002", "SN: AD25020099");
        std::ofstream(run.toStdString() + "/ibdiagnet2.cables") << cables;
        const QString good = dir_.filePath(QStringLiteral("modules-good.sqlite")), bad = dir_.filePath(QStringLiteral("modules-bad.sqlite"));
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), good, QStringLiteral(FABSCOPE_TEST_DATA "/ibdiagnet2-run")}).code, 0);
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), bad, run}).code, 0);

        const QJsonArray all = changes(runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), good, QStringLiteral("--bad-db"), bad,
                                                 QStringLiteral("--json")}));
        std::map<std::string, QJsonObject> byLink;
        for (const auto& v : all) byLink[linkOf(v.toObject())] = v.toObject();
        QCOMPARE(byLink.size(), std::size_t{3});

        const QJsonObject lol3 = byLink.at("MF0;sw-mgmt:MQM9700/U1 p3>Quantum-2 Mellanox Technologies p3");
        QCOMPARE(lol3[QStringLiteral("kind")].toString(), QStringLiteral("errors"));
        QCOMPARE(lol3[QStringLiteral("good")].toObject()[QStringLiteral("optic_flags")].toString(), QStringLiteral("none"));
        QCOMPARE(lol3[QStringLiteral("bad")].toObject()[QStringLiteral("optic_flags")].toString(), QStringLiteral("Latched TX / RX LOL Indicator 0x03"));
        QCOMPARE(all[0].toObject(), lol3);  // a flag newly set ranks first

        const QJsonObject dim = byLink.at("MF0;sw-mgmt:MQM9700/U1 p1>node-1 mlx5_0 p1");
        QCOMPARE(dim[QStringLiteral("kind")].toString(), QStringLiteral("errors"));
        QVERIFY2(dim[QStringLiteral("summary")].toString().endsWith(
                     QStringLiteral("weakest receive lane -2.8 dBm in the good run, -6.2 dBm in the bad (3.4 dB less light)")),
                 qPrintable(dim[QStringLiteral("summary")].toString()));
        QCOMPARE(dim[QStringLiteral("good")].toObject()[QStringLiteral("optic_rx_min_dbm")].toDouble(), -2.8);
        QCOMPARE(dim[QStringLiteral("bad")].toObject()[QStringLiteral("optic_rx_min_dbm")].toDouble(), -6.2);

        const QJsonObject swap = byLink.at("MF0;sw-mgmt:MQM9700/U1 p2>node-2 mlx5_0 p1");
        QCOMPARE(swap[QStringLiteral("kind")].toString(), QStringLiteral("topology"));
        QVERIFY(swap[QStringLiteral("good")].toObject()[QStringLiteral("module")].toString().endsWith(QStringLiteral("SN AD25020002")));
        QVERIFY(swap[QStringLiteral("bad")].toObject()[QStringLiteral("module")].toString().endsWith(QStringLiteral("SN AD25020099")));

        // ibswinfo on switch A in both runs (real outputs, GUID set to switch A's): all OK a week
        // ago, PSU1's DC power and fan in ERROR now. Run in the bad run only, it is no change.
        auto ibswinfo = [&](const char* sample, const char* guid, const QString& name) {
            const QString path = dir_.filePath(name);
            std::ofstream(path.toStdString()) << replaced(readData(std::string("ibswinfo/") + sample), guid, "0xb0cf0e0300d33fc0");
            return path;
        };
        const QString ok = ibswinfo("test2.out", "0x08c0eb0300d9f672", QStringLiteral("swA-ok.ibswinfo"));
        const QString failing = ibswinfo("test3.out", "0x08c0eb0300add20e", QStringLiteral("swA-psu.ibswinfo"));
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), bad, failing}).code, 0);
        auto compareJson = [&] {
            return changes(runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), good, QStringLiteral("--bad-db"), bad, QStringLiteral("--json")}));
        };
        QCOMPARE(compareJson().size(), 3);  // ibswinfo did not run for the good run: nothing to compare with
        QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), good, ok}).code, 0);
        QStringList psu;
        for (const auto& v : compareJson()) {
            const QJsonObject c = v.toObject();
            if (!c[QStringLiteral("summary")].toString().contains(QLatin1String("ibswinfo"))) continue;
            QCOMPARE(c[QStringLiteral("kind")].toString(), QStringLiteral("errors"));
            QCOMPARE(c[QStringLiteral("good")].toObject()[QStringLiteral("reported")].toString(), QStringLiteral("nothing"));
            QCOMPARE(c[QStringLiteral("bad")].toObject()[QStringLiteral("tool")].toString(), QStringLiteral("ibswinfo"));
            psu << c[QStringLiteral("summary")].toString();
        }
        psu.sort();
        QCOMPARE(psu, (QStringList{QStringLiteral("new in the bad run: ibswinfo error on MF0;sw-mgmt:MQM9700/U1: PSU1 DC power ERROR"),
                                   QStringLiteral("new in the bad run: ibswinfo error on MF0;sw-mgmt:MQM9700/U1: PSU1 fan ERROR")}));
        // The other way round the two are gone, ranked last.
        const QJsonArray reversed =
            changes(runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), bad, QStringLiteral("--bad-db"), good, QStringLiteral("--json")}));
        int gone = 0;
        for (const auto& v : reversed) {
            const QJsonObject c = v.toObject();
            if (!c[QStringLiteral("summary")].toString().startsWith(QLatin1String("gone in the bad run: ibswinfo error on MF0;sw-mgmt:MQM9700/U1: PSU1 ")))
                continue;
            ++gone;
            QCOMPARE(c[QStringLiteral("score")].toDouble(), 5.0);
            QCOMPARE(c[QStringLiteral("bad")].toObject()[QStringLiteral("reported")].toString(), QStringLiteral("nothing"));
        }
        QCOMPARE(gone, 2);
    }

    // The bad run's ranks 2 and 3 ran on another host (gpu-b was out for repair): the job change
    // names each moved rank with both hosts, and counts them.
    void ranksThatMovedHostAreNamed() {
        QTemporaryDir dir;  // its own: another Stores on dir_ would reuse initTestCase's store names
        atest::Stores stores(dir);
        const std::string logs = stores.path("moved");
        std::filesystem::create_directories(logs);
        const std::string goodLog = cmpfix::jobLog(logs, false);
        std::string text = readData("nccl-log/all_reduce-nccl2.22-ib-info.log");
        for (auto at = text.find("gpu-b:"); at != std::string::npos; at = text.find("gpu-b:", at)) text.replace(at, 6, "gpu-x:");
        const std::string badLog = logs + "/moved-run.log";
        std::ofstream(badLog) << text;
        const std::string good = stores.make(cmpfix::fabric(false), cmpfix::counters(true, false));
        cmpfix::importFile(good, goodLog);
        const std::string bad = stores.make(cmpfix::fabric(false), cmpfix::counters(false, true));
        cmpfix::importFile(bad, badLog);
        QJsonObject placement;
        for (const auto& v : changes(runCli({QStringLiteral("compare"), QStringLiteral("--good-db"), q(good), QStringLiteral("--bad-db"), q(bad),
                                             QStringLiteral("--json")})))
            if (v.toObject()[QStringLiteral("summary")].toString().contains(QLatin1String(": placement "))) placement = v.toObject();
        QCOMPARE(placement[QStringLiteral("kind")].toString(), QStringLiteral("job"));
        const QString summary = placement[QStringLiteral("summary")].toString();
        QVERIFY2(summary.endsWith(QLatin1String("; moved: rank 2 gpu-b mlx5_2 -> gpu-x mlx5_2, rank 3 gpu-b mlx5_2 -> gpu-x mlx5_2")), qPrintable(summary));
        QCOMPARE(placement[QStringLiteral("bad")].toObject()[QStringLiteral("ranks_moved")].toDouble(), 2.0);
        QCOMPARE(placement[QStringLiteral("bad")].toObject()[QStringLiteral("hosts")].toString(), QStringLiteral("gpu-a,gpu-x"));
        QCOMPARE(placement[QStringLiteral("good")].toObject()[QStringLiteral("hosts")].toString(), QStringLiteral("gpu-a,gpu-b"));
    }

    void usageErrors() {
        QCOMPARE(runCli({QStringLiteral("compare"), QStringLiteral("--db"), q(stores_.one)}).code, 2);  // windows missing
        QCOMPARE(runCli({QStringLiteral("compare"), QStringLiteral("--db"), q(stores_.one), QStringLiteral("--good"),
                           QStringLiteral("5:1"), QStringLiteral("--bad"), QStringLiteral("1:2")})
                     .code,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_cli_compare.moc"
