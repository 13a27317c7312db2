// SONiC `show interfaces counters` (portstat) tables: the real outputs pasted in sonic-utilities
// PR 1013 and SONiC issue 175 (tests/data/roce/sonic), captures written here in the same shape
// (two snapshots, units, N/A, separators), broken rows; and COUNTERS_DB SAI names in the long CSV.
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/long_csv_importer.h"
#include "importers/registry.h"
#include "importers/sonic_portstat_importer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <map>

using namespace fabscope;

namespace {

std::string readData(const char* name) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/roce/sonic/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

struct Imported {
    std::map<std::string, SeriesData> byKey;  // "port counter" -> samples
    std::map<std::string, std::string> units; // counter -> unit
    std::vector<Diagnostic> warnings;
    std::int64_t rows = 0;
};

Imported importText(const CounterImporter& imp, const std::string& text, const std::string& file) {
    Store store(":memory:");
    Imported r;
    {
        Store::Transaction tx(store);
        SampleWriter w(store);
        DiagnosticSink diag(file);
        r.rows = imp.parse(ImportInput{file, text, 0}, w, diag, {});
        w.flush();
        tx.commit();
        r.warnings = diag.items();
    }
    for (const auto& s : store.series()) {
        r.byKey[s.port + " " + s.counter] = store.loadSeries(s.id);
        r.units[s.counter] = s.unit;
    }
    return r;
}

std::int64_t errorLine(const std::string& text, QString* message = nullptr) {
    try {
        importText(SonicPortstatImporter{}, text, "leaf01.portstat.txt");
    } catch (const ImportError& e) {
        if (message) *message = QString::fromStdString(e.diagnostic().format());
        return e.diagnostic().line;
    }
    return -1;
}

} // namespace

