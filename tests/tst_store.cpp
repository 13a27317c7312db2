// The store keeps what it is given: topology and chunked series round-trip, old stores migrate.
#include "core/chunk_codec.h"
#include "core/demo_fabric.h"
#include "core/fabric_codec.h"
#include "core/store/probes.h"
#include "core/store/annotations.h"
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"
#include "core/store/schema.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

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

    // Every field of every node, port and link, so a codec that drops one fails here.
    static void compareFabrics(const Fabric& x, const Fabric& y) {
        QCOMPARE(x.nodes.size(), y.nodes.size());
        QCOMPARE(x.ports.size(), y.ports.size());
        QCOMPARE(x.links.size(), y.links.size());
        for (std::size_t i = 0; i < x.nodes.size(); ++i) {
            const Node &a = x.nodes[i], &b = y.nodes[i];
            QVERIFY(a.type == b.type && a.guid == b.guid && a.description == b.description && a.systemName == b.systemName &&
                    a.numPorts == b.numPorts && a.lid == b.lid);
        }
        for (std::size_t i = 0; i < x.ports.size(); ++i) {
            const Port &a = x.ports[i], &b = y.ports[i];
            QVERIFY(a.node == b.node && a.name == b.name && a.number == b.number && a.portGuid == b.portGuid &&
                    a.lid == b.lid && a.width == b.width && a.speed == b.speed && a.capacityBps == b.capacityBps &&
                    a.state == b.state);
        }
        for (std::size_t i = 0; i < x.links.size(); ++i) {
            const Link &a = x.links[i], &b = y.links[i];
            QVERIFY(a.a == b.a && a.b == b.b && a.width == b.width && a.speed == b.speed && a.capacityBps == b.capacityBps &&
                    a.seenFromBothEnds == b.seenFromBothEnds);
        }
    }

    // The demo fat tree plus the corners the demo lacks: an Ethernet node without GUID, an
    // unknown width, a down port, a link seen from one end.
    static Fabric variedFabric() {
        Fabric f = demoFabric(DemoOptions::Scale::Small);
        f.nodes.push_back({NodeType::Switch, "", "sw-eth1", "sw-eth1.dc", 64, 0});
        Port p;
        p.node = NodeId(static_cast<std::uint32_t>(f.nodes.size() - 1));
        p.name = "Ethernet8";
        p.speed = "???";
        p.state = PortState::Down;
        f.ports.push_back(p);
        f.links.push_back({PortId(static_cast<std::uint32_t>(f.ports.size() - 1)), PortId(std::uint32_t{0}), std::nullopt, "???", 0, false});
        return f;
    }

