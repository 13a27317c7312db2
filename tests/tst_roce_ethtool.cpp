// ethtool -S (mlx5) snapshots as counter series: the real ConnectX-4 capture (PFC off) and a
// PFC-enabled capture written here in the same shape (counters.rst names; no public real capture
// with PFC on was found), two snapshots each preceded by `date +%s` and `ethtool -S IFACE`.
#include "core/store/store.h"
#include "importers/ethtool_importer.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>

using namespace fabscope;

namespace {

std::string readData(const char* name) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/roce/ethtool/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

std::string capture(long t, const char* ifname, int k) {
    const auto v = [k](long base) { return std::to_string(base * k); };
    return std::to_string(t) + "\n$ ethtool -S " + ifname + "\nNIC statistics:\n     rx_packets: " + v(100) +
           "\n     rx_bytes: " + v(6400) + "\n     tx_bytes_phy: " + v(1000000) + "\n     rx_bytes_phy: " + v(2000000) +
           "\n     rx_discards_phy: " + v(2) + "\n     rx_out_of_buffer: 0\n     rx_prio3_bytes: " + v(5000) +
           "\n     rx_prio3_pause: " + v(40) + "\n     rx_prio3_pause_duration: " + v(700) +
           "\n     rx_prio3_pause_transition: " + v(20) + "\n     tx_prio3_pause: " + v(10) +
           "\n     tx_prio3_pause_duration: " + v(150) + "\n     tx_pause_storm_warning_events: 0" +
           "\n     tx_pause_storm_error_events: 0\n     ch0_arm: 12\n";
}

} // namespace