class TestRocePortstat : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(readData("interfaces-counters-pr1013.txt"))->name(), std::string_view("sonic-portstat"));
        QCOMPARE(reg.detect(readData("interfaces-counters-issue175.txt"))->name(), std::string_view("sonic-portstat"));
        SonicPortstatImporter imp;
        QCOMPARE(imp.detect(readData("real-switch-excerpts.txt")), 0);  // pfc tables are not portstat
        QCOMPARE(imp.detect("IFACE STATE RX_BPS\n"), 0);               // no counter column
    }

    // PR 1013: rates as "9.99 B/s" (two tokens) and "0.00%": not stored; counts are.
    void realTableCountsOnly() {
        const auto r = importText(SonicPortstatImporter{}, readData("interfaces-counters-pr1013.txt"), "sonic-asic0.txt");
        QCOMPARE(r.rows, std::int64_t{6 * 8});
        QCOMPARE(r.byKey.size(), std::size_t{6 * 8});
        QCOMPARE(r.byKey.at("Ethernet4 rcv_pkts").values, std::vector<double>{84});
        QCOMPARE(r.byKey.at("Ethernet4 xmit_pkts").values, std::vector<double>{48});
        QCOMPARE(r.byKey.at("Ethernet20 xmit_pkts").values, std::vector<double>{80});
        for (const auto& [key, d] : r.byKey) QVERIFY2(key.find("bps") == std::string::npos, key.c_str());
        QCOMPARE(r.units.at("rcv_pkts"), std::string("packets"));
        QCOMPARE(r.units.at("rcv_errors"), std::string("errors"));
        QVERIFY(r.units.count("rx_discards") && r.units.count("xmit_discards") && r.units.count("rx_oversize"));
        // "Last cached time": the counts are since `sonic-clear counters`, said once with its line.
        QCOMPARE(r.warnings.size(), std::size_t{2});  // + no `date +%s` line
        QVERIFY(std::any_of(r.warnings.begin(), r.warnings.end(), [](const Diagnostic& d) {
            return d.line == 2 && QString::fromStdString(d.message).contains(QStringLiteral("sonic-clear"));
        }));
    }

    // Issue 175: the reporter's first table ends in a row cut after RX_OVR; the second has separators.
    void realTruncatedRowAndSeparators() {
        const std::string text = readData("interfaces-counters-issue175.txt");
        QString message;
        QCOMPARE(errorLine(text, &message), std::int64_t{7});
        QVERIFY(message.startsWith(QStringLiteral("leaf01.portstat.txt:7:")));
        QVERIFY(message.contains(QStringLiteral("TX_OK")));
        const auto second = text.substr(text.find("sonic-clear"));
        const auto r = importText(SonicPortstatImporter{}, second, "spine1.portstat.txt");
        QCOMPARE(r.byKey.at("Ethernet0 xmit_pkts").values, std::vector<double>{3272219});
        QCOMPARE(r.byKey.at("Ethernet4 rcv_pkts").values, std::vector<double>{3272233});
    }

    void twoCapturesNaAndUnits() {
        auto capture = [](long t, const std::string& ok) {
            return std::to_string(t) + "\nadmin@leaf01:~$ show interfaces counters\n"
                   "      IFACE    STATE    RX_OK     RX_BPS    RX_PPS    RX_UTIL    RX_ERR    RX_DRP    RX_OVR    TX_OK    TX_BPS    Tx_PPS    TX_UTIL    TX_ERR    TX_DRP    TX_OVR\n"
                   "-----------  -------  -------  ---------  --------  ---------  --------  --------  --------  -------  --------  --------  ---------  --------  --------  --------\n"
                   "  Ethernet0        U  " + ok + "  1.25 GB/s  12.00/s     10.02%         0         3       N/A      N/A       N/A       N/A        N/A         0         0       N/A\n\n";
        };
        const auto r = importText(SonicPortstatImporter{}, capture(1700000000, "1,000") + capture(1700000060, "12,345,678"), "leaf01.txt");
        const auto& ok = r.byKey.at("Ethernet0 rcv_pkts");
        QCOMPARE(ok.timesMs, (std::vector<std::int64_t>{1700000000000, 1700000060000}));
        QCOMPARE(ok.values, (std::vector<double>{1000, 12345678}));
        QCOMPARE(r.byKey.at("Ethernet0 rx_discards").values, (std::vector<double>{3, 3}));
        QVERIFY(!r.byKey.count("Ethernet0 xmit_pkts"));  // N/A: no sample
        QVERIFY(std::any_of(r.warnings.begin(), r.warnings.end(), [](const Diagnostic& d) {
            return d.line == 5 && QString::fromStdString(d.message).contains(QStringLiteral("N/A"));
        }));
    }

    void brokenRowsNameTheLine() {
        const std::string head = "1700000000\n     IFACE    STATE    RX_OK     RX_BPS    RX_UTIL    RX_ERR\n"
                                 "----------  -------  -------  ---------  ---------  --------\n";
        QCOMPARE(errorLine(head + " Ethernet0        U       48   9.99 B/s      0.00%         0\n Ethernet4   U  4x8  1.0 B/s  0.00%  0\n"), 5);
        QCOMPARE(errorLine(head + " Ethernet0        U       48   9.99 B/s      0.00%         0    7\n"), 4);
        QCOMPARE(errorLine(head + " Ethernet0        U       1,00   9.99 B/s      0.00%         0\n"), 4);
        QCOMPARE(errorLine(head), 0);  // a header and no row
        QCOMPARE(errorLine(std::string("IFACE STATE RX_OK\nEthernet0 U 1\n\0", 33)), 0);
    }

    // COUNTERS_DB field names in the long CSV land on the canonical counters.
    void saiNamesInLongCsv() {
        const std::string csv = "timestamp,node,port,counter,value\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_PFC_3_TX_PKTS,5\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_PFC_3_RX_PKTS,6\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US,70\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_OUT_OCTETS,1000\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_IN_OCTETS,2000\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_IN_ERRORS,1\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_IN_DISCARDS,2\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_OUT_DISCARDS,3\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_IN_UCAST_PKTS,40\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_OUT_UCAST_PKTS,41\n"
                                "1700000000,leaf01,Ethernet0,SAI_PORT_STAT_IF_OUT_ERRORS,4\n";
        const auto r = importText(LongCsvImporter{}, csv, "counters.csv");
        const std::map<std::string, double> want{
            {"pfc_tx_pause_prio3", 5}, {"pfc_rx_pause_prio3", 6}, {"pfc_rx_pause_us_prio3", 70},
            {"xmit_bytes", 1000},      {"rcv_bytes", 2000},       {"rcv_errors", 1},
            {"rx_discards", 2},        {"xmit_discards", 3},      {"rcv_ucast_pkts", 40},
            {"xmit_ucast_pkts", 41},   {"tx_errors", 4}};
        QCOMPARE(r.byKey.size(), want.size());
        for (const auto& [counter, value] : want) {
            QVERIFY2(r.byKey.count("Ethernet0 " + counter), counter.c_str());
            QCOMPARE(r.byKey.at("Ethernet0 " + counter).values, std::vector<double>{value});
        }
        QVERIFY(r.warnings.empty());  // every name known: no "unknown counter" warning
        QCOMPARE(r.units.at("pfc_rx_pause_us_prio3"), std::string("us"));
        QVERIFY(!canonicalCounter("SAI_PORT_STAT_PFC_8_RX_PKTS"));
        QVERIFY(!canonicalCounter("SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION"));  // no unit in SAI: not taken
    }
};

QTEST_GUILESS_MAIN(TestRocePortstat)
#include "tst_roce_portstat.moc"
