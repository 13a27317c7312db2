// RDMA device counters: real `rdma statistic show` output (4 ConnectX ports, one with errors) and
// the `ibdev2netdev` of the same notes (tests/data/roce/rdma), iproute2's wrapped and `-p` forms,
// sysfs hw_counters dumps with repeated `date +%s` captures, and broken records.
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/rdma_stat_importer.h"
#include "importers/registry.h"

#include <QFile>
#include <QtTest>

#include <map>

using namespace fabscope;

namespace {

std::string readData(const char* name) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/roce/rdma/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", name);
    return f.readAll().toStdString();
}

struct Imported {
    std::map<std::string, SeriesData> byKey;  // "node port counter" -> samples
    std::vector<Diagnostic> warnings;
    std::int64_t rows = 0;
};

Imported importText(const std::string& text, const std::string& file) {
    Store store(":memory:");
    Imported r;
    {
        Store::Transaction tx(store);
        SampleWriter w(store);
        DiagnosticSink diag(file);
        r.rows = RdmaStatImporter{}.parse(ImportInput{file, text, 0}, w, diag, {});
        w.flush();
        tx.commit();
        r.warnings = diag.items();
    }
    for (const auto& s : store.series()) r.byKey[s.nodeRef + " " + s.port + " " + s.counter] = store.loadSeries(s.id);
    return r;
}

std::int64_t errorLine(const std::string& text) {
    try {
        importText(text, "gpu01.rdma.txt");
    } catch (const ImportError& e) {
        if (e.diagnostic().file != "gpu01.rdma.txt") return -2;
        return e.diagnostic().line;
    }
    return -1;
}

} // namespace

class TestRoceRdma : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection() {
        ImporterRegistry reg;
        QCOMPARE(reg.detect(readData("notes-rdma-statistic-show.txt"))->name(), std::string_view("rdma-stat"));
        QCOMPARE(reg.detect(readData("iproute2-stat-show-wrapped.txt"))->name(), std::string_view("rdma-stat"));
        QCOMPARE(reg.detect("/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:12\n")->name(),
                 std::string_view("rdma-stat"));
        QCOMPARE(RdmaStatImporter{}.detect("NIC statistics:\n     rx_bytes_phy: 1\n"), 0);
    }

    // Without ibdev2netdev the series stay on the RDMA port name; with it they land on the netdev.
    void realOutputAndNetdevMapping() {
        const std::string stat = readData("notes-rdma-statistic-show.txt");
        const auto plain = importText(stat, "gpu07.rdma.txt");
        QCOMPARE(plain.rows, std::int64_t{4 * 29});
        QCOMPARE(plain.byKey.at("gpu07 mlx5_0/1 out_of_buffer").values, std::vector<double>{135});
        QCOMPARE(plain.byKey.at("gpu07 mlx5_0/1 resp_cqe_error").values, std::vector<double>{1009});
        QVERIFY(plain.byKey.count("gpu07 mlx5_3/1 cnp_sent") && plain.byKey.count("gpu07 mlx5_3/1 cnp_handled") &&
                plain.byKey.count("gpu07 mlx5_3/1 ecn_marked"));
        QCOMPARE(plain.warnings.size(), std::size_t{1});  // no `date +%s` line
        QCOMPARE(plain.warnings[0].line, std::int64_t{2});

        const auto mapped = importText(readData("notes-ibdev2netdev.txt") + "1700000000\n" + stat, "gpu07.rdma.txt");
        QCOMPARE(mapped.byKey.at("gpu07 eth01 out_of_buffer").values, std::vector<double>{135});
        QCOMPARE(mapped.byKey.at("gpu07 eth01 out_of_buffer").timesMs, std::vector<std::int64_t>{1700000000000});
        QVERIFY(mapped.byKey.count("gpu07 eth04 req_cqe_flush_error"));
        for (const auto& [key, d] : mapped.byKey) QVERIFY2(key.find("mlx5_") == std::string::npos, key.c_str());
    }

    // The wrapped form (pairs straddling lines) and the `-p` form give the same values.
    void wrappedAndPrettyForms() {
        const auto r = importText("1700000000\n" + readData("iproute2-stat-show-wrapped.txt"), "srv.rdma.txt");
        QCOMPARE(r.byKey.at("srv mlx5_0/1 cnp_sent").values, std::vector<double>{0});
        // Both forms print it at the same time: the store keeps one sample per time.
        QCOMPARE(r.byKey.at("srv mlx5_0/1 packet_seq_err").values, std::vector<double>{0});
        QCOMPARE(r.byKey.at("srv mlx5_0/1 ecn_marked").values, std::vector<double>{0});  // only in the wrapped one
    }

    // sysfs dumps repeated over time, `rdma link show` naming the netdev, `lifespan` not a counter.
    void sysfsSnapshotsAndLinkShow() {
        auto snap = [](long t, int cnp) {
            return std::to_string(t) + "\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:" + std::to_string(cnp) +
                   "\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence:3\n"
                   "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan:10\n"
                   "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rx_icrc_encapsulated:N/A (no PMA)\n";
        };
        const std::string text = "link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0np0\n" + snap(1700000000, 10) +
                                 snap(1700000060, 25);
        const auto r = importText(text, "gpu01.hw.txt");
        const auto& cnp = r.byKey.at("gpu01 ens1f0np0 cnp_sent");
        QCOMPARE(cnp.timesMs, (std::vector<std::int64_t>{1700000000000, 1700000060000}));
        QCOMPARE(cnp.values, (std::vector<double>{10, 25}));
        QCOMPARE(r.byKey.size(), std::size_t{2});  // cnp_sent, out_of_sequence
    }

    void brokenRecordsNameTheLine() {
        QCOMPARE(errorLine("1700000000\nlink mlx5_0/1 np_cnp_sent 1 rp_cnp_handled\n"), 2);
        QCOMPARE(errorLine("1700000000\nlink mlx5_0/1 np_cnp_sent 1\nrp_cnp_handled x7 out_of_sequence 0\n"), 3);
        QCOMPARE(errorLine("1700000000\n/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:abc\n"), 2);
        QCOMPARE(errorLine("just some text\n"), 0);
        QCOMPARE(errorLine(std::string("link mlx5_0/1 np_cnp_sent 1\n\0", 29)), 0);
    }
};

QTEST_GUILESS_MAIN(TestRoceRdma)
#include "tst_roce_rdma.moc"
