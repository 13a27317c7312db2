// Imports are atomic and idempotent: a failing file leaves the store exactly as it was.
#include "core/demo_fabric.h"
#include "core/store/sqlite_stmt.h"
#include "importers/import_runner.h"

#include <algorithm>
#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <tuple>

#include "store_dump.h"

using namespace fabscope;

namespace {

std::string dump(const std::string& path) { return dumpStore(path); }

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// The demo written to `dir` and imported into `db` (the whole folder, or its topology alone),
// with the store's dump at that point: what a failed or cancelled import must leave.
struct DemoStore {
    enum class Import { Whole, TopologyOnly };
    DemoStore(const std::string& dir, const std::string& db, const ImporterRegistry& registry, Import what)
        : store(db), runner(store, registry) {
        writeDemo(dir, {});
        runner.run({what == Import::Whole ? dir : dir + "/topology.ibnetdiscover"}, {});
        before = dump(db);
    }
    Store store;
    ImportRunner runner;
    std::string before;
};

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

    // A capture folder that also holds its store: the store and its journal are no inputs. They
    // failed as "unrecognised format", so such an import exited 1 every time.
    void aFolderHoldingItsStoreImportsTheRest() {
        const auto m = writeDemo(p("withstore"), {});
        Store store(p("withstore/fabric.sqlite"));
        write(p("withstore/fabric.sqlite-journal"), "");  // empty: no hot journal to SQLite
        ImportRunner runner(store, registry_);
        const auto summary = runner.run({p("withstore")}, {});
        QVERIFY(!summary.anyFailed());
        QCOMPARE(summary.count(FileStatus::Imported), std::size_t{2});
        QCOMPARE(summary.count(FileStatus::Skipped), std::size_t{2});
        QCOMPARE(store.info().samples, m.rows);
        const auto named = runner.run({p("withstore/fabric.sqlite")}, {});
        QVERIFY(!named.anyFailed());
        QCOMPARE(named.count(FileStatus::Skipped), std::size_t{1});
        QVERIFY(named.diagnostics.front().message.find("the store this import writes into") != std::string::npos);
    }

    // What a progress line names: each file read, its number among those this call reads (the
    // topology first, whatever the order given), none for files already stored.
    void eachFileReadIsNamedInTurn() {
        writeDemo(p("named"), {});
        Store store(p("named.sqlite"));
        ImportRunner runner(store, registry_);
        std::vector<std::tuple<std::size_t, std::size_t, std::string>> told;
        ImportOptions options;
        options.onFile = [&told](std::size_t number, std::size_t count, const std::string& path) { told.emplace_back(number, count, path); };
        QVERIFY(!runner.run({p("named/counters.csv"), p("named/topology.ibnetdiscover")}, options).anyFailed());
        const decltype(told) expected{{1, 2, p("named/topology.ibnetdiscover")}, {2, 2, p("named/counters.csv")}};
        QCOMPARE(told, expected);
        told.clear();
        QCOMPARE(runner.run({p("named")}, options).count(FileStatus::AlreadyImported), std::size_t{2});
        QVERIFY(told.empty());
    }

    void reimportIsANoOpThatSaysSo() {
        DemoStore demo(p("again"), p("again.sqlite"), registry_, DemoStore::Import::Whole);
        const auto second = demo.runner.run({p("again/counters.csv"), p("again/topology.ibnetdiscover")}, {});
        QCOMPARE(second.count(FileStatus::AlreadyImported), std::size_t{2});
        QCOMPARE(second.count(FileStatus::Imported), std::size_t{0});
        QVERIFY(second.diagnostics.front().message.find("already imported") != std::string::npos);
        QCOMPARE(dump(p("again.sqlite")), demo.before);
    }

    void failedFileLeavesTheStoreExactlyAsItWas() {
        DemoStore demo(p("atomic"), p("atomic.sqlite"), registry_, DemoStore::Import::Whole);
        // Valid rows first (they reach the store's buffers), then a bad row deep in the file.
        std::string csv = "timestamp,node,port,counter,value\n";
        for (int i = 0; i < 20000; ++i) csv += std::to_string(1700001000 + i) + ",leaf01,1,xmit_bytes," + std::to_string(i) + "\n";
        csv += "1700099999,leaf01,1,xmit_bytes,oops\n";
        write(p("bad.csv"), csv);
        const auto summary = demo.runner.run({p("bad.csv")}, {});
        QVERIFY(summary.anyFailed());
        const auto& err = summary.diagnostics.back();
        QCOMPARE(err.line, std::int64_t{20002});
        QVERIFY(err.format().starts_with(p("bad.csv") + ":20002: "));
        QCOMPARE(dump(p("atomic.sqlite")), demo.before);
        // The failed file was not recorded: only the demo's two files are.
        QCOMPARE(demo.store.imports().size(), std::size_t{2});
    }

