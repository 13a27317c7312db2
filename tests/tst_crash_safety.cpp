// Whatever happens to an import — killed, disk full, read-only store — the store keeps exactly
// what it held before and passes SQLite's integrity check.
#include "core/demo_fabric.h"
#include "core/store/sqlite_stmt.h"
#include "importers/import_runner.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
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

// A counter file of `rows` rows on the demo's switch ports, shaped like a real byte counter's
// (times off the grid by a few hundred ms, deltas that vary), so its chunks do not shrink to a
// few bytes each and the import is still writing when the test kills it.
void writeBigCsv(const std::string& path, int rows) {
    std::ofstream out(path);
    out << "timestamp,node,port,counter,value\n";
    char ms[8];
    for (int i = 0; i < rows; ++i) {
        std::snprintf(ms, sizeof ms, ".%03d", i * 131 % 1000);
        out << 1800000000 + i / 96 << ms << ",leaf0" << 1 + i % 8 << "," << 1 + (i / 8) % 12 << ",xmit_bytes,"
            << std::int64_t{i} * 1000 + std::int64_t{i} * 7919 % 1000 << "\n";
    }
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

    void killedImportLeavesTheStoreAsItWas_data() {
        QTest::addColumn<qint64>("grownBy");  // bytes the store file must have grown when killed
        QTest::newRow("first chunks in the file") << qint64(64 << 10);
        QTest::newRow("1 MiB of chunks in the file") << qint64(1 << 20);
        QTest::newRow("4 MiB of chunks in the file") << qint64(4 << 20);
    }

    void killedImportLeavesTheStoreAsItWas() {
        QFETCH(qint64, grownBy);
        const std::string store = demoStore("killed.sqlite");
        const std::string before = dump(store);
        const qint64 size0 = QFileInfo(QString::fromStdString(store)).size();
        QProcess proc;
        // Small batches: chunks are written every 64 Ki samples and the 2 MiB page cache spills
        // them into the store file itself, so the kill lands on a half-written file.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FABSCOPE_TEST_SMALL_BATCHES"), QStringLiteral("1"));
        proc.setProcessEnvironment(env);
        proc.start(QStringLiteral(FABSCOPE_BIN),
                   {QStringLiteral("import"), QStringLiteral("--db"), QString::fromStdString(store), QString::fromStdString(p("big.csv"))});
        QVERIFY(proc.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(QString::fromStdString(store)).size() >= size0 + grownBy ||
                                     proc.state() != QProcess::Running, 60000);
        QCOMPARE(proc.state(), QProcess::Running);  // still importing when killed, or the test proves nothing
        QVERIFY(QFile::exists(QString::fromStdString(store + "-journal")));  // the rollback journal SQLite recovers from
        proc.kill();                                  // SIGKILL
        QVERIFY(proc.waitForFinished());
        QCOMPARE(proc.exitStatus(), QProcess::CrashExit);
        QVERIFY(QFileInfo(QString::fromStdString(store)).size() >= size0 + grownBy);  // half-written when it died
        QCOMPARE(integrity(store), std::string("ok"));
        QCOMPARE(dump(store), before);
        if (grownBy != (4 << 20)) {
            QFile::remove(QString::fromStdString(store));
            return;
        }
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
