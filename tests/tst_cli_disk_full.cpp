// A full disk through the real command line: a store on a 2 MiB tmpfs, then `fabscope import` of
// a counter file larger than the whole filesystem. The import must end with exit code 3 (store
// error, docs/CLI.md), say on stderr that the disk is full, and the store must open afterwards
// with exactly what it held before. Mounting needs root (CI runs as root): without it, or when
// the mount fails, the test fails.
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <vector>

#include "store_dump.h"

using namespace fabscope;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(FABSCOPE_BIN), args);
    if (!p.waitForFinished(240000)) qFatal("fabscope did not finish");
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

// Counters on the demo's 96 leaf ports whose increments are random, so the store cannot compress
// them much: `rows` samples take several times the 2 MiB of the filesystem.
void writeIncompressibleCsv(const QString& path, int rows) {
    std::ofstream out(path.toStdString());
    out << "timestamp,node,port,counter,value\n";
    std::mt19937_64 rng(21);
    std::vector<unsigned long long> value(96, 0);
    for (int i = 0; i < rows; ++i) {
        value[static_cast<std::size_t>(i % 96)] += rng() % 1'000'000'000ULL;
        out << 1800000000 + i / 96 << ",leaf0" << 1 + i % 8 << "," << 1 + (i / 8) % 12 << ",xmit_bytes,"
            << value[static_cast<std::size_t>(i % 96)] << "\n";
    }
}

std::string integrity(const std::string& path) {
    Store s(path, Store::Mode::ReadOnly);
    sql::Stmt check(s.handle(), "PRAGMA integrity_check");
    return check.step() ? check.text(0) : std::string("no answer");
}

} // namespace

class TestCliDiskFull : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString mountPoint_;
    bool mounted_ = false;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        if (::geteuid() != 0) {  // CI runs as root: there a missing privilege is a failure, never a skip
            QFAIL("mounting the small tmpfs needs root: run the suite as root (as CI does)");
        }
        mountPoint_ = dir_.filePath(QStringLiteral("small"));
        QVERIFY(QDir().mkpath(mountPoint_));
        const QByteArray at = QFile::encodeName(mountPoint_);
        if (::mount("tmpfs", at.constData(), "tmpfs", MS_NOSUID | MS_NODEV, "size=2m,mode=0700") != 0)
            QFAIL(qPrintable(QStringLiteral("running as root but `mount -t tmpfs -o size=2m tmpfs %1` failed: %2")
                                 .arg(mountPoint_, QString::fromLocal8Bit(std::strerror(errno)))));
        mounted_ = true;
    }

    void cleanupTestCase() {
        if (!mounted_) return;
        const QByteArray at = QFile::encodeName(mountPoint_);
        if (::umount2(at.constData(), 0) != 0) ::umount2(at.constData(), MNT_DETACH);  // lazily, if still busy
        mounted_ = false;
    }

    void importLargerThanTheDiskExitsThreeAndKeepsTheStore() {
        const QString demo = dir_.filePath(QStringLiteral("demo"));
        const QString store = mountPoint_ + QStringLiteral("/fabric.sqlite");
        QCOMPARE(cli({QStringLiteral("demo"), QStringLiteral("--out"), demo}).code, 0);
        const Run first = cli({QStringLiteral("import"), QStringLiteral("--db"), store, demo});
        QVERIFY2(first.code == 0, first.err.constData());  // the demo store fits on the small disk
        const QStringList infoArgs{QStringLiteral("info"), QStringLiteral("--db"), store, QStringLiteral("--json")};
        const Run infoBefore = cli(infoArgs);
        QCOMPARE(infoBefore.code, 0);
        const std::string before = dumpStore(store.toStdString());

        const QString big = dir_.filePath(QStringLiteral("big.csv"));  // on the ordinary disk
        writeIncompressibleCsv(big, 1'500'000);
        struct statvfs fs {};
        QCOMPARE(::statvfs(QFile::encodeName(mountPoint_).constData(), &fs), 0);
        QVERIFY(QFileInfo(big).size() > qint64(fs.f_blocks * fs.f_frsize));  // larger than the filesystem

        const Run full = cli({QStringLiteral("import"), QStringLiteral("--db"), store, big});
        QVERIFY2(full.code == 3, full.err.constData());
        QVERIFY2(full.err.contains("disk is full"), full.err.constData());
        QVERIFY2(full.err.size() < 2000, full.err.constData());  // one clear message, not a flood

        const Run infoAfter = cli(infoArgs);  // it still opens, through the command line too
        QVERIFY2(infoAfter.code == 0, infoAfter.err.constData());
        QCOMPARE(infoAfter.out, infoBefore.out);
        QCOMPARE(integrity(store.toStdString()), std::string("ok"));
        QCOMPARE(dumpStore(store.toStdString()), before);
    }
};

QTEST_GUILESS_MAIN(TestCliDiskFull)
#include "tst_cli_disk_full.moc"
