// The store keeps what it is given: topology and chunked series round-trip, old stores migrate.
#include "core/chunk_codec.h"
#include "core/sqlite_stmt.h"
#include "core/store.h"
#include "core/store_schema.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace fabscope;

class TestStore : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(QString::fromLatin1(name)).toStdString(); }

    static Fabric twoNodeFabric() {
        Fabric f;
        f.nodes.push_back({NodeType::Switch, "0x1", "leaf01", "", 36, 7});
        f.nodes.push_back({NodeType::Ca, "0x2", "host01 mlx5_0", "", 1, 0});
        Port a;
        a.node = NodeId(std::uint32_t{0});
        a.name = "33";
        a.number = 33;
        a.width = 4;
        a.speed = "NDR";
        a.capacityBps = 400'000'000'000ULL;
        Port b = a;
        b.node = NodeId(std::uint32_t{1});
        b.name = "1";
        b.number = 1;
        b.portGuid = "0x3";
        f.ports = {a, b};
        f.links.push_back({PortId(std::uint32_t{0}), PortId(std::uint32_t{1}), 4, "NDR", 400'000'000'000ULL, true});
        return f;
    }

private Q_SLOTS:
    void chunkCodecRoundTripsEdgeValues() {
        const std::vector<std::int64_t> t{0, 1000, 999, -5, INT64_MAX, INT64_MIN};
        std::vector<std::int64_t> t2;
        decodeTimes(encodeTimes(t), t2);
        QCOMPARE(t2, t);
        const std::vector<double> ints{0, 4294967295.0, 18446744073709549568.0, 3, 2};  // includes > 2^53
        std::vector<double> v2;
        decodeValues(encodeValues(ints), v2);
        QCOMPARE(v2, ints);
        const std::vector<double> fractions{0.5, 1.25, -3.0};
        v2.clear();
        decodeValues(encodeValues(fractions), v2);
        QCOMPARE(v2, fractions);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeValues(std::string_view("\x00\x05\x01", 3), v2));
    }

    void topologyAndSeriesRoundTrip() {
        const auto p = path("roundtrip.sqlite");
        {
            Store s(p);
            Store::Transaction tx(s);
            s.writeSnapshot(twoNodeFabric(), "snap-a", 1700000000);
            const auto series = s.ensureSeries(1, "leaf01", "33", "xmit_bytes", "bytes");
            QCOMPARE(s.ensureSeries(1, "leaf01", "33", "xmit_bytes", "bytes"), series);  // no duplicate
            std::vector<std::int64_t> t;
            std::vector<double> v;
            for (int i = 0; i < 10000; ++i) {
                t.push_back(1700000000000LL + i * 1000);
                v.push_back(i * 125.0);
            }
            s.appendChunk(series, std::span(t).subspan(0, 5000), std::span(v).subspan(0, 5000));
            s.appendChunk(series, std::span(t).subspan(5000), std::span(v).subspan(5000));
            s.recordImport("x.csv", "abc", "csv", 10000);
            tx.commit();
        }
        Store s(p, Store::Mode::ReadOnly);
        const auto snap = s.latestSnapshot();
        QVERIFY(snap);
        QCOMPARE(snap->label, std::string("snap-a"));
        const Fabric f = s.loadFabric(snap->id);
        QCOMPARE(f.nodes.size(), std::size_t{2});
        QCOMPARE(f.nodes[0].description, std::string("leaf01"));
        QCOMPARE(f.nodes[0].guid, std::string("0x1"));
        QCOMPARE(f.ports[0].capacityBps, 400'000'000'000ULL);
        QCOMPARE(f.ports[1].portGuid, std::string("0x3"));
        QCOMPARE(f.links.size(), std::size_t{1});
        QCOMPARE(f.links[0].width, std::optional<int>(4));

        const auto info = s.info();
        QCOMPARE(info.samples, std::size_t{10000});
        QCOMPARE(info.series, std::size_t{1});
        QCOMPARE(*info.timeStart, 1700000000.0);
        QCOMPARE(*info.timeEnd, 1700009999.0);
        // Not one row per sample: 10k samples live in 2 chunk rows.
        sql::Stmt rows(s.handle(), "SELECT count(*) FROM chunks");
        QVERIFY(rows.step());
        QCOMPARE(rows.integer(0), std::int64_t{2});

        const auto all = s.loadSeries(s.series().front().id);
        QCOMPARE(all.values.size(), std::size_t{10000});
        QCOMPARE(all.values[9999], 9999 * 125.0);
        const auto window = s.loadSeries(s.series().front().id, 1700004000000LL, 1700005000000LL);
        QCOMPARE(window.timesMs.size(), std::size_t{1001});
        QCOMPARE(window.timesMs.front(), 1700004000000LL);
    }

    void uncommittedTransactionLeavesNothing() {
        const auto p = path("rollback.sqlite");
        Store s(p);
        {
            Store::Transaction tx(s);
            s.writeSnapshot(twoNodeFabric(), "never", 1);
            s.recordImport("never.txt", "sha-never", "ibnetdiscover", 3);
        }  // no commit
        QVERIFY(!s.latestSnapshot());
        QVERIFY(!s.findImport("sha-never"));
    }

    void migratesVersion1Store() {
        const auto p = path("v1.sqlite");
        {
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(p.c_str(), &db), SQLITE_OK);
            sql::exec(db, std::string(migrationScript(1)).c_str());
            sql::exec(db, "PRAGMA user_version=1");
            sql::exec(db, "INSERT INTO imports(file,sha256,format,rows,imported_at) VALUES('old.txt','s1','ibnetdiscover',5,1.0)");
            sqlite3_close(db);
        }
        Store s(p);
        QCOMPARE(s.schemaVersion(), Store::kSchemaVersion);
        QVERIFY(s.findImport("s1"));
        QCOMPARE(s.info().jobs, std::size_t{0});  // the jobs table of version 2 exists now
    }

    void refusesForeignAndNewerFiles() {
        const auto foreign = path("foreign.sqlite");
        {
            sqlite3* db = nullptr;
            sqlite3_open(foreign.c_str(), &db);
            sql::exec(db, "CREATE TABLE t(x)");
            sqlite3_close(db);
        }
        QVERIFY_THROWS_EXCEPTION(StoreError, Store{foreign});
        const auto newer = path("newer.sqlite");
        {
            sqlite3* db = nullptr;
            sqlite3_open(newer.c_str(), &db);
            sql::exec(db, "PRAGMA user_version=99");
            sqlite3_close(db);
        }
        QVERIFY_THROWS_EXCEPTION(StoreError, Store{newer});
        const auto text = path("text.sqlite");
        QFile f(QString::fromStdString(text));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a database, just text that is long enough to look like a header.....\n");
        f.close();
        QVERIFY_THROWS_EXCEPTION(StoreError, Store{text});
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
