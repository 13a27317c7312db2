// perftest and nccl-tests outputs as probe results and collective runs: the real excerpts pasted
// in public threads (tests/data/perftest, tests/data/nccl-tests) and broken variants derived here.
#include "core/store/probes.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/nccl_tests_importer.h"
#include "importers/perftest_importer.h"
#include "importers/registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace fabscope;

namespace {

std::string readData(const QString& rel) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/") + rel);
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", qPrintable(rel));
    return f.readAll().toStdString();
}

bool hasWarning(const std::vector<Diagnostic>& ds, const char* text) {
    return std::any_of(ds.begin(), ds.end(), [text](const Diagnostic& d) {
        return d.severity == Severity::Warning && QString::fromStdString(d.message).contains(QLatin1String(text));
    });
}

// Parses `bytes` as file `name`; returns the error's "line: message" or "" when it imported.
template <class Imp>
std::string failure(const std::string& name, const std::string& bytes) {
    Imp imp;
    DiagnosticSink diag(name);
    try {
        (void)imp.parse({name, bytes, 1700000000, nullptr}, diag, {});
    } catch (const ImportError& e) {
        return std::to_string(e.diagnostic().line) + ": " + e.diagnostic().message;
    }
    return {};
}

template <class Imp>
ProbeImportResult parseOk(const std::string& name, const std::string& bytes, DiagnosticSink& diag) {
    Imp imp;
    return imp.parse({name, bytes, 1700000000, nullptr}, diag, {});
}

const char* kLatTable =
    "# fabscope: src=gpu001 dst=gpu009\n"
    "1700000100\n"
    "---------------------------------------------------------------------------------------\n"
    "                    RDMA_Write Latency Test\n"
    " Dual-port       : OFF\t\tDevice         : mlx5_0\n"
    " Link type       : IB\n"
    "---------------------------------------------------------------------------------------\n"
    " local address: LID 0x0b QPN 0x0215 PSN 0x79fcd6 RKey 0x28010100 VAddr 0x0055fa855bd000\n"
    " remote address: LID 0x11 QPN 0x020f PSN 0x17e736 RKey 0x8010100 VAddr 0x0055f4c06e7000\n"
    "---------------------------------------------------------------------------------------\n"
    " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]\n"
    " 2       1000          1.76           6.12         1.79                1.80             0.06            1.88                    6.12\n"
    " 4       1000          1.77           5.02         1.81                1.83             0.07            1.95                    5.02\n"
    "---------------------------------------------------------------------------------------\n";

// A complete two-host all_reduce_perf run in the current layout, with the footer.
std::string ncclRun(const std::string& hostA, const std::string& hostB, double bigBusbw) {
    return "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 4194304 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
           "#\n# Using devices\n"
           "#  Rank  0 Group  0 Pid  12345 on " + hostA + " device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
           "#  Rank  1 Group  0 Pid  12346 on " + hostA + " device  1 [0x0f] NVIDIA A100-SXM4-80GB\n"
           "#  Rank  2 Group  0 Pid  22345 on " + hostB + " device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
           "#  Rank  3 Group  0 Pid  22346 on " + hostB + " device  1 [0x0f] NVIDIA A100-SXM4-80GB\n"
           "#\n"
           "#                                                              out-of-place                       in-place\n"
           "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
           "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
           "     1048576        262144     float     sum      -1    120.5    8.70   13.05      0    119.8    8.75   13.13      0\n"
           "     2097152        524288     float     sum      -1    180.2   11.64   17.46      0    179.9   11.66   17.49      0\n"
           "     4194304       1048576     float     sum      -1    300.1   13.98   " + std::to_string(bigBusbw) + "      0    299.5   14.00   21.00      0\n"
           "# Out of bounds values : 0 OK\n"
           "# Avg bus bandwidth    : 17.2345\n"
           "#\n";
}

} // namespace

