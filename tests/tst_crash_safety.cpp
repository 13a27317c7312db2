// Whatever happens to an import — killed, disk full, read-only store — the store keeps exactly
// what it held before and passes SQLite's integrity check.
#include "core/demo_fabric.h"
#include "core/store/sqlite_stmt.h"
#include "importers/import_runner.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "store_dump.h"

using namespace fabscope;

namespace {

std::string dump(const std::string& path) { return dumpStore(path); }

std::string integrity(const std::string& path) {
    Store s(path, Store::Mode::ReadOnly);
    sql::Stmt check(s.handle(), "PRAGMA integrity_check");
    return check.step() ? check.text(0) : std::string("no answer");
}

// A counter file of `rows` rows on the demo's switch ports.
void writeBigCsv(const std::string& path, int rows) {
    std::ofstream out(path);
    out << "timestamp,node,port,counter,value\n";
    for (int i = 0; i < rows; ++i)
        out << 1800000000 + i / 96 << ",leaf0" << 1 + i % 8 << "," << 1 + (i / 8) % 12 << ",xmit_bytes," << i << "\n";
}

} // namespace

class TestCrashSafety : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string p(const char* n) { return dir_.filePath(QString::fromLatin1(n)).toStdString(); }

    std::string demoStore(const char* name) {
        const std::string demo = p("demo");
        if (!QFile::exists(QString::fromStdString(demo))) writeDemo(demo, {});
        const std::string store = p(name);
        Store s(store);
        ImporterRegistry reg;
        ImportRunner(s, reg).run({demo}, {});
        return store;
    }

private Q_SLOTS:
    void initTestCase() { writeBigCsv(p("big.csv"), 3'000'000); }

    void killedImportLeavesTheStoreAsItWas() {
        const std::string store = demoStore("killed.sqlite");
        const std::string before = dump(store);
        QProcess proc;
        proc.start(QStringLiteral(FABSCOPE_BIN),
                   {QStringLiteral("import"), QStringLiteral("--db"), QString::fromStdString(store), QString::fromStdString(p("big.csv"))});
        QVERIFY(proc.waitForStarted());
        QTest::qWait(250);
        QCOMPARE(proc.state(), QProcess::Running);  // still importing when killed, or the test proves nothing
        proc.kill();                                  // SIGKILL
        QVERIFY(proc.waitForFinished());
        QCOMPARE(proc.exitStatus(), QProcess::CrashExit);
        QCOMPARE(integrity(store), std::string("ok"));
        QCOMPARE(dump(store), before);
        // And the same import then runs to the end.
        Store s(store);
        ImporterRegistry reg;
        const auto summary = ImportRunner(s, reg).run({p("big.csv")}, {});
        QCOMPARE(summary.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(s.info().samples, std::size_t{4 * 128 * 60 + 3'000'000});
    }

    void fullDiskLeavesTheStoreAsItWas() {
        const std::string store = demoStore("full.sqlite");
        const std::string before = dump(store);
        {
            Store s(store);
            // SQLITE_FULL the way a full disk gives it: the file may not grow past a few pages.
            sql::Stmt pages(s.handle(), "PRAGMA page_count");
            QVERIFY(pages.step());
            sql::exec(s.handle(), ("PRAGMA max_page_count=" + std::to_string(pages.integer(0) + 8)).c_str());
            ImporterRegistry reg;
            ImportRunner runner(s, reg);
            QVERIFY_THROWS_EXCEPTION(StoreError, runner.run({p("big.csv")}, {}));
        }
        QCOMPARE(integrity(store), std::string("ok"));
        QCOMPARE(dump(store), before);
    }

    void readOnlyStoreRefusesAndKeepsItsContent() {
        const std::string store = demoStore("ro.sqlite");
        const std::string before = dump(store);
        {
            Store s(store, Store::Mode::ReadOnly);
            ImporterRegistry reg;
            ImportRunner runner(s, reg);
            QVERIFY_THROWS_EXCEPTION(StoreError, runner.run({p("big.csv")}, {}));
        }
        QCOMPARE(dump(store), before);
    }
};

QTEST_GUILESS_MAIN(TestCrashSafety)
#include "tst_crash_safety.moc"