class TestRoceEthtool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void names() {
        QCOMPARE(ethtoolCounter("rx_prio3_pause")->name, std::string("pfc_rx_pause_prio3"));
        QCOMPARE(ethtoolCounter("tx_prio0_pause_duration")->name, std::string("pfc_tx_pause_us_prio0"));
        QCOMPARE(ethtoolCounter("tx_prio0_pause_duration")->unit, std::string("us"));
        QCOMPARE(ethtoolCounter("tx_bytes_phy")->name, std::string("xmit_bytes"));
        QCOMPARE(ethtoolCounter("rx_packets_phy")->name, std::string("rcv_pkts"));
        QCOMPARE(ethtoolCounter("rx_discards_phy")->name, std::string("rx_discards_phy"));
        QVERIFY(!ethtoolCounter("rx_bytes"));       // software counter
        QVERIFY(!ethtoolCounter("rx_prio3_bytes"));
        QVERIFY(!ethtoolCounter("ch0_arm"));
    }

    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(capture(1700000000, "ens1f0np0", 1))->name(), std::string_view("ethtool"));
        QCOMPARE(reg.detect(readData("mlx5-connectx4-pfc-off.txt"))->name(), std::string_view("ethtool"));
        QCOMPARE(EthtoolImporter().detect("# Port counters: Lid 1 port 1 (CapMask: 0x5300)\nPortXmitData:....5\n"), 0);
    }

    void realCaptureNamesItsPort() {
        // The real capture is a bare `ethtool -S IFACE > FILE`: no line names its interface. With
        // a header line, or with the interface in the file name (HOST.IFACE.txt), it imports;
        // named only HOST.ethtool.txt it fails at its first stored counter, saying how to name it.
        QTemporaryDir dir;
        const std::string body = readData("mlx5-connectx4-pfc-off.txt");
        const std::string bare = dir.filePath(QStringLiteral("hostx.ethtool.txt")).toStdString();
        std::ofstream(bare) << body;
        const std::string good = dir.filePath(QStringLiteral("gpu07.ethtool.txt")).toStdString();
        std::ofstream(good) << "1700000000\nethtool -S ens1f0np0\n" << body;
        const std::string named = dir.filePath(QStringLiteral("gpu08.ens2f1np1.txt")).toStdString();
        std::ofstream(named) << body;
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({bare, good, named}, {});
        // `named` has `bare`'s bytes: that the first of the two failed does not make it a repeat.
        QCOMPARE(sum.count(FileStatus::Failed), std::size_t{1});
        QCOMPARE(sum.count(FileStatus::Imported), std::size_t{2});
        QCOMPARE(sum.count(FileStatus::AlreadyImported), std::size_t{0});
        const auto err = std::find_if(sum.diagnostics.begin(), sum.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
        QCOMPARE(err->file, bare);
        QCOMPARE(err->line, std::int64_t{38});  // link_down_events_phy, the first counter stored
        QVERIFY(QString::fromStdString(err->message).contains(QStringLiteral("ethtool -S IFACE")));
        QVERIFY(QString::fromStdString(err->message).contains(QStringLiteral("HOST.IFACE.txt")));
        const auto told = std::find_if(sum.diagnostics.begin(), sum.diagnostics.end(), [&](const Diagnostic& d) {
            return d.file == named && d.severity == Severity::Warning && d.message.find("ens2f1np1, from the file name") != std::string::npos;
        });
        QVERIFY(told != sum.diagnostics.end());
        std::map<std::string, std::map<std::string, std::string>> byPlace;  // node:port -> counter -> unit
        for (const auto& s : store.series()) byPlace[s.nodeRef + ":" + s.port][s.counter] = s.unit;
        QCOMPARE(byPlace.size(), std::size_t{2});
        for (const char* place : {"gpu07:ens1f0np0", "gpu08:ens2f1np1"}) {
            const auto& c = byPlace[place];
            QVERIFY2(c.count("xmit_bytes") && c.count("rcv_bytes") && c.count("rx_discards_phy"), place);
            QVERIFY(!c.count("pfc_rx_pause_prio3"));  // PFC off: mlx5 prints no per-priority pause counters
        }
        for (const auto& s : store.series())
            if (s.counter == "xmit_bytes") {
                const auto d = store.loadSeries(s.id);
                QCOMPARE(d.values, std::vector<double>{2662454044895.0});
                if (s.nodeRef == "gpu07") QCOMPARE(d.timesMs, std::vector<std::int64_t>{1700000000000});
            }

        // Two hosts' captures of the same bytes: the host is in the file name, so both import.
        const std::string copy = dir.filePath(QStringLiteral("gpu09.ens2f1np1.txt")).toStdString();
        std::ofstream(copy) << "1700000100\n" << body;
        const std::string other = dir.filePath(QStringLiteral("gpu10.ens2f1np1.txt")).toStdString();
        std::ofstream(other) << "1700000100\n" << body;
        QCOMPARE(runner.run({copy, other}, {}).count(FileStatus::Imported), std::size_t{2});
        // Twins in one call that name the same host and port: the other is a repeat, and says so.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("again")));
        const std::string again1 = dir.filePath(QStringLiteral("again/gpu11.ens2f1np1.txt")).toStdString();
        std::ofstream(again1) << "1700000200\n" << body;
        const std::string again2 = dir.filePath(QStringLiteral("gpu11.ens2f1np1.txt")).toStdString();
        std::ofstream(again2) << "1700000200\n" << body;
        const auto again = runner.run({again1, again2}, {});
        QCOMPARE(again.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(again.count(FileStatus::AlreadyImported), std::size_t{1});
        QCOMPARE(again.diagnostics.back().file, again2);
        QVERIFY(again.diagnostics.back().message.find("already imported as " + again1) != std::string::npos);
    }

    void pfcSeriesFromTwoCaptures() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("gpu01.ethtool.txt")).toStdString();
        std::ofstream(file) << capture(1700000000, "ens1f0np0", 1) << capture(1700000000, "ens2f0np0", 3)
                            << capture(1700000060, "ens1f0np0", 2) << capture(1700000060, "ens2f0np0", 4);
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        ImporterRegistry reg;
        ImportRunner runner(store, reg);
        const auto sum = runner.run({file}, {});
        QVERIFY(!sum.anyFailed());
        QCOMPARE(sum.files[0].rows, std::int64_t{4 * 11});
        bool saw = false;
        for (const auto& s : store.series()) {
            if (s.port == "ens1f0np0" && s.counter == "pfc_rx_pause_us_prio3") {
                const auto d = store.loadSeries(s.id);
                QCOMPARE(d.timesMs, (std::vector<std::int64_t>{1700000000000, 1700000060000}));
                QCOMPARE(d.values, (std::vector<double>{700, 1400}));
                QCOMPARE(s.unit, std::string("us"));
                saw = true;
            }
        }
        QVERIFY(saw);
        QCOMPARE(store.info().unmappedSeries, store.series().size());  // no topology: all listed as unmapped
    }

    void brokenValueGivesLine() {
        EthtoolImporter imp;
        Store store(":memory:");
        SampleWriter w(store);
        DiagnosticSink diag("h.txt");
        try {
            imp.parse({"h.txt", "1700000000\nethtool -S eth0\n     rx_bytes_phy: 12x\n", 0, nullptr}, w, diag, {});
            QFAIL("expected an error");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{3});
        }
    }
};

QTEST_GUILESS_MAIN(TestRoceEthtool)
#include "tst_roce_ethtool.moc"
