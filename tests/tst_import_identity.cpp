// Which files are one import: the same bytes under the same names. Importers that take a host or a
// job from the file's name make two hosts' files of the same bytes two imports (idle switches'
// all-zero PFC counters; one host list for two runs of a job), where they used to be one and the
// second host was lost as "already imported". The same file again, or a copy naming the same host,
// is still a repeat. A store written before names counted (schema 16) keeps its imports and ids.
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>

using namespace fabscope;

namespace {

const char* kRule = "-----------  ------  ------  ------  ------  ------  ------  ------  ------\n";

// A `show pfc counters` capture of a switch that paused nothing: every counter 0, so two switches'
// captures are the same bytes. `node` adds SONiC's `# node:` line, which names the switch itself.
std::string idlePfc(const std::string& node = {}) {
    std::string rows;
    for (const char* port : {"Ethernet0", "Ethernet4"})
        rows += std::string("  ") + port + "       0       0       0       0       0       0       0     N/A\n";
    return (node.empty() ? std::string() : "# node: " + node + "\n") + "1700000000\nadmin@sonic:~$ show pfc counters\n" +
           "    Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + kRule + rows + "\n" +
           "    Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n" + kRule + rows + "\n";
}

std::set<std::string> nodesWithSeries(const Store& store) {
    std::set<std::string> out;
    for (const auto& s : store.series()) out.insert(s.nodeRef);
    return out;
}

struct Dir {
    QTemporaryDir tmp;
    std::string file(const QString& name, const std::string& body) const {
        const QString path = tmp.filePath(name);
        QDir().mkpath(QFileInfo(path).absolutePath());
        std::ofstream(path.toStdString()) << body;
        return path.toStdString();
    }
    std::string path(const char* name) const { return tmp.filePath(QString::fromLatin1(name)).toStdString(); }
};

} // namespace

class TestImportIdentity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void idleSwitchesOfTheSameBytesAreEachImported() {
        Dir d;
        const auto leaf01 = d.file(QStringLiteral("leaf01.pfc.txt"), idlePfc());
        const auto leaf02 = d.file(QStringLiteral("leaf02.pfc.txt"), idlePfc());
        Store store(d.path("s.sqlite"));
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto both = runner.run({leaf01, leaf02}, {});
        QCOMPARE(both.count(FileStatus::Imported), std::size_t{2});
        QCOMPARE(both.count(FileStatus::AlreadyImported), std::size_t{0});
        QCOMPARE(nodesWithSeries(store), (std::set<std::string>{"leaf01", "leaf02"}));

        // A third switch's in a later call: checked against the stored imports, not only this call's.
        const auto leaf03 = d.file(QStringLiteral("leaf03.pfc.txt"), idlePfc());
        QCOMPARE(runner.run({leaf03}, {}).count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(nodesWithSeries(store), (std::set<std::string>{"leaf01", "leaf02", "leaf03"}));

        // The same files again, and a copy of leaf01's in another folder: repeats, saying of which.
        const auto copy = d.file(QStringLiteral("again/leaf01.pfc.txt"), idlePfc());
        const auto again = runner.run({leaf01, leaf02, copy}, {});
        QCOMPARE(again.count(FileStatus::AlreadyImported), std::size_t{3});
        QCOMPARE(again.diagnostics.back().file, copy);
        QCOMPARE(again.diagnostics.back().message, "already imported as " + leaf01 + " (same SHA-256): nothing to do");
        QCOMPARE(store.imports().size(), std::size_t{3});
    }

