// Imports are atomic and idempotent: a failing file leaves the store exactly as it was.
#include "core/demo_fabric.h"
#include "core/store/sqlite_stmt.h"
#include "importers/import_runner.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "store_dump.h"

using namespace fabscope;

namespace {

std::string dump(const std::string& path) { return dumpStore(path); }

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

} // namespace

class TestImportRunner : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string p(const char* name) { return dir_.filePath(QString::fromLatin1(name)).toStdString(); }
    ImporterRegistry registry_;

private Q_SLOTS:
    void demoDirectoryImportsAsOneSnapshot() {
        const auto m = writeDemo(p("demo"), {});
        Store store(p("demo.sqlite"));
        ImportRunner runner(store, registry_);
        const auto summary = runner.run({p("demo")}, {});
        QVERIFY(!summary.anyFailed());
        QCOMPARE(summary.count(FileStatus::Imported), std::size_t{2});  // the hidden manifest is skipped
        const auto info = store.info();
        QCOMPARE(info.switches, m.switches);
        QCOMPARE(info.cas, m.cas);
        QCOMPARE(info.links, m.links);
        QCOMPARE(info.samples, m.rows);
        QCOMPARE(info.unmappedSeries, std::size_t{0});
        QCOMPARE(info.snapshots, std::vector<std::string>{"demo"});
        QCOMPARE(info.ports, 2 * m.links);
    }

    void reimportIsANoOpThatSaysSo() {
        writeDemo(p("again"), {});
        Store store(p("again.sqlite"));
        ImportRunner runner(store, registry_);
        runner.run({p("again")}, {});
        const std::string before = dump(p("again.sqlite"));
        const auto second = runner.run({p("again/counters.csv"), p("again/topology.ibnetdiscover")}, {});
        QCOMPARE(second.count(FileStatus::AlreadyImported), std::size_t{2});
        QCOMPARE(second.count(FileStatus::Imported), std::size_t{0});
        QVERIFY(second.diagnostics.front().message.find("already imported") != std::string::npos);
        QCOMPARE(dump(p("again.sqlite")), before);
    }

    void failedFileLeavesTheStoreExactlyAsItWas() {
        writeDemo(p("atomic"), {});
        Store store(p("atomic.sqlite"));
        ImportRunner runner(store, registry_);
        runner.run({p("atomic")}, {});
        const std::string before = dump(p("atomic.sqlite"));
        // Valid rows first (they reach the store's buffers), then a bad row deep in the file.
        std::string csv = "timestamp,node,port,counter,value\n";
        for (int i = 0; i < 20000; ++i) csv += std::to_string(1700001000 + i) + ",leaf01,1,xmit_bytes," + std::to_string(i) + "\n";
        csv += "1700099999,leaf01,1,xmit_bytes,oops\n";
        write(p("bad.csv"), csv);
        const auto summary = runner.run({p("bad.csv")}, {});
        QVERIFY(summary.anyFailed());
        const auto& err = summary.diagnostics.back();
        QCOMPARE(err.line, std::int64_t{20002});
        QVERIFY(err.format().starts_with(p("bad.csv") + ":20002: "));
        QCOMPARE(dump(p("atomic.sqlite")), before);
        // The failed file was not recorded: only the demo's two files are.
        QCOMPARE(store.imports().size(), std::size_t{2});
    }

    void cancelRollsBack() {
        writeDemo(p("cancel"), {});
        Store store(p("cancel.sqlite"));
        ImportRunner runner(store, registry_);
        runner.run({p("cancel/topology.ibnetdiscover")}, {});
        const std::string before = dump(p("cancel.sqlite"));
        std::string csv;
        for (int i = 0; i < 200000; ++i) csv += std::to_string(1700001000 + i) + ",leaf01,1,xmit_bytes," + std::to_string(i) + "\n";
        write(p("big.csv"), "timestamp,node,port,counter,value\n" + csv);
        int calls = 0;
        const auto summary = runner.run({p("big.csv")}, {}, [&calls](double) { return ++calls < 2; });
        QVERIFY(summary.cancelled);
        QCOMPARE(dump(p("cancel.sqlite")), before);
    }

    void unknownFormatAndMissingFileFail() {
        write(p("notes.txt"), "just some notes\n");
        Store store(p("unknown.sqlite"));
        ImportRunner runner(store, registry_);
        const auto summary = runner.run({p("notes.txt"), p("does-not-exist")}, {});
        QCOMPARE(summary.count(FileStatus::Failed), std::size_t{2});
        QVERIFY(store.imports().empty());
    }

    void topologyFilesOfOneCallFormOneSnapshotWithGivenLabelAndTime() {
        QFile::copy(QStringLiteral(FABSCOPE_TEST_DATA "/ibnetdiscover/doc-sample-2.txt"), QString::fromStdString(p("a.txt")));
        QFile::copy(QStringLiteral(FABSCOPE_TEST_DATA "/ibnetdiscover/doc-sample-4.txt"), QString::fromStdString(p("b.txt")));
        Store store(p("snap.sqlite"));
        ImportRunner runner(store, registry_);
        ImportOptions opt;
        opt.snapshotLabel = "before-maintenance";
        opt.snapshotTime = 1700000000;
        runner.run({p("a.txt"), p("b.txt")}, opt);
        const auto snaps = store.snapshots();
        QCOMPARE(snaps.size(), std::size_t{1});
        QCOMPARE(snaps.front().label, std::string("before-maintenance"));
        QCOMPARE(snaps.front().time, 1700000000.0);
        QCOMPARE(store.info().links, std::size_t{3});
        QCOMPARE(store.imports().size(), std::size_t{2});
    }
};

QTEST_GUILESS_MAIN(TestImportRunner)
#include "tst_import_runner.moc"
