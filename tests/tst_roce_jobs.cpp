// Jobs: NCCL_DEBUG=INFO logs and `rank,host,device` CSVs -> one job each in jobs/job_ranks.
// tests/data/roce/nccl/llama-2node-8gpu.log is SYNTH: written in the line shapes NCCL 2.18 prints
// (as pasted in NVIDIA/nccl issues), 2 hosts x 4 GPUs, RoCE NICs mlx5_0..3, plus a 4-rank
// sub-communicator per host whose rank numbers must not be taken for the job's.
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/job_csv_importer.h"
#include "importers/nccl_log_importer.h"
#include "importers/registry.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>

using namespace fabscope;

namespace {

std::string readData(const char* name) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/roce/nccl/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

template <typename Imp> JobResult parse(const std::string& text, const std::string& file, std::vector<Diagnostic>* warnings = nullptr) {
    Imp imp;
    DiagnosticSink diag(file);
    auto r = imp.parse(ImportInput{file, text, 0}, diag, {});
    if (warnings) *warnings = diag.items();
    return r;
}

template <typename Imp> Diagnostic parseError(const std::string& text, const std::string& file) {
    try {
        (void)parse<Imp>(text, file);
    } catch (const ImportError& e) {
        return e.diagnostic();
    }
    return {};
}

std::string replaceOnce(std::string s, const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    if (at == std::string::npos) qFatal("test text not found: %s", from.c_str());
    return s.replace(at, from.size(), to);
}

std::int64_t lineOf(const std::string& text, const std::string& what) {
    const auto at = text.find(what);
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
}

} // namespace

