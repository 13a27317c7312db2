// What engineers bring to a post-mortem, in the shapes real tools write (tests/data/README.md):
// a whole ibdiagnet2 output folder, NCCL 2.18-2.22 logs (tagged, hung, several communicators,
// nccl-tests with NCCL_DEBUG=INFO) and terminal captures. Each test checks what a user would.
#include "core/job_summary.h"
#include "ib_test_util.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "importers/terminal_capture.h"

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <set>

using namespace fabscope;
using namespace ibtest;

namespace {

const std::string kData = FABSCOPE_TEST_DATA;
constexpr double kRunTime = 1743464598;  // RUN_INFO Date "2025-03-31 23:43:18 UTC +0000"

std::size_t count(const ImportSummary& s, FileStatus status) { return s.count(status); }

const SeriesInfo* findSeries(const std::vector<SeriesInfo>& all, const std::string& node, const std::string& port,
                             const std::string& counter) {
    for (const auto& s : all)
        if (s.nodeRef == node && s.port == port && s.counter == counter) return &s;
    return nullptr;
}

StoredJob onlyJob(const Store& store) {
    const auto jobs = loadJobs(store);
    if (jobs.size() != 1) qFatal("expected one job, found %zu", jobs.size());
    return jobs.front();
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

class TestRealCaptures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ibdiagnetFolderIsOneInput() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/ibdiagnet2-run/"}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        QCOMPARE(count(s, FileStatus::Imported), std::size_t{2});  // the db_csv and the cables
        // log, pkey, sm, debug, topodiff.names, and ibnetdiscover (the same fabric again)
        QCOMPARE(count(s, FileStatus::Skipped), std::size_t{6});
        const std::string said = messages(s);
        QVERIFY2(said.find("ibdiagnet2.pkey: note: partition keys, not used: skipped") != std::string::npos, said.c_str());
        QVERIFY(said.find("ibdiagnet2.ibnetdiscover: note: the run's fabric in ibnetdiscover form: read from ibdiagnet2.db_csv") !=
                std::string::npos);

        const auto info = store.info();
        QCOMPARE(info.switches, std::size_t{2});
        QCOMPARE(info.cas, std::size_t{4});
        QCOMPARE(info.links, std::size_t{5});
        QCOMPARE(store.latestSnapshot()->time, kRunTime);  // the run's date, not the file's mtime
        QCOMPARE(*info.timeStart, kRunTime);
        QCOMPARE(*info.timeEnd, kRunTime + 2);  // ibdiagnet2.log: "Going to sleep for 2 seconds"

        // NDR everywhere: 2052 (NDR with the legacy field at QDR) on the managed switch too.
        const Fabric f = store.loadFabric(store.latestSnapshot()->id);
        for (const Link& l : f.links) {
            QCOMPARE(l.speed, std::string("NDR"));
            QCOMPARE(l.capacityBps, std::uint64_t{400'000'000'000});
        }
        for (const Port& p : f.ports)
            if (p.state == PortState::Active) QVERIFY2(p.capacityBps > 0, p.name.c_str());
    }

    void pmDeltaGivesARateForThatPause() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        ImportRunner(store, registry).run({kData + "/ibdiagnet2-run/"}, {});
        const auto all = store.series();
        // The inter-switch port sent 10^9 4-byte words over the 2 s pause: 2 GB/s = 16 Gb/s.
        const auto* xmit = findSeries(all, "0xb0cf0e0300d33fc0", "3", "xmit_bytes");
        QVERIFY(xmit);
        const auto d = store.loadSeries(xmit->id);
        QCOMPARE(d.timesMs, (std::vector<std::int64_t>{1743464598000, 1743464600000}));
        const double bytesPerSecond = (d.values[1] - d.values[0]) / 2.0;
        QCOMPARE(bytesPerSecond, 2e9);
        QCOMPARE(d.values[0], (299195507523.0 + 2 * 1000) * 4);  // the 64-bit PortXmitDataExtended, not 2^32-1
        // Every counter with a PM_DELTA row has its two samples one pause apart.
        std::size_t two = 0;
        for (const auto& s : all) {
            const auto data = store.loadSeries(s.id);
            if (data.timesMs.size() == 2) {
                QCOMPARE(data.timesMs[1] - data.timesMs[0], std::int64_t{2000});
                ++two;
            }
        }
        QVERIFY(two >= 10 * 7);  // 10 ports x at least the packet, data, wait and error counters
    }

    void ibdiagnetsOwnIbnetdiscoverReadsTheSameFabric() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/ibdiagnet2-run/ibdiagnet2.ibnetdiscover"}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());  // "[1](1/1/1)" and "[1](1)(guid)" port labels
        const auto info = store.info();
        QCOMPARE(info.switches, std::size_t{2});
        QCOMPARE(info.cas, std::size_t{4});
        QCOMPARE(info.links, std::size_t{5});
        const Fabric f = store.loadFabric(store.latestSnapshot()->id);
        const auto hca = std::find_if(f.ports.begin(), f.ports.end(), [](const Port& p) { return p.portGuid == "0x5c25730300e6706e"; });
        QVERIFY(hca != f.ports.end());  // the CA port's GUID, not its "(1)" label
    }

