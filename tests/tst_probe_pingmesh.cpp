// The pingmesh CSV importer: the generated captures of tests/data/probes, format detection,
// header forms, quoting, empty RTTs of fully lost rounds, and broken variants naming file:line.
#include "ib_test_util.h"
#include "importers/import_runner.h"
#include "importers/pingmesh_csv_importer.h"
#include "importers/registry.h"

#include <QTemporaryDir>

using namespace fabscope;
using namespace ibtest;

namespace {

ProbeImportResult parse(const std::string& text) {
    DiagnosticSink diag("pm.csv");
    return PingmeshCsvImporter().parse(ImportInput{"pm.csv", text, 0}, diag, {});
}

} // namespace

class TestPingmesh : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void generatedCaptures() {
        const auto plain = parse(readData(QStringLiteral("probes/pingmesh.csv")));
        QCOMPARE(plain.probes.size(), std::size_t{60 * 8 * 7});
        const ProbeResult& first = plain.probes.front();
        QCOMPARE(first.tool, std::string("pingmesh"));
        QCOMPARE(first.src, std::string("gpu001"));
        QCOMPARE(first.dst, std::string("gpu002"));
        QCOMPARE(first.sent, std::int64_t{5});
        QVERIFY(first.latencyUs && *first.latencyUs > 1 && *first.latencyUs < 4);
        QVERIFY(first.path.empty());
        const auto withPath = parse(readData(QStringLiteral("probes/pingmesh-path.csv")));
        QCOMPARE(withPath.probes.size(), plain.probes.size());
        QCOMPARE(withPath.probes[1].path, (std::vector<std::string>{"gpu001 mlx5_0 p1", "leaf01 p1", "spine01 p2", "leaf02 p3",
                                                                   "gpu003 mlx5_0 p1"}));
    }

    void detectedFromContent() {
        ImporterRegistry r;
        const Importer* i = r.detect(readData(QStringLiteral("probes/pingmesh-path.csv")).substr(0, 4096));
        QVERIFY(i);
        QCOMPARE(i->name(), std::string_view("pingmesh"));
        QCOMPARE(i->kind(), Importer::Kind::Probes);
        QVERIFY(!r.detect("timestamp,node,port,counter,value\n1,a,1,xmit_bytes,3\n") ||
                r.detect("timestamp,node,port,counter,value\n1,a,1,xmit_bytes,3\n")->name() != "pingmesh");
    }

    void columnsInAnyOrderQuotesCommentsAndLostRounds() {
        const auto r = parse("\xEF\xBB\xBF# pingmesh agent v2\r\n"
                             "src,dst,timestamp,sent,lost,rtt_us,path\r\n"
                             "\"gpu001 mlx5_0\",gpu002,1700000000.25,10,10,,\r\n"
                             "gpu001,gpu002,1700000001,10,2,+3.5,\"gpu001:1 > leaf01 p4 > gpu002\"\r\n");
        QCOMPARE(r.probes.size(), std::size_t{2});
        QCOMPARE(r.probes[0].src, std::string("gpu001 mlx5_0"));
        QCOMPARE(r.probes[0].time, 1700000000.25);
        QVERIFY(!r.probes[0].latencyUs);  // every probe lost: no RTT
        QCOMPARE(r.probes[0].lost, std::int64_t{10});
        QVERIFY(r.probes[0].path.empty());
        QCOMPARE(*r.probes[1].latencyUs, 3.5);
        QCOMPARE(r.probes[1].path, (std::vector<std::string>{"gpu001:1", "leaf01 p4", "gpu002"}));
    }

    void brokenVariants_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        const QString h = QStringLiteral("timestamp,src,dst,rtt_us,sent,lost\n");
        QTest::newRow("missing column") << QStringLiteral("timestamp,src,dst,rtt_us,sent\n1,a,b,2,1\n") << 1 << QStringLiteral("missing column 'lost'");
        QTest::newRow("unknown column") << QStringLiteral("timestamp,src,dst,rtt_us,sent,lost,tos\n") << 1 << QStringLiteral("unknown column 'tos'");
        QTest::newRow("bad number") << h + QStringLiteral("1700000000,a,b,2.x,1,0\n") << 2 << QStringLiteral("bad rtt_us '2.x'");
        QTest::newRow("bad timestamp") << h + QStringLiteral("1,a,b,2,1,0\nyesterday,a,b,2,1,0\n") << 3 << QStringLiteral("bad timestamp");
        QTest::newRow("lost > sent") << h + QStringLiteral("1,a,b,2,3,4\n") << 2 << QStringLiteral("lost 4 > sent 3");
        QTest::newRow("negative rtt") << h + QStringLiteral("1,a,b,-2,3,0\n") << 2 << QStringLiteral("negative rtt_us");
        QTest::newRow("empty rtt, answered") << h + QStringLiteral("1,a,b,,3,1\n") << 2 << QStringLiteral("empty rtt_us although 2 probe(s) answered");
        QTest::newRow("rtt, all lost") << h + QStringLiteral("1,a,b,7,3,3\n") << 2 << QStringLiteral("all 3 probes were lost");
        QTest::newRow("fields") << h + QStringLiteral("1,a,b,2,3\n") << 2 << QStringLiteral("expected 6 fields, got 5");
        QTest::newRow("same host") << h + QStringLiteral("1,a,a,2,3,0\n") << 2 << QStringLiteral("same host");
        QTest::newRow("sent 0") << h + QStringLiteral("1,a,b,2,0,0\n") << 2 << QStringLiteral("bad sent '0'");
        QTest::newRow("empty hop") << QStringLiteral("timestamp,src,dst,rtt_us,sent,lost,path\n1,a,b,2,1,0,a>>b\n") << 2 << QStringLiteral("empty hop");
        QTest::newRow("quote") << h + QStringLiteral("1,\"a,b,2,1,0\n") << 2 << QStringLiteral("unterminated quote");
        QTest::newRow("no rows") << h << 0 << QStringLiteral("no probe rows");
    }
    void brokenVariants() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        try {
            (void)parse(text.toStdString());
            QFAIL("a broken file must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().file, std::string("pm.csv"));
            QCOMPARE(e.diagnostic().line, std::int64_t{line});
            QVERIFY2(e.diagnostic().message.find(message.toStdString()) != std::string::npos, e.diagnostic().message.c_str());
        }
    }

    void aBrokenFileLeavesTheStoreUntouched() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("timestamp,src,dst,rtt_us,sent,lost\n1,a,b,2,1,0\n2,a,b,2,1,5\n");
        f.close();
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({bad.toStdString()}, {});
        QCOMPARE(s.count(FileStatus::Failed), std::size_t{1});
        QCOMPARE(s.diagnostics.back().line, std::int64_t{3});
        QVERIFY(loadProbes(store).empty());
        QVERIFY(store.imports().empty());
    }
};

QTEST_GUILESS_MAIN(TestPingmesh)
#include "tst_probe_pingmesh.moc"