private Q_SLOTS:
    void fabricBlobReadsBackTheSameFabricAsTheTables() {
        Store s(path("blob.sqlite"));
        const Fabric f = variedFabric();
        std::int64_t sid = 0;
        {
            Store::Transaction tx(s);
            sid = s.writeSnapshot(f, "varied", 1);
            tx.commit();
        }
        sql::Stmt has(s.handle(), "SELECT count(*) FROM snapshot_fabric WHERE snapshot_id=?1");
        has.bind(1, sid);
        QVERIFY(has.step() && has.integer(0) == 1);
        compareFabrics(s.loadFabric(sid), f);
        compareFabrics(s.loadFabricFromTables(sid), f);
        // The blob is what loadFabric reads: a change to the tables alone does not show.
        sql::exec(s.handle(), "UPDATE snap_nodes SET description=description || '*'");
        QCOMPARE(s.loadFabric(sid).nodes[0].description, f.nodes[0].description);
        QCOMPARE(s.loadFabricFromTables(sid).nodes[0].description, f.nodes[0].description + "*");
        sql::exec(s.handle(), "UPDATE snap_nodes SET description=substr(description, 1, length(description) - 1)");

        // A damaged blob, or none (a snapshot written before schema v5), reads from the tables.
        sql::exec(s.handle(), "UPDATE snapshot_fabric SET data=substr(data, 1, 200)");
        compareFabrics(s.loadFabric(sid), f);
        sql::exec(s.handle(), "DELETE FROM snapshot_fabric");
        compareFabrics(s.loadFabric(sid), f);
    }

    void damagedFabricBlobsAreRefusedNotTrusted() {
        const std::string blob = encodeFabric(variedFabric());
        QVERIFY(decodeFabric(blob).has_value());
        for (std::size_t n = 0; n < blob.size(); n += 7) QVERIFY(!decodeFabric(std::string_view(blob).substr(0, n)));
        QVERIFY(!decodeFabric(blob + "x"));
        // A count or index blown up by one flipped byte is caught, never followed.
        for (std::size_t at = 4; at < blob.size(); at += 13) {
            std::string bad = blob;
            bad[at] = static_cast<char>(bad[at] ^ 0x80);
            (void)decodeFabric(bad);  // may decode (a changed string byte); must not crash or over-read
        }
        std::string hugeCount = blob;
        hugeCount[4] = hugeCount[5] = hugeCount[6] = hugeCount[7] = '\xff';
        QVERIFY(!decodeFabric(hugeCount));
    }

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
        // The bytes written: a marker 0 and the count, then the first time, the first step and
        // each change of step as zigzag LEB128 varints; values: kind 2, count, zigzag deltas.
        QCOMPARE(encodeTimes(std::vector<std::int64_t>{1000, 1010}), std::string("\x00\x02\xd0\x0f\x14", 5));
        QCOMPARE(encodeValues(std::vector<double>{5, 3}), std::string("\x02\x02\x0a\x03", 4));
        QCOMPARE(encodeValues(std::vector<double>{0.5}), std::string("\x01\x01", 2) + std::string("\0\0\0\0\0\0\xe0\x3f", 8));
        // The bytes stores written before run coding hold (count, then plain zigzag deltas; an
        // empty times block is one 0) still read as the same samples.
        t2.clear();
        decodeTimes(std::string_view("\x02\xd0\x0f\x14", 4), t2);
        QCOMPARE(t2, (std::vector<std::int64_t>{1000, 1010}));
        t2.clear();
        decodeTimes(std::string_view("\x00", 1), t2);
        QVERIFY(t2.empty());
        v2.clear();
        decodeValues(std::string_view("\x00\x02\x0a\x03", 4), v2);
        QCOMPARE(v2, (std::vector<double>{5, 3}));
        // A regular scrape's times and a quiet counter's values are runs of zeros: 120 samples
        // take a few bytes, not one or more each. A missed poll and a burst break the runs and
        // still round-trip.
        std::vector<std::int64_t> regular;
        for (std::int64_t i = 0; i < 120; ++i) regular.push_back(1'767'225'600'000 + 10'000 * (i < 60 ? i : i + 1));
        QVERIFY2(encodeTimes(regular).size() <= 24, std::to_string(encodeTimes(regular).size()).c_str());
        t2.clear();
        decodeTimes(encodeTimes(regular), t2);
        QCOMPARE(t2, regular);
        std::vector<double> quiet(120, 7.0);
        quiet[90] = 9;
        quiet[91] = 12;
        QVERIFY2(encodeValues(quiet).size() <= 12, std::to_string(encodeValues(quiet).size()).c_str());
        v2.clear();
        decodeValues(encodeValues(quiet), v2);
        QCOMPARE(v2, quiet);
        // A run claiming more samples than the block holds is damage, not trusted.
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeValues(std::string_view("\x02\x03\x00\x05", 4), v2));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeTimes(std::string_view("\x00\x03\x02\x00\x02", 5), t2));
        // A block holds at most kMaxBlockSamples: more is not written, and a few bytes claiming
        // more (one run of zeros) are refused before anything is allocated for them.
        QVERIFY_THROWS_EXCEPTION(std::length_error, (void)encodeTimes(std::vector<std::int64_t>(kMaxBlockSamples + 1, 0)));
        QVERIFY_THROWS_EXCEPTION(std::length_error, (void)encodeValues(std::vector<double>(kMaxBlockSamples + 1, 0.0)));
        QCOMPARE(encodeValues(std::vector<double>(kMaxBlockSamples, 0.0)).size(), std::size_t{8});  // the largest block, all zeros
        const std::string_view claimsMore("\x02\x81\x80\x40\x00\x80\x80\x40", 8);  // kind 2, 2^20 + 1 samples in one run of zeros
        std::vector<double> untouched;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeValues(claimsMore, untouched));
        QCOMPARE(untouched.capacity(), std::size_t{0});
        // An import encodes a block's chunks into one buffer: appended after other blobs, the same
        // bytes (integer and raw-double values, every times block).
        const std::vector<double> counts{5, 3, 1e15};
        std::string buffer = "prefix";
        appendEncodedTimes(t, buffer);
        appendEncodedValues(counts, buffer);
        appendEncodedValues(fractions, buffer);
        QCOMPARE(buffer, "prefix" + encodeTimes(t) + encodeValues(counts) + encodeValues(fractions));
        // Deltas of every varint length (1-10 bytes), read 8 bytes at a time mid-block and byte
        // by byte near its end.
        std::vector<std::int64_t> steps{0};
        for (int bits = 6; bits < 63; bits += 7)
            for (std::int64_t d : {(std::int64_t{1} << bits) - 1, std::int64_t{1} << bits, -(std::int64_t{1} << bits)})
                // Summed with wrap-around, as the codec subtracts: a signed sum overflows at 2^62.
                steps.push_back(static_cast<std::int64_t>(static_cast<std::uint64_t>(steps.back()) + static_cast<std::uint64_t>(d)));
        for (std::size_t skip = 0; skip < 12; ++skip) {
            const std::vector<std::int64_t> tail(steps.begin() + static_cast<std::ptrdiff_t>(skip), steps.end());
            t2.clear();
            decodeTimes(encodeTimes(tail), t2);
            QCOMPARE(t2, tail);
        }
    }

    // `fabscope info` (and the window's header) counts the snapshot from its blob and totals the
    // chunks of a large read-only store on several connections: the figures the tables and one
    // connection give.
    void infoCountsTheSameFromTheBlobAndOnSeveralConnections() {
        const auto p = path("info.sqlite");
        Fabric f = variedFabric();  // has a down port
        f.nodes.push_back({NodeType::Router, "0x99", "router1", "", 2, 0});
        {
            Store s(p);
            Store::Transaction tx(s);
            s.writeSnapshot(f, "varied", 1);
            std::vector<std::int64_t> series;
            for (int port = 1; port <= 5; ++port) series.push_back(s.ensureSeries(1, "leaf01", std::to_string(port), "xmit_bytes", "bytes"));
            // 20,000 one-sample chunks of 5 series, more than one connection totals (a range of
            // series each); times out of row order.
            for (std::int64_t i = 0; i < 20000; ++i) {
                const std::int64_t t = 1700000000000LL + (i * 7919) % 20000 * 10;
                const double v = static_cast<double>(i);
                s.appendChunk(series[static_cast<std::size_t>(i % 5)], std::span(&t, 1), std::span(&v, 1));
            }
            tx.commit();
        }
        const auto check = [&](const StoreInfo& info) {
            QCOMPARE(info.switches, f.count(NodeType::Switch));
            QCOMPARE(info.cas, f.count(NodeType::Ca));
            QCOMPARE(info.routers, std::size_t{1});
            QCOMPARE(info.ports, f.ports.size() - 1);  // the down port is not counted
            QCOMPARE(info.links, f.links.size());
            QCOMPARE(info.samples, std::size_t{20000});
            QCOMPARE(*info.timeStart, 1700000000.0);
            QCOMPARE(*info.timeEnd, 1700000199.99);
        };
        Store rw(p);  // read-write: one connection
        check(rw.info());
        qputenv("FABSCOPE_THREADS", "3");
        check(Store(p, Store::Mode::ReadOnly).info());
        qunsetenv("FABSCOPE_THREADS");
        sql::exec(rw.handle(), "DELETE FROM snapshot_fabric");  // as a store written before v5
        check(rw.info());
        check(Store(p, Store::Mode::ReadOnly).info());
        // The span alone (the analysis window's default), on several connections; none when empty.
        qputenv("FABSCOPE_THREADS", "3");
        const Store::SampleSpan span = Store(p, Store::Mode::ReadOnly).sampleSpan();
        qunsetenv("FABSCOPE_THREADS");
        QCOMPARE(span.samples, std::int64_t{20000});
        QCOMPARE(*span.firstMs, std::int64_t{1700000000000});
        QCOMPARE(*span.lastMs, std::int64_t{1700000199990});
        const Store::SampleSpan none = Store(path("no_samples.sqlite")).sampleSpan();
        QCOMPARE(none.samples, std::int64_t{0});
        QVERIFY(!none.firstMs && !none.lastMs);
    }

    // Parallel reads go through kept read-only connections: the same one again for a thread, and
    // one that sees what a writer committed after it was opened (the GUI analysing after an import).
    void siblingConnectionsAreKeptAndSeeLaterCommits() {
        const auto p = path("siblings.sqlite");
        Store rw(p);
        const Store ro(p, Store::Mode::ReadOnly);
        const Store& one = ro.sibling(1);
        QVERIFY(one.readOnly());
        // Parallel work splits from the read-only store, not again from one of its siblings.
        QVERIFY(ro.splitsWork() && !one.splitsWork() && !rw.splitsWork());
        QCOMPARE(one.path(), p);
        QCOMPARE(&ro.sibling(1), &one);
        QVERIFY(&ro.sibling(2) != &one);
        QCOMPARE(one.series().size(), std::size_t{0});
        {
            Store::Transaction tx(rw);
            rw.ensureSeries(1, "leaf01", "33", "xmit_bytes", "bytes");
            tx.commit();
        }
        QCOMPARE(one.series().size(), std::size_t{1});
        QCOMPARE(one.series().front().port, std::string("33"));
    }

    // Two writers on one store (the GUI's and a CLI import): a series the other connection made
    // after this one had read the series is found, one by one or in a batch, not made twice.
    void seriesAnotherConnectionMadeAreNotMadeTwice() {
        const auto p = path("two-writers.sqlite");
        Store a(p), b(p);
        auto one = [](Store& s, const char* port) {
            Store::Transaction tx(s);
            const auto id = s.ensureSeries(1, "leaf01", port, "rcv_bytes", "bytes");
            tx.commit();
            return id;
        };
        auto batch = [](Store& s, std::vector<SeriesInfo> series) {
            Store::Transaction tx(s);
            auto ids = s.ensureSeries(series);
            tx.commit();
            return ids;
        };
        QCOMPARE(one(b, "1"), std::int64_t{1});  // b has read the series
        const auto made = one(a, "2");
        QCOMPARE(one(b, "2"), made);
        const auto third = one(a, "3");
        QCOMPARE(batch(b, {{0, 1, "leaf01", "3", "rcv_bytes", "bytes"}, {0, 1, "leaf01", "4", "rcv_bytes", "bytes"}}),
                 (std::vector<std::int64_t>{third, third + 1}));
        QCOMPARE(one(a, "4"), third + 1);
        QCOMPARE(a.series().size(), std::size_t{4});
    }

    // Many series at once (an import's): the ids and rows one call each gives, across the
    // 64-row statements, with series already stored, repeated in the batch, unmapped or not.
    void seriesCreatedTogetherAreThoseCreatedOneByOne() {
        auto make = [](int i) {
            const std::int64_t device = i % 5 == 0 ? 0 : 1 + i % 3;  // every 5th unmapped
            return SeriesInfo{0, device, "node" + std::to_string(i % 4), std::to_string(i / 2 % 90),
                              i % 2 ? "xmit_bytes" : (i % 3 ? "rcv_bytes" : "vendor_thing"), "bytes"};
        };
        std::vector<SeriesInfo> batch;
        for (int i = 0; i < 300; ++i) batch.push_back(make(i));
        auto rows = [](Store& s) {
            std::vector<std::string> out;
            sql::Stmt q(s.handle(), "SELECT s.id, device_id, quote(unmapped_ref), node_ref, port, c.name FROM series s "
                                    "JOIN counters c ON c.id = s.counter_id ORDER BY s.id");
            while (q.step())
                out.push_back(std::to_string(q.integer(0)) + " " + std::to_string(q.integer(1)) + " " + q.text(2) + " " + q.text(3) +
                              " " + q.text(4) + " " + q.text(5));
            return out;
        };
        Store one(path("one-by-one.sqlite")), together(path("together.sqlite"));
        std::vector<std::int64_t> oneIds;
        for (Store* s : {&one, &together}) s->ensureSeries(2, "node2", "7", "xmit_bytes", "bytes");  // stored before
        for (const SeriesInfo& x : batch) oneIds.push_back(one.ensureSeries(x.deviceId, x.nodeRef, x.port, x.counter, x.unit));
        QCOMPARE(together.ensureSeries(batch), oneIds);
        QCOMPARE(rows(together), rows(one));
        QVERIFY(rows(one).size() > 130);  // more than two full statements of new series
        QCOMPARE(together.ensureSeries(batch), oneIds);  // all known now: nothing new
        QCOMPARE(together.ensureSeries(1, "node1", "0", "rcv_bytes", "bytes"), one.ensureSeries(1, "node1", "0", "rcv_bytes", "bytes"));
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

    // A version 7 store's chunks index gains each chunk's end and count: its span and sample
    // total are then read from the index alone; before the migration (read-only) they are right too.
    void migratesVersion7StoreChunkIndex() {
        const auto p = path("v7.sqlite");
        {
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(p.c_str(), &db), SQLITE_OK);
            for (int v = 1; v <= 7; ++v) sql::exec(db, std::string(migrationScript(v)).c_str());
            sql::exec(db, "PRAGMA user_version=7");
            sql::exec(db, "INSERT INTO counters(id,name,unit) VALUES(1,'xmit_bytes','bytes');"
                          "INSERT INTO series(id,device_id,unmapped_ref,node_ref,port,counter_id) VALUES(1,0,'leaf01','leaf01','1',1),(2,0,'leaf01','leaf01','2',1);"
                          "INSERT INTO chunks(series_id,t0,t1,n,times,vals,import_id) VALUES(1,5000,9000,3,x'',x'',1),(2,1000,4000,2,x'',x'',1),(1,9500,12000,4,x'',x'',1)");
            sqlite3_close(db);
        }
        const auto check = [](const StoreInfo& info) {
            QCOMPARE(info.samples, std::size_t{9});
            QCOMPARE(*info.timeStart, 1.0);
            QCOMPARE(*info.timeEnd, 12.0);
        };
        check(Store(p, Store::Mode::ReadOnly).info());  // not migrated: the old index, the table read
        QVERIFY(Store(p, Store::Mode::ReadOnly).seriesPeaks(INT64_MIN, INT64_MAX).empty());  // no peaks to read: load every series
        Store s(p);
        QCOMPARE(s.schemaVersion(), Store::kSchemaVersion);
        const auto series = s.series();  // the series table rebuilt (v11): rows and ids kept
        QCOMPARE(series.size(), std::size_t{2});
        QCOMPARE(series[1].id, std::int64_t{2});
        QCOMPARE(series[1].port, std::string("2"));
        QCOMPARE(series[1].counter, std::string("xmit_bytes"));
        std::vector<std::string> columns;
        for (sql::Stmt c(s.handle(), "SELECT name FROM pragma_index_info('chunks_by_series') ORDER BY seqno"); c.step();) columns.push_back(c.text(0));
        QCOMPARE(columns, (std::vector<std::string>{"series_id", "t0", "t1", "n", "peak"}));
        const auto peaks = s.seriesPeaks(INT64_MIN, INT64_MAX);  // chunks from before schema 10: peaks unknown
        QCOMPARE(peaks.size(), std::size_t{3});
        QVERIFY(std::isinf(peaks[1]) && std::isinf(peaks[2]));
        sql::Stmt plan(s.handle(), "EXPLAIN QUERY PLAN SELECT coalesce(sum(n),0), min(t0), max(t1) FROM chunks WHERE series_id BETWEEN 1 AND 2");
        QVERIFY(plan.step());
        QVERIFY2(plan.text(3).find("COVERING INDEX chunks_by_series") != std::string::npos, plan.text(3).c_str());
        check(s.info());
    }

    // Each chunk's peak rate is written with it and read per series for a window, from the index.
    void seriesPeaksAreEachChunksSteepestRise() {
        Store s(path("peaks.sqlite"));
        std::int64_t rising = 0, split = 0, falling = 0, old = 0;
        {
            Store::Transaction tx(s);
            rising = s.ensureSeries(0, "leaf01", "1", "xmit_bytes", "bytes");
            split = s.ensureSeries(0, "leaf01", "2", "xmit_bytes", "bytes");
            falling = s.ensureSeries(0, "leaf01", "3", "symbol_errors", "");
            old = s.ensureSeries(0, "leaf01", "4", "symbol_errors", "");
            s.appendChunk(rising, std::vector<std::int64_t>{0, 1000, 2000, 4000}, std::vector<double>{0, 100, 400, 500});
            s.appendChunk(split, std::vector<std::int64_t>{0, 1000}, std::vector<double>{0, 10});
            s.appendChunk(split, std::vector<std::int64_t>{5000, 6000}, std::vector<double>{20, 40});
            s.appendChunk(falling, std::vector<std::int64_t>{0, 1000, 2000}, std::vector<double>{7, 7, 3});
            s.appendChunk(old, std::vector<std::int64_t>{0, 1000, 2000}, std::vector<double>{0, 50, 100});
            sql::Stmt forget(s.handle(), "UPDATE chunks SET peak=NULL WHERE series_id=?1");  // as written before schema 10
            forget.bind(1, old).run();
            tx.commit();
        }
        const auto at = [](std::int64_t id) { return static_cast<std::size_t>(id); };
        const auto all = s.seriesPeaks(INT64_MIN, INT64_MAX);
        QCOMPARE(all.size(), static_cast<std::size_t>(old + 1));
        QCOMPARE(all[at(rising)], 300.0);  // 100/s, 300/s, then 100 over 2 s: 50/s
        QVERIFY(std::isinf(all[at(split)]));  // two chunks: the 10 -> 20 between them is in neither's peak
        QCOMPARE(all[at(falling)], 0.0);      // never rose (it fell: a reset)
        QVERIFY(std::isinf(all[at(old)]));
        const auto late = s.seriesPeaks(5000, 7000);  // only the second chunk of `split` is in it
        QCOMPARE(late[at(split)], 20.0);
        QCOMPARE(late[at(rising)], 0.0);  // no samples there
        sql::Stmt plan(s.handle(), "EXPLAIN QUERY PLAN SELECT series_id, peak FROM chunks INDEXED BY chunks_by_series WHERE t1>=0 AND t0<=1");
        QVERIFY(plan.step());
        QVERIFY2(plan.text(3).find("COVERING INDEX chunks_by_series") != std::string::npos, plan.text(3).c_str());
    }

    // A version 3 store that already made its annotations table the pre-v4 way keeps its notes.
    void migratesVersion3StoreWithAnnotations() {
        const auto p = path("v3.sqlite");
        {
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(p.c_str(), &db), SQLITE_OK);
            for (int v = 1; v <= 3; ++v) sql::exec(db, std::string(migrationScript(v)).c_str());
            sql::exec(db, "PRAGMA user_version=3");
            sql::exec(db, "CREATE TABLE annotations(id INTEGER PRIMARY KEY, start REAL NOT NULL, end REAL NOT NULL, "
                          "note TEXT NOT NULL, author TEXT NOT NULL DEFAULT '', created_at REAL NOT NULL, "
                          "ports TEXT NOT NULL DEFAULT '[]')");
            sql::exec(db, "INSERT INTO annotations(start,end,note,created_at) VALUES(10,20,'spine01 maintenance',1)");
            sqlite3_close(db);
        }
        Store s(p);
        QCOMPARE(s.schemaVersion(), Store::kSchemaVersion);
        const auto notes = annotations(s);
        QCOMPARE(notes.size(), std::size_t{1});
        QCOMPARE(notes[0].note, std::string("spine01 maintenance"));
        QVERIFY(loadProbes(s).empty());
    }

    void probesAndCollectiveRunsRoundTrip() {
        Store s(path("probes.sqlite"));
        ProbeResult lost{"pingmesh", 1700000010, "gpu001", "gpu009", 10, 10, std::nullopt, 0, {}, {"leaf01 p3", "spine02"}};
        ProbeResult lat{"ib_write_lat", 1700000000, "gpu001", "gpu002", 1000, 0, 1.92, 2, {{"t_min_us", 1.81}, {"p99_us", 2.5}}, {}};
        CollectiveRun run{0, "all_reduce_perf", 1700000100, {"gpu001", "gpu002"}, 21.5, {}, {}};
        run.rows.push_back({8, 2, "float", "sum", 18.4, 0.0, 0.0, 18.1, 0.0, 0.0, 0});
        run.rows.push_back({1LL << 30, 1LL << 28, "float", "sum", 48000.0, 22.4, 22.4, std::nullopt, std::nullopt, std::nullopt, 3});
        {
            Store::Transaction tx(s);
            const auto id = s.recordImport("probes.csv", "sha-probes", "pingmesh", 4);
            writeProbes(s, id, {lost, lat});
            writeCollectiveRun(s, id, run);
            tx.commit();
        }
        const auto probes = loadProbes(s);
        QCOMPARE(probes.size(), std::size_t{2});
        QCOMPARE(probes[0].tool, std::string("ib_write_lat"));  // ordered by time
        QCOMPARE(*probes[0].latencyUs, 1.92);
        QCOMPARE(*probes[0].stat("p99_us"), 2.5);
        QVERIFY(!probes[0].stat("p999_us"));
        QVERIFY(!probes[1].latencyUs);
        QCOMPARE(probes[1].lost, std::int64_t{10});
        QCOMPARE(probes[1].path, (std::vector<std::string>{"leaf01 p3", "spine02"}));
        QCOMPARE(loadProbes(s, 1700000005.0).size(), std::size_t{1});
        const auto runs = loadCollectiveRuns(s);
        QCOMPARE(runs.size(), std::size_t{1});
        QCOMPARE(runs[0].hosts, run.hosts);
        QCOMPARE(*runs[0].avgBusbwGBs, 21.5);
        QCOMPARE(runs[0].rows.size(), std::size_t{2});
        QCOMPARE(runs[0].rows[1].sizeBytes, std::int64_t{1} << 30);
        QVERIFY(!runs[0].rows[1].inPlaceTimeUs);
        QCOMPARE(runs[0].rows[1].wrong, std::int64_t{3});
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