    void cancelRollsBack() {
        DemoStore demo(p("cancel"), p("cancel.sqlite"), registry_, DemoStore::Import::TopologyOnly);
        std::string csv;
        for (int i = 0; i < 200000; ++i) csv += std::to_string(1700001000 + i) + ",leaf01,1,xmit_bytes," + std::to_string(i) + "\n";
        write(p("big.csv"), "timestamp,node,port,counter,value\n" + csv);
        int calls = 0;
        const auto summary = demo.runner.run({p("big.csv")}, {}, [&calls](double) { return ++calls < 2; });
        QVERIFY(summary.cancelled);
        QCOMPARE(dump(p("cancel.sqlite")), demo.before);
    }

    // A copy of a file is settled after the run: cancelled before the first was stored, it is
    // named as not tried (not as already imported); imported again, it names the stored file.
    void aCopyOfACancelledFileIsNotTried() {
        DemoStore demo(p("twins"), p("twins.sqlite"), registry_, DemoStore::Import::TopologyOnly);
        std::string csv = "timestamp,node,port,counter,value\n";
        for (int i = 0; i < 200000; ++i) csv += std::to_string(1700001000 + i) + ",leaf01,1,xmit_bytes," + std::to_string(i) + "\n";
        write(p("twin_a.csv"), csv);
        write(p("twin_b.csv"), csv);
        int calls = 0;
        const auto cancelled = demo.runner.run({p("twin_a.csv"), p("twin_b.csv")}, {}, [&calls](double) { return ++calls < 2; });
        QVERIFY(cancelled.cancelled);
        QCOMPARE(cancelled.count(FileStatus::AlreadyImported), std::size_t{0});
        QCOMPARE(cancelled.count(FileStatus::Cancelled), std::size_t{2});  // the one read when Cancel came, and its copy
        QCOMPARE(cancelled.diagnostics.back().file, p("twin_b.csv"));
        QCOMPARE(cancelled.diagnostics.back().message, std::string("not imported: the import was cancelled"));
        QCOMPARE(dump(p("twins.sqlite")), demo.before);
        const auto done = demo.runner.run({p("twin_a.csv"), p("twin_b.csv")}, {});
        QCOMPARE(done.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(done.count(FileStatus::AlreadyImported), std::size_t{1});
        QCOMPARE(done.diagnostics.back().message, "already imported as " + p("twin_a.csv") + " (same SHA-256): nothing to do");
    }

    // Copies of a file that failed are each tried alone; a Cancel clicked while the first copy is
    // retried stops it and leaves the last copy untried, and nothing reaches the store.
    void aRetriedCopyCanBeCancelled() {
        DemoStore demo(p("retry"), p("retry.sqlite"), registry_, DemoStore::Import::TopologyOnly);
        std::string csv = "timestamp,node,port,counter,value\n";
        for (int i = 0; i < 200000; ++i) csv += std::to_string(1700001000 + i) + ",leaf01,1,xmit_bytes," + std::to_string(i) + "\n";
        csv += "1700300000,leaf01,1,xmit_bytes,oops\n";  // fails on its last line, after the bar has run
        for (const char* name : {"r1.csv", "r2.csv", "r3.csv"}) write(p(name), csv);
        double highest = 0;
        bool restarted = false;
        const auto summary = demo.runner.run({p("r1.csv"), p("r2.csv"), p("r3.csv")}, {}, [&](double f) {
            restarted = restarted || f < highest;  // the bar starts again: r2 is being retried
            highest = std::max(highest, f);
            return !restarted;
        });
        QVERIFY(restarted);
        QVERIFY(summary.cancelled);
        std::map<std::string, std::pair<FileStatus, std::string>> outcome;
        for (const auto& f : summary.files) outcome[f.file].first = f.status;
        for (const Diagnostic& d : summary.diagnostics) outcome[d.file].second = d.message;
        QCOMPARE(outcome.size(), std::size_t{3});
        QVERIFY(outcome[p("r1.csv")].first == FileStatus::Failed);
        for (const char* name : {"r2.csv", "r3.csv"}) {  // the one retried when Cancel came, and the one after
            QVERIFY(outcome[p(name)].first == FileStatus::Cancelled);
            QCOMPARE(outcome[p(name)].second, std::string("not imported: the import was cancelled"));
        }
        QCOMPARE(summary.count(FileStatus::AlreadyImported), std::size_t{0});
        QCOMPARE(dump(p("retry.sqlite")), demo.before);
    }

    // Empty files (a switch that did not answer perfquery) and copies of a broken file: each is
    // named failed with its own reason, none called a repeat of another.
    void copiesOfAFailingFileEachFail() {
        DemoStore demo(p("copies"), p("copies.sqlite"), registry_, DemoStore::Import::TopologyOnly);
        const std::string bad = "timestamp,node,port,counter,value\n1700001000,leaf01,1,xmit_bytes,oops\n";
        std::vector<std::string> files;
        for (const char* name : {"e1.out", "e2.out", "e3.out"}) {
            write(p(name), "");
            files.push_back(p(name));
        }
        for (const char* name : {"b1.csv", "b2.csv"}) {
            write(p(name), bad);
            files.push_back(p(name));
        }
        const auto summary = demo.runner.run(files, {});
        QCOMPARE(summary.count(FileStatus::Failed), std::size_t{5});
        std::map<std::string, std::string> why;
        for (const Diagnostic& d : summary.diagnostics)
            if (d.severity == Severity::Error) why[d.file] = std::to_string(d.line) + ": " + d.message;
        QCOMPARE(why.size(), std::size_t{5});
        for (const char* name : {"e1.out", "e2.out", "e3.out"}) QCOMPARE(why[p(name)], std::string("1: empty file"));
        QCOMPARE(why[p("b2.csv")], why[p("b1.csv")]);
        QVERIFY(why[p("b1.csv")].starts_with("2: "));
        QCOMPARE(dump(p("copies.sqlite")), demo.before);
    }

    // Cancel clicked once the parse has read the whole file, while the samples are written: the
    // progress shows 100%, and still nothing of the file reaches the store.
    void cancelWhileWritingRollsBack() {
        DemoStore demo(p("late"), p("late.sqlite"), registry_, DemoStore::Import::TopologyOnly);
        std::string csv = "timestamp,node,port,counter,value\n";
        for (int i = 0; i < 100000; ++i) csv += std::to_string(1700001000 + i / 100) + ",leaf01," + std::to_string(i % 100 + 1) + ",xmit_bytes," + std::to_string(i) + "\n";
        write(p("late.csv"), csv);
        double last = 0;
        const auto summary = demo.runner.run({p("late.csv")}, {}, [&last](double f) {
            last = f;
            return f < 1.0;  // the user clicks Cancel as the bar reaches the end
        });
        QCOMPARE(last, 1.0);
        QVERIFY(summary.cancelled);
        QCOMPARE(summary.count(FileStatus::Imported), std::size_t{0});
        QCOMPARE(summary.count(FileStatus::Cancelled), std::size_t{1});  // named, to be imported again
        QCOMPARE(dump(p("late.sqlite")), demo.before);
    }

    // The bar's first half follows the parse, its second the rows' writing, block by block of 64
    // series; a Cancel clicked while the rows are written stops them at the next block.
    void writingReportsProgressAndStopsAtTheNextBlock() {
        DemoStore demo(p("blocks"), p("blocks.sqlite"), registry_, DemoStore::Import::TopologyOnly);
        std::string csv = "timestamp,node,port,counter,value\n";
        for (int t = 0; t < 140; ++t)  // 280,000 rows: written by the encoder thread and this one
            for (int port = 1; port <= 2000; ++port)
                csv += std::to_string(1700001000 + 10 * t) + ",leaf01," + std::to_string(port) + ",xmit_bytes," + std::to_string(t * 7) + "\n";
        write(p("blocks.csv"), csv);
        std::vector<double> seen;
        const auto whole = demo.runner.run({p("blocks.csv")}, {}, [&seen](double f) {
            seen.push_back(f);
            return true;
        });
        QCOMPARE(whole.count(FileStatus::Imported), std::size_t{1});
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
        const auto writing = std::count_if(seen.begin(), seen.end(), [](double f) { return f > 0.5 && f < 1.0; });
        QVERIFY2(writing >= 30, std::to_string(writing).c_str());  // 2,000 series: 32 blocks

        DemoStore again(p("blocks2"), p("blocks2.sqlite"), registry_, DemoStore::Import::TopologyOnly);
        seen.clear();
        const auto cancelled = again.runner.run({p("blocks.csv")}, {}, [&seen](double f) {
            seen.push_back(f);
            return f <= 0.75;  // Cancel, halfway through the writing
        });
        QVERIFY(cancelled.cancelled);
        QVERIFY2(seen.back() > 0.75 && seen.back() < 0.8, std::to_string(seen.back()).c_str());  // not on to the end
        QCOMPARE(dump(p("blocks2.sqlite")), again.before);
    }

    // A counter file of 16 MiB or more is hashed while it is parsed: the same content under
    // another name is still refused, with nothing written, and what is stored is the file's plain
    // SHA-256 (the one `info` and the GUI show, and `sha256sum` prints).
    void largeFileHashedAlongsideItsParseIsStillRecognised() {
        std::string csv = "timestamp,node,port,counter,value\n";
        for (int i = 0; csv.size() < (std::size_t{17} << 20); ++i)
            csv += std::to_string(1700000000 + i / 64) + ",leaf" + std::to_string(i % 64) + ",1,xmit_bytes," + std::to_string(i) + "\n";
        write(p("large_a.csv"), csv);
        write(p("large_b.csv"), csv);  // the same bytes under another name
        std::string changed = csv;
        changed[changed.size() - 2] = changed[changed.size() - 2] == '9' ? '8' : '9';  // one byte of the last value
        write(p("large_c.csv"), changed);

        Store store(p("large.sqlite"));
        ImportRunner runner(store, registry_);
        const auto first = runner.run({p("large_a.csv")}, {});
        QCOMPARE(first.count(FileStatus::Imported), std::size_t{1});
        QFile f(QString::fromStdString(p("large_a.csv")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray sha = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
        QCOMPARE(QByteArray::fromStdString(store.imports().back().sha256), sha);
        const std::string before = dump(p("large.sqlite"));
        const std::int64_t samples = store.info().samples;
        QVERIFY(samples > 400000);

        const auto again = runner.run({p("large_b.csv")}, {});
        QCOMPARE(again.count(FileStatus::AlreadyImported), std::size_t{1});
        QCOMPARE(again.count(FileStatus::Imported), std::size_t{0});
        QVERIFY(again.diagnostics.back().message.find("already imported as " + p("large_a.csv")) != std::string::npos);
        QCOMPARE(dump(p("large.sqlite")), before);

        const auto other = runner.run({p("large_c.csv")}, {});
        QCOMPARE(other.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(store.imports().size(), std::size_t{2});

        // Both copies in one call into a fresh store: one is stored, the other named a repeat.
        Store fresh(p("large_fresh.sqlite"));
        const auto both = ImportRunner(fresh, registry_).run({p("large_a.csv"), p("large_b.csv")}, {});
        QCOMPARE(both.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(both.count(FileStatus::AlreadyImported), std::size_t{1});
        QCOMPARE(fresh.imports().size(), std::size_t{1});
        QCOMPARE(fresh.info().samples, samples);

        // Its hash is held while the parse takes every core; a parse that fails (a bad last row,
        // a NUL byte found before the parse starts) still lets it finish: the run returns, names
        // the file and line, and the store is unchanged.
        write(p("large_bad.csv"), csv + "1700009999,leaf1,1,xmit_bytes,-5\n");
        std::string withNul = csv;
        withNul[withNul.size() / 2] = '\0';
        write(p("large_nul.csv"), withNul);
        const std::string freshBefore = dump(p("large_fresh.sqlite"));
        const auto bad = ImportRunner(fresh, registry_).run({p("large_bad.csv"), p("large_nul.csv")}, {});
        QCOMPARE(bad.count(FileStatus::Failed), std::size_t{2});
        const auto lines = static_cast<std::int64_t>(std::count(csv.begin(), csv.end(), '\n'));
        bool badLineNamed = false;
        for (const Diagnostic& d : bad.diagnostics) badLineNamed |= d.file == p("large_bad.csv") && d.line == lines + 1;
        QVERIFY(badLineNamed);
        QCOMPARE(dump(p("large_fresh.sqlite")), freshBefore);
    }

    // A large counter file imported with a topology is named from its head, and passed over on
    // a thread of its own while the topology is written: a terminal escape deep in it is still
    // cleaned (the same samples as when it comes alone), and a NUL byte deep in it still fails
    // it, named by line, with the topology stored.
    void largeCounterFileBesideATopologyIsCleanedAndChecked() {
        writeDemo(p("beside_demo"), {});
        const std::string topo = p("beside_demo") + "/topology.ibnetdiscover";
        std::string csv = "timestamp,node,port,counter,value\n";
        std::int64_t lines = 1, escapedLine = 0;
        for (int i = 0; csv.size() < (std::size_t{17} << 20); ++i, ++lines) {
            if (i == 300000) {
                csv += "\x1b[0m";  // as a terminal's colour reset lands in a capture
                escapedLine = lines + 1;
            }
            csv += std::to_string(1700000000 + i / 64) + ",leaf" + std::to_string(i % 64) + ",1,xmit_bytes," + std::to_string(i) + "\n";
        }
        QVERIFY(escapedLine > 0);
        write(p("beside.csv"), csv);
        Store alone(p("beside_alone.sqlite"));
        QCOMPARE(ImportRunner(alone, registry_).run({p("beside.csv")}, {}).count(FileStatus::Imported), std::size_t{1});

        Store store(p("beside.sqlite"));
        const auto s = ImportRunner(store, registry_).run({topo, p("beside.csv")}, {});
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{2});
        QCOMPARE(store.imports().back().rows, lines - 1);
        QCOMPARE(store.info().samples, alone.info().samples);
        QVERIFY(store.info().links > 0);

        std::string withNul = csv;
        const std::size_t nulAt = withNul.size() * 3 / 4;
        withNul[nulAt] = '\0';
        write(p("beside_nul.csv"), withNul);
        Store other(p("beside_nul.sqlite"));
        const auto bad = ImportRunner(other, registry_).run({topo, p("beside_nul.csv")}, {});
        QCOMPARE(bad.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(bad.count(FileStatus::Failed), std::size_t{1});
        const auto nulLine = 1 + std::count(withNul.begin(), withNul.begin() + static_cast<std::ptrdiff_t>(nulAt), '\n');
        bool named = false;
        for (const Diagnostic& d : bad.diagnostics) named |= d.file == p("beside_nul.csv") && d.line == nulLine;
        QVERIFY(named);
        QCOMPARE(other.info().samples, std::size_t{0});
        QVERIFY(other.info().links > 0);
    }

    // Large files of other kinds are hashed from the moment they are mapped as well: a 17 MiB
    // topology (the demo's, padded with comment lines) is stored under its plain SHA-256, and a
    // 17 MiB file of no known format fails, named, without waiting for its hash to finish.
    void largeFilesOfOtherKindsAreHashedOrRefused() {
        writeDemo(p("large_demo"), {});
        std::ifstream in(p("large_demo") + "/topology.ibnetdiscover");
        std::string topo((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        while (topo.size() < (std::size_t{17} << 20)) topo += "# a long capture's comment line, kept as it came\n";
        write(p("large_topo.ibnetdiscover"), topo);
        std::string notes;
        while (notes.size() < (std::size_t{17} << 20)) notes += "just some notes, not a capture\n";
        write(p("large_notes.txt"), notes);

        Store store(p("large_other.sqlite"));
        const auto s = ImportRunner(store, registry_).run({p("large_topo.ibnetdiscover"), p("large_notes.txt")}, {});
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(s.count(FileStatus::Failed), std::size_t{1});
        QVERIFY(store.info().links > 0);
        QCOMPARE(QByteArray::fromStdString(store.imports().back().sha256),
                 QCryptographicHash::hash(QByteArray::fromStdString(topo), QCryptographicHash::Sha256).toHex());
        bool notesNamed = false;
        for (const Diagnostic& d : s.diagnostics) notesNamed |= d.file == p("large_notes.txt") && d.message.find("unrecognised format") != std::string::npos;
        QVERIFY(notesNamed);
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