class TestRoceJobs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(readData("llama-2node-8gpu.log"))->name(), std::string_view("nccl-log"));
        QCOMPARE(reg.detect(readData("llama-2node-8gpu.csv"))->name(), std::string_view("job-csv"));
        QCOMPARE(reg.detect("timestamp,node,port,counter,value\n1,a,1,xmit_bytes,2\n")->name(), std::string_view("csv"));
        QCOMPARE(JobCsvImporter().detect("timestamp,node,port,counter,value\n"), 0);
        QCOMPARE(NcclLogImporter().detect("{\"lldp\": {}}"), 0);
        QVERIFY(reg.byName("job-csv")->kind() == Importer::Kind::Job);
    }

    void ncclRanksHostsDevices() {
        std::vector<Diagnostic> warnings;
        const auto job = parse<NcclLogImporter>(readData("llama-2node-8gpu.log"), "/logs/llama-2node-8gpu.log", &warnings);
        QCOMPARE(job.name, std::string("llama-2node-8gpu"));
        QCOMPARE(job.ranks.size(), std::size_t{8});  // the 8-rank world communicator, not the 4-rank TP groups
        for (int r = 0; r < 8; ++r) {
            const JobRank& jr = job.ranks[static_cast<std::size_t>(r)];
            QCOMPARE(jr.rank, r);
            QCOMPARE(jr.host, std::string(r < 4 ? "gpu-node-01" : "gpu-node-02"));
            QCOMPARE(jr.device, "mlx5_" + std::to_string(r % 4));
        }
        // Ranks 0,3,4,7 name their NIC in `via NET/IB/k` lines; 1,2,5,6 only talk over NVLink and
        // get the NIC with their GPU's index, which the importer says.
        QCOMPARE(warnings.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(warnings[0].message).startsWith(QStringLiteral("4 ranks have no `via NET/IB/k`")));
    }

    void ncclViaLineWinsAndLauncherPrefix() {
        // mpirun --tag-output prefixes; rank 1 sends over NET/IB/0 although it runs on GPU 1.
        const std::string log =
            "[1,0]<stdout>:hostA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_4:1/IB [1]mlx5_5:1/IB ; OOB ib0:10.0.0.1<0>\n"
            "[1,1]<stdout>:hostA:101:101 [1] NCCL INFO NET/IB : Using [0]mlx5_4:1/IB [1]mlx5_5:1/IB ; OOB ib0:10.0.0.1<0>\n"
            "[1,1]<stdout>:hostA:101:130 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] [send] via NET/IB/0\n"
            "[1,0]<stdout>:hostA:100:120 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
            "[1,1]<stdout>:hostA:101:130 [1] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE\n";
        const auto job = parse<NcclLogImporter>(log, "j.log");
        QCOMPARE(job.ranks.size(), std::size_t{2});
        QCOMPARE(job.ranks[0].host, std::string("hostA"));
        QCOMPARE(job.ranks[0].device, std::string("mlx5_4"));
        QCOMPARE(job.ranks[1].device, std::string("mlx5_4"));
    }

    void ncclBrokenLines() {
        const std::string good = readData("llama-2node-8gpu.log");
        const std::string mangled = "rank 5 nranks 8 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x7d2f9c1e5a3b4c21 - Init COMPLETE";
        auto bad = replaceOnce(good, mangled, "rank five nranks 8 cudaDev 1 nvmlDev 1 busId 2a000 - Init COMPLETE");
        auto d = parseError<NcclLogImporter>(bad, "x.log");
        QCOMPARE(d.file, std::string("x.log"));
        QCOMPARE(d.line, lineOf(good, mangled));
        bad = replaceOnce(good, mangled, "rank 9 nranks 8 cudaDev 1 - Init COMPLETE");
        QCOMPARE(parseError<NcclLogImporter>(bad, "x.log").line, lineOf(good, mangled));
        QVERIFY(!parseError<NcclLogImporter>("hello\nworld\n", "x.log").message.empty());
    }

    void csvJob() {
        const auto job = parse<JobCsvImporter>(readData("llama-2node-8gpu.csv"), "llama.csv");
        QCOMPARE(job.name, std::string("llama-2node-8gpu"));  // from the `# job:` line
        QCOMPARE(job.ranks.size(), std::size_t{8});
        QCOMPARE(job.ranks[6].host, std::string("gpu-node-02"));
        QCOMPARE(job.ranks[6].device, std::string("mlx5_2"));
        const auto noDev = parse<JobCsvImporter>("rank,host,device\n1,h2,\n0,h1\n", "moe-run.csv");
        QCOMPARE(noDev.name, std::string("moe-run"));
        QCOMPARE(noDev.ranks[0].host, std::string("h1"));
        QCOMPARE(noDev.ranks[0].device, std::string());
        QCOMPARE(parseError<JobCsvImporter>("rank,host,device\n0,h1,mlx5_0\nx,h2,mlx5_0\n", "b.csv").line, std::int64_t{3});
        QCOMPARE(parseError<JobCsvImporter>("rank,host,device\n0,h1,mlx5_0\n0,h2,mlx5_0\n", "b.csv").line, std::int64_t{3});
        QCOMPARE(parseError<JobCsvImporter>("rank,host,device\n0,h1,mlx5_0,9\n", "b.csv").line, std::int64_t{2});
        QCOMPARE(parseError<JobCsvImporter>("rank,host,device\n0,,mlx5_0\n", "b.csv").line, std::int64_t{2});
        // `# time:` says when the job ran, as a user types a time; a time that is none fails on its line.
        QVERIFY(!noDev.details.time);  // the import runner gives it the file's mtime
        const auto dated = parse<JobCsvImporter>("# job: moe\n# time: 2023-11-14T22:13:20Z\nrank,host,device\n0,h1,mlx5_0\n", "m.csv");
        QCOMPARE(dated.details.time.value_or(0), 1700000000.0);
        QCOMPARE(parse<JobCsvImporter>("# time: 1700000600\nrank,host,device\n0,h1,\n", "m.csv").details.time.value_or(0), 1700000600.0);
        const Diagnostic undated = parseError<JobCsvImporter>("rank,host,device\n# time: yesterday\n0,h1,mlx5_0\n", "m.csv");
        QCOMPARE(undated.line, std::int64_t{2});
        QVERIFY2(undated.message.find("`yesterday`") != std::string::npos, undated.message.c_str());
        QCOMPARE(parseError<JobCsvImporter>("# time: nan\nrank,host,device\n0,h1,mlx5_0\n", "m.csv").line, std::int64_t{1});
    }

    // Both files through the ImportRunner: one job each in the store, counted by `info --json`;
    // a broken file fails alone with FILE:LINE and writes nothing.
    void storedAndCounted() {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        const std::string bad = dir.filePath(QStringLiteral("bad.csv")).toStdString();
        std::ofstream(bad) << "rank,host,device\n0,h1,mlx5_0\nnope\n";
        {
            Store store(db);
            ImporterRegistry reg;
            ImportRunner runner(store, reg);
            const auto sum = runner.run({std::string(FABSCOPE_TEST_DATA "/roce/nccl"), bad}, {});
            QCOMPARE(sum.count(FileStatus::Imported), std::size_t{2});
            QCOMPARE(sum.count(FileStatus::Failed), std::size_t{1});
            const auto err = std::find_if(sum.diagnostics.begin(), sum.diagnostics.end(),
                                          [](const Diagnostic& x) { return x.severity == Severity::Error; });
            QVERIFY(err != sum.diagnostics.end());
            QCOMPARE(err->file, bad);
            QCOMPARE(err->line, std::int64_t{3});
            QCOMPARE(store.info().jobs, std::size_t{2});
            sql::Stmt q(store.handle(), "SELECT r.host, r.device FROM jobs j JOIN job_ranks r ON r.job_id=j.id "
                                        "JOIN imports i ON i.id=j.import_id WHERE i.format='nccl-log' AND r.rank=5");
            QVERIFY(q.step());
            QCOMPARE(q.text(0), std::string("gpu-node-02"));
            QCOMPARE(q.text(1), std::string("mlx5_1"));
            // Re-import: same SHA-256, nothing new.
            const auto again = runner.run({std::string(FABSCOPE_TEST_DATA "/roce/nccl")}, {});
            QCOMPARE(again.count(FileStatus::AlreadyImported), std::size_t{2});
            QCOMPARE(store.info().jobs, std::size_t{2});
        }
        QProcess p;
        p.start(QStringLiteral(FABSCOPE_BIN), {QStringLiteral("info"), QStringLiteral("--db"), QString::fromStdString(db),
                                               QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const auto j = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(j.value(QStringLiteral("jobs")).toInt(), 2);
    }

    // A job CSV copied to the laptop today still says when the job ran: `# time:` wins over the
    // copy's mtime, and a file without it keeps its mtime.
    void theStatedTimeDatesTheJob() {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        const std::string dated = dir.filePath(QStringLiteral("dated.csv")).toStdString();
        const std::string plain = dir.filePath(QStringLiteral("plain.csv")).toStdString();
        std::ofstream(dated) << "# job: dated\n# time: 2023-11-14 22:13:20 UTC\nrank,host,device\n0,h1,mlx5_0\n";
        std::ofstream(plain) << "# job: plain\nrank,host,device\n0,h2,mlx5_0\n";
        const double mtime = static_cast<double>(QFileInfo(QString::fromStdString(plain)).lastModified().toMSecsSinceEpoch()) / 1000;
        Store store(db);
        ImporterRegistry reg;
        QCOMPARE(ImportRunner(store, reg).run({dated, plain}, {}).count(FileStatus::Imported), std::size_t{2});
        std::map<std::string, double> when;
        for (const StoredJob& job : loadJobs(store)) when[job.name] = job.details.time.value_or(0);
        QCOMPARE(when["dated"], 1700000000.0);
        QVERIFY2(std::abs(when["plain"] - mtime) < 0.002, qPrintable(QString::number(when["plain"] - mtime)));
    }
};

QTEST_GUILESS_MAIN(TestRoceJobs)
#include "tst_roce_jobs.moc"