    void ncclTestsWithInfoLogIsABenchmarkAndAJob() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/nccl-log/all_reduce-nccl2.22-ib-info.log"}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        const StoredJob job = onlyJob(store);
        QCOMPARE(job.details.ncclVersion, std::string("2.22.3+cuda12.6"));
        QCOMPARE(job.details.nranks, 4);
        QCOMPARE(job.ranks.size(), std::size_t{4});
        for (const auto& r : job.ranks) {
            QCOMPARE(r.host, std::string(r.rank < 2 ? "gpu-a" : "gpu-b"));
            QCOMPARE(r.device, std::string("mlx5_2"));  // NET/IB/1 of "[0]mlx5_0 [1]mlx5_2 [2]mlx5_3"
            QVERIFY(r.line > 0);
        }
        const JobSummary sum = summarise(job);
        QCOMPARE(sum.ringChannels, std::size_t{2});
        QCOMPARE(sum.treeChannels, std::size_t{2});
        QCOMPARE(sum.transports.at("NET/IB/GDRDMA"), std::size_t{4});  // 1->2 and 3->0 on 2 channels
        QCOMPARE(sum.transports.at("P2P/CUMEM"), std::size_t{4});
        // The ring on channel 0 is 0 -> 1 -> 2 -> 3 -> 0.
        std::set<std::pair<int, int>> ring;
        for (const auto& e : job.details.edges)
            if (e.kind == JobEdge::Kind::Ring && e.channel == 0) ring.insert({e.src, e.dst});
        QCOMPARE(ring, (std::set<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));

