// UFM Telemetry JSON: counters per port named by node GUID / port GUID / port number; gauges
// and histograms skipped with a warning; ports not in the topology kept as unmapped series.
#include "ib_test_util.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "importers/ufm_telemetry_importer.h"

using namespace fabscope;
using namespace ibtest;

namespace {

const char* kFile = "small_telemetry.json";

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

Diagnostic failure(const std::string& text) { return failureOf(kFile, [&] { importCounters(UfmTelemetryImporter(), text, kFile); }); }


// A switch holding port 1 of the sample, and an HCA whose node GUID differs from its port GUID
// (0x...ab890 in the telemetry is the port GUID of node 0x...ab88f).
const char* kTopology =
    "Switch\t36 \"S-248a070300ef19a0\"\t\t# \"sw1\" enhanced port 0 lid 1 lmc 0\n"
    "[1]\t\"H-0c42a103007ab88f\"[1](c42a103007ab890) \t\t# \"host1 mlx5_0\" lid 2 4xHDR\n"
    "\n"
    "Ca\t1 \"H-0c42a103007ab88f\"\t\t# \"host1 mlx5_0\"\n"
    "[1](c42a103007ab890) \t\"S-248a070300ef19a0\"[1]\t\t# lid 2 lmc 0 \"sw1\" lid 1 4xHDR\n";

} // namespace

class TestIbUfmTelemetry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void realSampleWithoutTopology() {
        const std::string text = readData("ufm/small_telemetry.json");
        const auto r = importCounters(UfmTelemetryImporter(), text, kFile);
        // Every cumulative Infiniband_ counter of every entry is one sample; "_f_" gauges are not.
        const std::size_t counters = occurrences(text, "\"Infiniband_") - occurrences(text, "_f_u_");
        QCOMPARE(r.rows, std::int64_t(counters));
        QCOMPARE(r.store->info().samples, counters);
        // MBOut is stored as bytes as UFM gives it (not multiplied by 4 again).
        const auto xmit = r.series("0xc42a103007ab890", "1", "xmit_bytes");
        QVERIFY(xmit);
        QCOMPARE(xmit->values, std::vector<double>{4086720});
        QCOMPARE(xmit->timesMs, std::vector<std::int64_t>{1709652347162});  // microseconds in the file
        QCOMPARE(r.series("0x248a070300ef19a0", "1", "link_downed")->values, std::vector<double>{1});
        QCOMPARE(r.series("0x248a070300ef19a0", "23", "link_downed")->values, std::vector<double>{3});
        QCOMPARE(r.series("0x248a070300ef19a0", "23", "port_rcv_switch_relay_errors")->values, std::vector<double>{18});
        QCOMPARE(r.series("0x248a070300ef19a0", "36", "xmit_pkts")->values, std::vector<double>{35335});
        QVERIFY(!r.series("0x248a070300ef19a0", "36", "infiniband_cbw_f_u_gbps"));
        QVERIFY(r.warned("gauges/histograms not stored"));
        QVERIFY(r.warned("Infiniband_Normalized_CBW_f_u_Percent"));
        QVERIFY(r.warned("hist0_u_count"));
        // No topology: every series is unmapped, and counted.
        QCOMPARE(r.store->info().unmappedSeries, r.store->info().series);
    }

    void mappedThroughTheTopology() {
        const std::string text = readData("ufm/small_telemetry.json");
        const auto r = importCounters(UfmTelemetryImporter(), text, kFile, 0, kTopology);
        // The HCA's port GUID names node 0x...ab88f port 1.
        QVERIFY(r.series("0xc42a103007ab88f", "1", "xmit_bytes"));
        QVERIFY(!r.series("0xc42a103007ab890", "1", "xmit_bytes"));
        QVERIFY(r.warned("named through their port GUID"));
        // Two of the sample's devices are not in this topology: their series are unmapped.
        const auto info = r.store->info();
        std::size_t unknownDevices = 0;
        for (const auto& s : r.store->series())
            if (s.deviceId == 0) {
                QVERIFY(s.nodeRef == "0x7cfe900300292356" || s.nodeRef == "0xe41d2d030003e3b0");
                ++unknownDevices;
            }
        QVERIFY(unknownDevices > 0);
        QCOMPARE(info.unmappedSeries, unknownDevices);
    }

    void runnerListsUnmappedSeries() {
        ImporterRegistry registry;
        Store store(":memory:");
        const auto s = ImportRunner(store, registry).run({FABSCOPE_TEST_DATA "/ufm/small_telemetry.json"}, {});
        QCOMPARE(s.count(FileStatus::Imported), std::size_t{1});
        QCOMPARE(s.files.front().format, std::string("ufm-telemetry"));
        QVERIFY(std::any_of(s.diagnostics.begin(), s.diagnostics.end(),
                            [](const Diagnostic& d) { return d.message.find("kept as unmapped") != std::string::npos; }));
    }

    void brokenVariants() {
        const std::string base = readData("ufm/small_telemetry.json");
        {  // truncated JSON: the line where parsing stopped
            const std::string cut = base.substr(0, base.size() / 2);
            const auto d = failure(cut);
            QCOMPARE(d.file, std::string(kFile));
            QVERIFY(d.line > 1);
            QVERIFY(d.message.find("invalid JSON") != std::string::npos);
        }
        {  // a counter that is not a number, reported at its entry's line
            std::string text = base;
            const auto at = text.find("\"Infiniband_LinkDowned_u_Errors\": 1,");
            text.replace(at, 36, "\"Infiniband_LinkDowned_u_Errors\": \"x\",");
            const auto d = failure(text);
            const auto brace = text.rfind('{', at);  // the entry's opening brace
            QCOMPARE(d.line, 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(brace), '\n'));
            QVERIFY2(d.message.find("Infiniband_LinkDowned_u_Errors of values[1] is not a non-negative number") != std::string::npos,
                     d.message.c_str());
        }
        {  // an entry naming no port
            const std::string text = replaceAll(replaceAll(base, "\"port_num\": 36,", "\"port_num\": \"x\","), "\"port_guid\": \"0x248a070300ef19a0\",", "");
            const auto d = failure(text);
            const auto brace = text.rfind('{', text.find("\"port_num\": \"x\""));  // the first entry left without a port
            QCOMPARE(d.line, 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(brace), '\n'));
            QVERIFY2(d.message.find("has no node_guid/port_guid and port_num") != std::string::npos, d.message.c_str());
        }
        QVERIFY(failure("{\"values\": []}").message.find("no Infiniband_ counter") != std::string::npos);
        QVERIFY(failure("{\"status\": \"success\"}").message.find("\"values\" array") != std::string::npos);
    }

    void detected() {
        ImporterRegistry reg;
        const auto* imp = reg.detect(readData("ufm/small_telemetry.json").substr(0, 16384));
        QVERIFY(imp);
        QCOMPARE(imp->name(), std::string_view("ufm-telemetry"));
        QCOMPARE(UfmTelemetryImporter().detect(readData("prometheus/query_range_matrix_example.json")), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbUfmTelemetry)
#include "tst_ib_ufm_telemetry.moc"