class TestBenchImporters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(kLatTable)->name(), std::string_view("perftest"));
        QCOMPARE(reg.detect(readData(QStringLiteral("perftest/ib_write_bw_report-gbits-issue273.txt")))->name(),
                 std::string_view("perftest"));
        QCOMPARE(reg.detect(ncclRun("a", "b", 21))->name(), std::string_view("nccl-tests"));
        QCOMPARE(reg.detect(readData(QStringLiteral("nccl-tests/all_reduce_perf-v2.20-gb10-pr103.txt")))->name(),
                 std::string_view("nccl-tests"));
        // an NCCL_DEBUG=INFO log without a result table stays an nccl-log job
        QCOMPARE(reg.detect("h:1:2 [0] NCCL INFO NCCL version 2.18.1\nh:1:2 [0] NCCL INFO comm 0x1 rank 0 nranks 1 cudaDev 0 busId 1000 - Init COMPLETE\n")->name(),
                 std::string_view("nccl-log"));
        PerftestImporter p;
        NcclTestsImporter n;
        QCOMPARE(p.detect(ncclRun("a", "b", 21)), 0);
        QCOMPARE(n.detect(kLatTable), 0);
        QCOMPARE(p.detect("time,node,port,counter,value\n"), 0);
    }

    void latencyRowsWithStatsPairAndTime() {
        DiagnosticSink diag("x.txt");
        const auto r = parseOk<PerftestImporter>("x.txt", kLatTable, diag);
        QCOMPARE(r.probes.size(), std::size_t{2});
        const auto& p = r.probes[0];
        QCOMPARE(p.tool, std::string("ib_write_lat"));
        QCOMPARE(p.src, std::string("gpu001"));
        QCOMPARE(p.dst, std::string("gpu009"));
        QCOMPARE(p.time, 1700000100.0);
        QCOMPARE(p.msgBytes, std::int64_t{2});
        QCOMPARE(p.sent, std::int64_t{1000});
        QCOMPARE(*p.latencyUs, 1.79);
        QCOMPARE(*p.stat("t_min_us"), 1.76);
        QCOMPARE(*p.stat("t_max_us"), 6.12);
        QCOMPARE(*p.stat("t_avg_us"), 1.80);
        QCOMPARE(*p.stat("t_stdev_us"), 0.06);
        QCOMPARE(*p.stat("p99_us"), 1.88);
        QCOMPARE(*p.stat("p999_us"), 6.12);
        QCOMPARE(r.probes[1].msgBytes, std::int64_t{4});
        QVERIFY(diag.items().empty());
    }

    void realRoceReadLatencyWithCpuWarningsAndPairFromFileName() {
        // spiderpool's ib_read_lat excerpt, stored under a name that carries the pair
        const auto bytes = readData(QStringLiteral("perftest/ib_read_lat_roce-spiderpool.txt"));
        DiagnosticSink diag("ib_read_lat_pod119_pod120.txt");
        const auto r = parseOk<PerftestImporter>("dir/ib_read_lat_pod119_pod120.txt", bytes, diag);
        QCOMPARE(r.probes.size(), std::size_t{1});
        QCOMPARE(r.probes[0].tool, std::string("ib_read_lat"));
        QCOMPARE(r.probes[0].src, std::string("pod119"));
        QCOMPARE(r.probes[0].dst, std::string("pod120"));
        QCOMPARE(*r.probes[0].latencyUs, 7.04);
        QCOMPARE(*r.probes[0].stat("p999_us"), 16.81);
        QCOMPARE(r.probes[0].time, 1700000000.0);  // no date line: the mtime
        QVERIFY(hasWarning(diag.items(), "2 `Conflicting CPU frequency` warning(s)"));
        QVERIFY(hasWarning(diag.items(), "mtime is used"));
        // the same bytes under their own name: no pair, a clear error at the row
        QCOMPARE(failure<PerftestImporter>("ib_read_lat_roce-spiderpool.txt", bytes).substr(0, 3), std::string("22:"));
        QVERIFY(QString::fromStdString(failure<PerftestImporter>("out.txt", bytes)).contains(QLatin1String("no host pair")));
    }

    void bandwidthUnitsMiBAndGbits() {
        DiagnosticSink d1("a"), d2("b");
        const auto gb = parseOk<PerftestImporter>(
            "a", "# fabscope: src=h1 dst=h2\n" + readData(QStringLiteral("perftest/ib_write_bw_report-gbits-issue273.txt")), d1);
        QCOMPARE(gb.probes.size(), std::size_t{1});
        QCOMPARE(gb.probes[0].tool, std::string("ib_write_bw"));
        QCOMPARE(*gb.probes[0].stat("bw_avg_gbps"), 0.48);
        QCOMPARE(*gb.probes[0].stat("msg_rate_mpps"), 7.498617);
        QCOMPARE(gb.probes[0].sent, std::int64_t{224958464});
        QVERIFY(!gb.probes[0].latencyUs);
        // no banner: the test name comes from the file name; MB/sec is MiB/s (2^20 bytes)
        const auto mb = parseOk<PerftestImporter>("ib_send_bw_h1_h2.txt",
                                                  readData(QStringLiteral("perftest/ib_send_bw_mbsec-issue65.txt")), d2);
        QCOMPARE(mb.probes[0].tool, std::string("ib_send_bw"));
        QVERIFY(qAbs(*mb.probes[0].stat("bw_avg_gbps") - 920.13 * 1048576 * 8 / 1e9) < 1e-9);
        QVERIFY(hasWarning(d2.items(), "not closed by a dashes line"));
    }

    void brokenPerftest() {
        const std::string lat(kLatTable);
        // a cell lost at the end of a row (truncated output)
        std::string cut = lat;
        cut.replace(cut.find("1.88                    6.12\n"), 28, "1.88\n");
        QCOMPARE(failure<PerftestImporter>("x", cut), std::string("12: row has 8 cells, the header 9 (truncated output?)"));
        // a non-numeric cell
        std::string bad = lat;
        bad.replace(bad.find("1.79"), 4, "abc!");
        QCOMPARE(failure<PerftestImporter>("x", bad), std::string("12: `t_typical[usec]` is not a number: abc!"));
        // the header line missing
        std::string nohead = lat;
        const auto h = nohead.find(" #bytes");
        nohead.erase(h, nohead.find('\n', h) - h + 1);
        QVERIFY(failure<PerftestImporter>("x", nohead).starts_with("11: result row without a `#bytes #iterations ...` header"));
        // a table header and nothing after it
        DiagnosticSink d("x");
        QVERIFY(failure<PerftestImporter>("x", lat.substr(0, lat.find(" 2       1000"))).starts_with("0: no perftest result table"));
        QVERIFY(QString::fromStdString(failure<PerftestImporter>("x", "# fabscope: src=a\n")).contains(QLatin1String("src=HOST and dst=HOST")));
    }

    void ncclRunHostsRowsAndFooter() {
        DiagnosticSink diag("all_reduce_perf.txt");
        const auto r = parseOk<NcclTestsImporter>("all_reduce_perf.txt", "1700000300\n" + ncclRun("gpu001", "gpu009", 20.97), diag);
        QCOMPARE(r.runs.size(), std::size_t{1});
        const auto& run = r.runs[0];
        QCOMPARE(run.tool, std::string("all_reduce_perf"));
        QCOMPARE(run.time, 1700000300.0);
        QCOMPARE(run.hosts, (std::vector<std::string>{"gpu001", "gpu001", "gpu009", "gpu009"}));
        QCOMPARE(run.rows.size(), std::size_t{3});
        QCOMPARE(run.rows[2].sizeBytes, std::int64_t{4194304});
        QCOMPARE(*run.rows[2].busbwGBs, 20.97);
        QCOMPARE(*run.rows[2].inPlaceBusbwGBs, 21.0);
        QCOMPARE(run.rows[0].redop, std::string("sum"));
        QCOMPARE(*run.avgBusbwGBs, 17.2345);
        QVERIFY(diag.items().empty());
    }

    void twoRunsInOneFileAndStoreRoundTrip() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("sweep.txt")).toStdString();
        std::ofstream(file) << "1700000000\n# Collective test starting: all_reduce_perf\n" << ncclRun("gpu001", "gpu002", 20.5)
                            << "# Collective test concluded: all_reduce_perf\n1700000600\n"
                            << "# Collective test starting: all_gather_perf\n" << ncclRun("gpu003", "gpu004", 19.5);
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({file}, {});
        QVERIFY(!sum.anyFailed());
        const auto runs = loadCollectiveRuns(store);
        QCOMPARE(runs.size(), std::size_t{2});
        QCOMPARE(runs[0].tool, std::string("all_reduce_perf"));
        QCOMPARE(runs[1].tool, std::string("all_gather_perf"));
        QCOMPARE(runs[1].time, 1700000600.0);
        QCOMPARE(runs[1].hosts[3], std::string("gpu004"));
        QCOMPARE(*runs[1].rows.back().busbwGBs, 19.5);
    }

    void realShapes() {
        DiagnosticSink d1("a"), d2("b"), d3("c"), d4("d");
        // nccl-tests 2.20 (version line, `#wrong` header, two hosts; excerpt ends before the footer)
        const auto v220 = parseOk<NcclTestsImporter>("all_reduce_perf-v2.20-gb10-pr103.txt",
                                                     readData(QStringLiteral("nccl-tests/all_reduce_perf-v2.20-gb10-pr103.txt")), d1);
        QCOMPARE(v220.runs.size(), std::size_t{1});
        QCOMPARE(v220.runs[0].tool, std::string("all_reduce_perf"));
        QCOMPARE(v220.runs[0].hosts, (std::vector<std::string>{"spark-d708", "spark-dbf4"}));
        QCOMPARE(v220.runs[0].rows.size(), std::size_t{4});
        QCOMPARE(*v220.runs[0].rows[3].busbwGBs, 0.96);
        QVERIFY(hasWarning(d1.items(), "no `# Avg bus bandwidth` line"));
        // RCCL excerpt: rows and footer, no header: columns from the row width
        const auto rccl = parseOk<NcclTestsImporter>("all_reduce_perf-rccl-footer-pr2078.txt",
                                                     readData(QStringLiteral("nccl-tests/all_reduce_perf-rccl-footer-pr2078.txt")), d2);
        QCOMPARE(rccl.runs[0].rows.size(), std::size_t{4});
        QCOMPARE(rccl.runs[0].rows[3].sizeBytes, std::int64_t{17179869184});
        QCOMPARE(*rccl.runs[0].avgBusbwGBs, 142.652);
        QVERIFY(hasWarning(d2.items(), "columns taken from the row width (13 cells)"));
        QVERIFY(rccl.runs[0].hosts.empty());
        // NCCL 2.9-era rows: no root column, `error` as a relative error, not a count
        const auto old = parseOk<NcclTestsImporter>("x.txt", readData(QStringLiteral("nccl-tests/all_reduce_perf-old-error-column-nccl527.txt")), d3);
        QCOMPARE(old.runs[0].rows.size(), std::size_t{5});
        QCOMPARE(old.runs[0].rows[0].wrong, std::int64_t{0});
        QCOMPARE(*old.runs[0].rows[4].inPlaceTimeUs, 175.3);
        QCOMPARE(old.runs[0].tool, std::string("nccl-tests"));
        // mpirun --tag-output prefixes
        const auto tagged = parseOk<NcclTestsImporter>("x.txt", readData(QStringLiteral("nccl-tests/all_reduce_perf-mpi-tag-output-pr503.txt")), d4);
        QCOMPARE(tagged.runs[0].rows.size(), std::size_t{3});
        QCOMPARE(*tagged.runs[0].rows[2].timeUs, 22.25);
        QVERIFY(!hasWarning(d4.items(), "row width"));
    }

    void brokenNcclTests() {
        // real excerpt cut after the first row's out-of-place cells
        QCOMPARE(failure<NcclTestsImporter>("x", readData(QStringLiteral("nccl-tests/all_reduce_perf-rtx4090-nccl1530.txt"))),
                 std::string("16: row has 9 cells, the header 13 (truncated output?)"));
        const std::string good = ncclRun("a", "b", 21);
        std::string bad = good;
        bad.replace(bad.find("13.05"), 5, "13,05");
        QCOMPARE(failure<NcclTestsImporter>("x", bad), std::string("12: `busbw` is not a number: 13,05"));
        std::string wrongHeader = good;
        wrongHeader.replace(wrongHeader.find("algbw   busbw #wrong     time"), 5, "speed");
        QVERIFY(failure<NcclTestsImporter>("x", wrongHeader).starts_with("10: unknown nccl-tests column header"));
        QVERIFY(failure<NcclTestsImporter>("x", "# nThread 1 nGpus 1\n").starts_with("0: no nccl-tests result table"));
        {   // a run that names its hosts and stops (no table, an NCCL error) is kept as a failed run of those hosts
            DiagnosticSink d("x");
            const auto r = parseOk<NcclTestsImporter>(
                "x", "# nThread 1 nGpus 1\n#  Rank  0 Group 0 Pid 1 on a device 0 [0x07] X\n#  Rank  1 Group 0 Pid 1 on b device 0 [0x07] X\n"
                     "a:1:1 [0] NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129\n", d);
            QCOMPARE(r.runs.size(), std::size_t{1});
            QCOMPARE(r.runs[0].hosts, (std::vector<std::string>{"a", "b"}));
            QVERIFY(r.runs[0].rows.empty());
            QVERIFY2(r.runs[0].failure.starts_with("NCCL WARN NET/IB : Got completion with error 12"), r.runs[0].failure.c_str());
            const auto r2 = parseOk<NcclTestsImporter>("x", "# nThread 1 nGpus 1\n#  Rank  0 Group 0 Pid 1 on a device 0 [0x07] X\n", d);
            QCOMPARE(r2.runs.at(0).failure, std::string("no result table (the run stopped before its first size)"));
        }
        // no header and a width no version prints
        QVERIFY(failure<NcclTestsImporter>("x", "   8   2   float   sum  1.0  2.0  3.0\n").starts_with("1: table row of 7 cells without"));
        // #wrong counts are warned about, N/A tolerated
        std::string wrong = good;
        wrong.replace(wrong.find("13.05      0"), 12, "13.05      3");
        wrong.replace(wrong.find("17.49      0"), 12, "17.49    N/A");
        DiagnosticSink d("x");
        const auto r = parseOk<NcclTestsImporter>("x", wrong, d);
        QCOMPARE(r.runs.at(0).failure, std::string("3 wrong elements"));
        QCOMPARE(r.runs[0].rows[0].wrong, std::int64_t{3});
        QVERIFY(hasWarning(d.items(), "3 wrong element(s) at 1048576 B"));
        QVERIFY(hasWarning(d.items(), "1 `N/A` #wrong cell(s)"));
    }
};

QTEST_GUILESS_MAIN(TestBenchImporters)
#include "tst_bench_importers.moc"