    void aFileThatNamesItsSwitchIsOneImportUnderAnyName() {
        Dir d;
        const auto a = d.file(QStringLiteral("capture-1.txt"), idlePfc("spine01"));
        const auto b = d.file(QStringLiteral("capture-2.txt"), idlePfc("spine01"));
        Store store(d.path("s.sqlite"));
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({a, b}, {});
        QCOMPARE(sum.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(sum.count(FileStatus::AlreadyImported), std::size_t{1});
        QCOMPARE(nodesWithSeries(store), std::set<std::string>{"spine01"});
    }

    void oneHostListForTwoRunsIsTwoJobs() {
        Dir d;
        const std::string hosts = "rank,host,device\n0,gpu01,mlx5_0\n1,gpu02,mlx5_0\n";
        const auto good = d.file(QStringLiteral("run-good.csv"), hosts), bad = d.file(QStringLiteral("run-bad.csv"), hosts);
        // Named by a comment (written without the space read() also accepts): one job, whatever the file's name.
        const auto named1 = d.file(QStringLiteral("a.csv"), "#job: llama\n" + hosts), named2 = d.file(QStringLiteral("b.csv"), "#job: llama\n" + hosts);
        Store store(d.path("s.sqlite"));
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({good, bad, named1, named2}, {});
        QCOMPARE(sum.count(FileStatus::Imported), std::size_t{3});
        QCOMPARE(sum.count(FileStatus::AlreadyImported), std::size_t{1});
        std::multiset<std::string> names;
        for (const auto& job : loadJobs(store)) names.insert(job.name);
        QCOMPARE(names, (std::multiset<std::string>{"llama", "run-bad", "run-good"}));
    }

    void aStoreOfSchema16KeepsItsImports() {
        Dir d;
        const auto leaf01 = d.file(QStringLiteral("leaf01.pfc.txt"), idlePfc());
        const std::string db = d.path("old.sqlite");
        std::vector<ImportRecord> before;
        {
            Store store(db);
            ImporterRegistry reg;
            QCOMPARE(ImportRunner(store, reg).run({leaf01}, {}).count(FileStatus::Imported), std::size_t{1});
            before = store.imports();
        }
        {  // back to schema 16's table: the content alone UNIQUE, no names
            sqlite3* h = nullptr;
            QCOMPARE(sqlite3_open(db.c_str(), &h), SQLITE_OK);
            const char* down = "CREATE TABLE old(id INTEGER PRIMARY KEY, file TEXT NOT NULL, sha256 TEXT NOT NULL UNIQUE, format TEXT NOT NULL,"
                               " rows INTEGER NOT NULL, imported_at REAL NOT NULL, snapshot_id INTEGER);"
                               "INSERT INTO old SELECT id, file, sha256, format, rows, imported_at, snapshot_id FROM imports;"
                               "DROP TABLE imports; ALTER TABLE old RENAME TO imports; PRAGMA user_version=16;";
            QCOMPARE(sqlite3_exec(h, down, nullptr, nullptr, nullptr), SQLITE_OK);
            sqlite3_close(h);
        }
        Store store(db);
        QCOMPARE(store.schemaVersion(), Store::kSchemaVersion);
        const auto after = store.imports();
        QCOMPARE(after.size(), before.size());
        QCOMPARE(after[0].id, before[0].id);  // chunks and jobs refer to it
        QCOMPARE(after[0].sha256, before[0].sha256);
        QVERIFY(!after[0].nameKey);  // unknown then
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        // Its names unknown, it stays a repeat of its content under any name, as it was: never
        // imported twice. A new switch's other bytes import, and count their names from now on.
        const auto leaf02 = d.file(QStringLiteral("leaf02.pfc.txt"), idlePfc());
        QCOMPARE(runner.run({leaf01, leaf02}, {}).count(FileStatus::AlreadyImported), std::size_t{2});
        const auto leaf03 = d.file(QStringLiteral("leaf03.pfc.txt"), idlePfc("") + "\n");
        const auto leaf04 = d.file(QStringLiteral("leaf04.pfc.txt"), idlePfc("") + "\n");
        QCOMPARE(runner.run({leaf03, leaf04}, {}).count(FileStatus::Imported), std::size_t{2});
        QCOMPARE(nodesWithSeries(store), (std::set<std::string>{"leaf01", "leaf03", "leaf04"}));
    }
};

QTEST_GUILESS_MAIN(TestImportIdentity)
#include "tst_import_identity.moc"