        const auto runs = loadCollectiveRuns(store);
        QCOMPARE(runs.size(), std::size_t{1});
        QCOMPARE(runs[0].hosts, (std::vector<std::string>{"gpu-a", "gpu-a", "gpu-b", "gpu-b"}));
        QCOMPARE(runs[0].rows.size(), std::size_t{3});
        QCOMPARE(runs[0].rows[1].sizeBytes, std::int64_t{67108864});  // the row another process's lines cut in two
        QCOMPARE(runs[0].rows[1].busbwGBs, 87.46);
        QCOMPARE(*runs[0].avgBusbwGBs, 85.36);
    }

    void taggedEfaLog() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/nccl-log/all_reduce-nccl2.20-efa-tagged.log"}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        const StoredJob job = onlyJob(store);
        QCOMPARE(job.ranks.size(), std::size_t{4});
        QCOMPARE(job.ranks[3].host, std::string("gpu-b"));
        QCOMPARE(summarise(job).transports.at("NET/AWS Libfabric/GDRDMA"), std::size_t{4});
        const auto runs = loadCollectiveRuns(store);
        QCOMPARE(runs.size(), std::size_t{1});
        QCOMPARE(runs[0].rows.size(), std::size_t{1});  // "-1[1,0]<stdout>:    711.2 ..." read as one row
        QCOMPARE(runs[0].rows[0].busbwGBs, 70.77);
    }

    void hungInitIsStillEvidence() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/nccl-log/train-hung-init.log"}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        const StoredJob job = onlyJob(store);
        QCOMPARE(job.details.nranks, 4);
        QCOMPARE(job.ranks.size(), std::size_t{3});  // rank 3 never printed Init START
        const std::string said = messages(s);
        QVERIFY2(said.find("only 3 of 4 ranks have an init line") != std::string::npos, said.c_str());
        QVERIFY(said.find("2 of 3 ranks logged Init START but no Init COMPLETE") != std::string::npos);
    }

    void oldNcclWithSubCommunicators() {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({kData + "/nccl-log/train-nccl2.18-subcomms.log"}, {});
        QVERIFY2(!s.anyFailed(), messages(s).c_str());
        const StoredJob job = onlyJob(store);
        QCOMPARE(job.details.nranks, 4);  // the world, not the 2-rank groups
        QCOMPARE(job.details.ncclVersion, std::string("2.18.3+cuda12.2"));
        QCOMPARE(job.ranks[2].host, std::string("gpu-b"));
    }

    void terminalCaptureImportsLikeTheCleanOutput() {
        const std::string clean = readData(QStringLiteral("ibnetdiscover/ufm-lab-small.txt"));
        // PuTTY's banner, CRLF line ends, tabs collapsed ("Switch\t41" -> "Switch41"), no space
        // before '#', and a prompt's colour escapes.
        std::string captured = "=~=~=~=~=~=~=~=~=~=~=~= PuTTY log 2024.05.02 10:11:12 =~=~=~=~=~=~=~=~=~=~=~=\r\n";
        captured += "\x1b]0;root@ufm: ~\a\x1b[01;32mroot@ufm\x1b[00m:~# ibnetdiscover\r\n";
        captured += replaceAll(replaceAll(replaceAll(clean, "\t", ""), " #", "#"), "\n", "\r\r\n");
        QVERIFY(captured.find("Switch41") != std::string::npos);

        QTemporaryDir dir;
        ImporterRegistry registry;
        const std::string cleanFile = dir.filePath(QStringLiteral("clean.txt")).toStdString();
        const std::string capFile = dir.filePath(QStringLiteral("putty.log")).toStdString();
        writeFile(cleanFile, clean);
        writeFile(capFile, captured);
        Store a(dir.filePath(QStringLiteral("a.sqlite")).toStdString());
        Store b(dir.filePath(QStringLiteral("b.sqlite")).toStdString());
        const auto sa = ImportRunner(a, registry).run({cleanFile}, {});
        const auto sb = ImportRunner(b, registry).run({capFile}, {});
        QVERIFY2(!sb.anyFailed(), messages(sb).c_str());
        QCOMPARE(sb.files.front().format, std::string("ibnetdiscover"));
        const auto ia = a.info(), ib = b.info();
        QVERIFY(ia.links > 10);
        QCOMPARE(ib.switches, ia.switches);
        QCOMPARE(ib.cas, ia.cas);
        QCOMPARE(ib.ports, ia.ports);
        QCOMPARE(ib.links, ia.links);
        const Fabric fa = a.loadFabric(a.latestSnapshot()->id), fb = b.loadFabric(b.latestSnapshot()->id);
        QCOMPARE(fb.nodes.size(), fa.nodes.size());
        for (std::size_t i = 0; i < fa.nodes.size(); ++i) QCOMPARE(fb.nodes[i].description, fa.nodes[i].description);
    }

    void benchmarkWithoutDateLinesTakesTheFilesTime() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("alltoall_perf-gpu-a-gpu-b.txt")).toStdString();
        std::string text = readData(QStringLiteral("nccl-log/all_reduce-nccl2.22-ib-info.log"));
        writeFile(file, text);
        const QDateTime when = QDateTime::fromSecsSinceEpoch(1717171717, Qt::UTC);
        {
            QFile f(QString::fromStdString(file));
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(when, QFileDevice::FileModificationTime));
        }
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry registry;
        const auto s = ImportRunner(store, registry).run({file}, {});
        QVERIFY2(messages(s).find("no `date +%s` line: the file's mtime is used as the run time") != std::string::npos,
                 messages(s).c_str());
        const auto runs = loadCollectiveRuns(store);
        QCOMPARE(runs.size(), std::size_t{1});
        QCOMPARE(runs[0].time, 1717171717.0);  // never 1970
    }

    void capturePrePassKeepsLineNumbers() {
        const std::string in = "Script started on 2024-05-02 10:11:12+00:00 [TERM=\"xterm\"]\n"
                               "[1,3]<stdout>:a \x1b[1mb\x1b[0m\n"
                               "c[1,0]<stdout>:d [7] e\n";
        const auto out = cleanTerminalCapture(in);
        QVERIFY(out);
        QCOMPARE(*out, std::string("\na b\ncd [7] e\n"));
        QVERIFY(!cleanTerminalCapture("plain [1] output\n"));  // nothing to clean: no copy
    }

    // A large file is named from its head before its capture pass when that pass cannot change
    // the head: no mark and no banner in the lines holding its first n bytes, wherever in those
    // lines, also in the line that runs past byte n. A mark after those lines leaves it clean.
    void headIsCleanOnlyWhenThePassKeepsIt() {
        std::string csv = "timestamp,node,port,counter,value\n";
        while (csv.size() < 400) csv += "1700000000,sw01 Spine,3,xmit_bytes,12345\n";
        const std::size_t n = 200;
        const std::size_t lineEnd = csv.find('\n', n - 1);
        QVERIFY(headIsClean(csv, n));
        QVERIFY(headIsClean(csv + "\x1b[0m after\n", n));
        QVERIFY(headIsClean(csv.substr(0, lineEnd + 1) + "Script done on 2024-05-02\n" + csv.substr(lineEnd + 1), n));
        for (const std::string& mark : {std::string("\x1b[0m"), std::string("[1,0]<stdout>:")})
            for (const std::size_t at : {std::size_t{0}, std::size_t{50}, n - 1, n, lineEnd - 1}) {
                const std::string in = csv.substr(0, at) + mark + csv.substr(at);
                QVERIFY2(!headIsClean(in, n), (mark + " at " + std::to_string(at)).c_str());
            }
        const std::size_t secondLine = csv.find('\n') + 1;
        for (const std::string& banner : {std::string("Script started on 2024-05-02\n"), std::string("=~=~=~=~=~=~=~=~=~=~=~= PuTTY\n")}) {
            QVERIFY(!headIsClean(csv.substr(0, secondLine) + banner + csv.substr(secondLine), n));
            QVERIFY(!headIsClean(banner + csv, n));
        }
        QVERIFY(headIsClean("", n));
        QVERIFY(headIsClean("short,file\n", n));
    }

    void captureMarksAreFoundAnywhere() {
        // A counter CSV with one mark at every offset of its first 70 bytes and of its last 70: the
        // pre-pass must see each, wherever it falls against its 16- or 32-byte blocks and the file's end.
        std::string csv = "timestamp,node,port,counter,value\nScript done,a]<b,3,x,1\n";  // candidates, not marks
        while (csv.size() < 300) csv += "1700000000,sw01 Spine,3,xmit_bytes,12345\n";
        QVERIFY(!cleanTerminalCapture(csv));
        QVERIFY(!cleanTerminalCapture(csv + "\nScript done"));  // a cut banner is no mark
        QVERIFY(!cleanTerminalCapture(csv + "x]<stdout"));
        for (const std::string& mark : {std::string("\x1b[0m"), std::string("[1,0]<stdout>:"), std::string("[2,1]<stderr>:"),
                                       std::string("\nScript done on 2024-05-02 10:11:12+00:00\n")}) {
            for (std::size_t at = 0; at < 70; ++at) {
                for (const std::size_t pos : {at, csv.size() - at}) {
                    const std::string in = csv.substr(0, pos) + mark + csv.substr(pos);
                    QVERIFY2(cleanTerminalCapture(in), (mark + " at " + std::to_string(pos)).c_str());
                }
            }
        }
    }

    // A file of 16 MB or more is scanned in slices on the worker threads: a mark at every offset
    // around where two slices meet is still found.
    void captureMarksAreFoundWhereSlicesMeet() {
        std::string csv = "timestamp,node,port,counter,value\n";
        while (csv.size() < (17u << 20)) csv += "1700000000,sw01 Spine,3,xmit_bytes,12345\n";
        qputenv("FABSCOPE_THREADS", "2");
        QVERIFY(!hasTerminalMarks(csv));
        for (const std::string& mark : {std::string("\x1b[0m"), std::string("[1,0]<stdout>:"), std::string("[2,1]<stderr>:"),
                                       std::string("\nScript done on 2024-05-02 10:11:12+00:00\n")}) {
            for (std::size_t pos = csv.size() / 2 - 20; pos < csv.size() / 2 + 20; ++pos) {
                const std::string saved = csv.substr(pos, mark.size());
                csv.replace(pos, mark.size(), mark);
                QVERIFY2(hasTerminalMarks(csv), (mark + " at " + std::to_string(pos)).c_str());
                csv.replace(pos, mark.size(), saved);
            }
        }
        qunsetenv("FABSCOPE_THREADS");
    }

    // The same pass tells the importer whether the file holds a NUL byte (it then fails as binary
    // data without reading the file again): a NUL anywhere, in either slice, at either end, where
    // the slices meet, is seen; a file with a mark is not called NUL-free (the pass stopped there).
    void nulBytesAreNotedByTheSamePass() {
        std::string csv = "timestamp,node,port,counter,value\n";
        while (csv.size() < (17u << 20)) csv += "1700000000,sw01 Spine,3,xmit_bytes,12345\n";
        qputenv("FABSCOPE_THREADS", "2");
        QVERIFY(scanTerminalMarks(csv).nulFree);
        bool nulFree = false;
        QVERIFY(!cleanTerminalCapture(csv, &nulFree));
        QVERIFY(nulFree);
        const std::size_t middle = csv.size() / 2;
        for (std::size_t pos : {std::size_t{0}, std::size_t{5}, middle - 33, middle - 17, middle - 1, middle, middle + 1, middle + 16,
                                middle + 31, csv.size() - 40, csv.size() - 33, csv.size() - 17, csv.size() - 2, csv.size() - 1}) {
            const char saved = csv[pos];
            csv[pos] = '\0';
            const TerminalMarks scan = scanTerminalMarks(csv);
            QVERIFY2(!scan.marks && !scan.nulFree, ("NUL at " + std::to_string(pos)).c_str());
            QVERIFY(!cleanTerminalCapture(csv, &nulFree));
            QVERIFY(!nulFree);
            csv[pos] = saved;
        }
        csv.replace(middle, 4, "\x1b[0m");
        QVERIFY(scanTerminalMarks(csv).marks);
        QVERIFY(!scanTerminalMarks(csv).nulFree);
        QVERIFY(cleanTerminalCapture(csv, &nulFree));
        QVERIFY(!nulFree);
        qunsetenv("FABSCOPE_THREADS");
        constexpr char kWithNul[] = "short,text\nwith a NUL\0 in it\n";
        QVERIFY(!scanTerminalMarks(std::string_view(kWithNul, sizeof kWithNul - 1)).nulFree);
        QVERIFY(scanTerminalMarks("short,text\nwithout one\n").nulFree);
    }
};

QTEST_GUILESS_MAIN(TestRealCaptures)
#include "tst_real_captures.moc"
