// Prometheus: exporter expositions (treydock infiniband_exporter, node_exporter, guilbaults),
// OpenMetrics, query_range JSON; label -> fabric port mapping and bad samples reported.
#include "ib_test_util.h"
#include "importers/prometheus_json_importer.h"
#include "importers/prometheus_text_importer.h"
#include "importers/registry.h"

using namespace fabscope;
using namespace ibtest;

namespace {

CounterImport text(const std::string& t, const std::string& file = "scrape.prom", const std::string& topology = {}) {
    return importCounters(PrometheusTextImporter(), t, file, 1700000000, topology);
}
CounterImport json(const std::string& t, const std::string& file = "range.json", const std::string& topology = {}) {
    return importCounters(PrometheusJsonImporter(), t, file, 1700000000, topology);
}

std::int64_t ms(double s) { return static_cast<std::int64_t>(s * 1000); }

// A query_range answer for node_exporter's transmitted bytes of gpu007 mlx5_0 port 1.
std::string rangeAnswer(const std::string& values, const std::string& extra = {}) {
    return "{\"status\":\"success\"," + extra + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":\"node_infiniband_port_data_transmitted_bytes_total\",\"instance\":\"gpu007.cluster:9100\",\"device\":\"mlx5_0\",\"port\":\"1\",\"job\":\"node\"},\"values\":[" +
           values + "]}]}}";
}

} // namespace

class TestIbPrometheus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void treydockSwitchExposition() {
        const auto r = text(readData("prometheus/infiniband_exporter-switch.prom"));
        QCOMPARE(r.rows, std::int64_t{66});  // 22 counters x 3 switch ports; gauges and info skipped
        QCOMPARE(r.series("0x7cfe9003009ce5b0", "2", "xmit_bytes")->values, std::vector<double>{104026280056104});  // already bytes
        QCOMPARE(r.series("0x506b4b03005c2740", "1", "link_downed")->values, std::vector<double>{1});
        QCOMPARE(r.series("0x506b4b03005c2740", "1", "xmit_bytes")->timesMs, std::vector<std::int64_t>{ms(1700000000)});  // no timestamps: mtime
        QVERIFY(r.series("0x7cfe9003009ce5b0", "1", "multicast_receive_packets"));
        QVERIFY(r.warned("infiniband_switch_port_rate_bytes_per_second (gauge)"));
    }

    void nodeExporterNamesHostAndDevice() {
        // No instance label in a plain scrape: the file name gives the host.
        const auto r = text(readData("prometheus/node_exporter-infiniband.prom"), "scrapes/gpu007.prom");
        QCOMPARE(r.rows, std::int64_t{40});
        QCOMPARE(r.series("gpu007 mlx4_0", "1", "xmit_bytes")->values, std::vector<double>{1.493376e+07});
        // The saturated 32-bit PortXmitWait is stored raw for the rate code to flag.
        QCOMPARE(r.series("gpu007 mlx4_0", "1", "xmit_wait")->values, std::vector<double>{4294967295.0});
        // counters_ext duplicates stay in their own series.
        QVERIFY(r.series("gpu007 mlx4_0", "1", "legacy_data_transmitted_bytes"));
    }

    void labelsMapToFabricPorts() {
        const std::string topo = readData("ibsim/ibnetdiscover.txt");
        const std::string t =
            "# TYPE node_infiniband_port_data_received_bytes_total counter\n"
            "node_infiniband_port_data_received_bytes_total{device=\"mlx5_0\",instance=\"gpu007:9100\",port=\"1\"} 100\n"
            // treydock HCA metrics carry the HCA *port* GUID (ibsim gpu007: node 0x10000c, port 0x10000d).
            "infiniband_hca_port_transmit_data_bytes_total{guid=\"0x000000000010000d\",port=\"1\"} 200\n"
            // guilbaults exports raw 4-byte words.
            "infiniband_portxmitdata_total{component=\"switch\",local_guid=\"0x200004\",local_port=\"1\",local_name=\"leaf03\"} 300\n"
            "node_infiniband_port_data_received_bytes_total{device=\"mlx5_9\",instance=\"ghost:9100\",port=\"1\"} 5\n";
        const auto r = text(t, "scrape.prom", topo);
        QCOMPARE(r.rows, std::int64_t{4});
        QCOMPARE(r.store->info().unmappedSeries, std::size_t{1});  // ghost mlx5_9: kept and counted, not dropped
        QVERIFY(r.series("gpu007 mlx5_0", "1", "rcv_bytes"));
        QCOMPARE(r.series("0x10000c", "1", "xmit_bytes")->values, std::vector<double>{200});
        QCOMPARE(r.series("0x200004", "1", "xmit_bytes")->values, std::vector<double>{1200});
        const auto series = r.store->series();
        const auto mapped = std::count_if(series.begin(), series.end(), [](const SeriesInfo& s) { return s.deviceId != 0; });
        QCOMPARE(mapped, 3);
    }

    void timestampsOpenMetricsAndConcatenatedScrapes() {
        const std::string m = "infiniband_switch_port_symbol_error_total{guid=\"0x10\",port=\"3\"}";
        // Classic text: milliseconds.
        auto r = text(m + " 5 1700000100000\n" + m + " 7 1700000200000\n");
        QCOMPARE(r.series("0x10", "3", "symbol_errors")->timesMs, (std::vector<std::int64_t>{ms(1700000100), ms(1700000200)}));
        // OpenMetrics: seconds, fractions allowed, ends with # EOF.
        r = text("# TYPE infiniband_switch_port_symbol_error counter\n" + m + " 5 1700000100.5\n# EOF\n");
        QCOMPARE(r.series("0x10", "3", "symbol_errors")->timesMs, std::vector<std::int64_t>{1700000100500});
        // Scrapes without timestamps, each after a `date +%s` line.
        r = text("1700000100\n" + m + " 5\n1700000160\n" + m + " 6\n");
        QCOMPARE(r.series("0x10", "3", "symbol_errors")->values, (std::vector<double>{5, 6}));
        QCOMPARE(r.series("0x10", "3", "symbol_errors")->timesMs.back(), ms(1700000160));
    }

    void nanInfDuplicatesAndDisorderAreReported() {
        const std::string m = "infiniband_switch_port_symbol_error_total{guid=\"0x10\",port=\"3\"}";
        const auto r = text(m + " 1 1700000300000\n" + m + " NaN 1700000310000\n" + m + " +Inf 1700000320000\n" + m +
                            " 3 1700000100000\n" + m + " 4 1700000100000\n");
        // Kept: 1 @300, and for the repeated @100 the last value read (4).
        QCOMPARE(r.series("0x10", "3", "symbol_errors")->values, (std::vector<double>{4, 1}));
        QCOMPARE(r.rows, std::int64_t{2});
        QVERIFY(r.warned("2 NaN/Inf counter samples skipped"));
        QVERIFY(r.warned("repeat a timestamp"));
        QVERIFY(r.warned("out of time order"));
        for (const auto& w : r.warnings) QVERIFY2(w.line > 0, w.message.c_str());
    }

    void queryRangeJson() {
        const std::string topo = readData("ibsim/ibnetdiscover.txt");
        const auto r = json(rangeAnswer("[1700000000,\"100\"],[1700000015,\"250\"],[1700000030,\"NaN\"],[1700000015,\"260\"],[1700000045,\"+Inf\"]",
                                        "\"warnings\":[\"partial response\"],"),
                            "range.json", topo);
        const auto s = r.series("gpu007 mlx5_0", "1", "xmit_bytes");
        QVERIFY(s);
        QCOMPARE(s->timesMs, (std::vector<std::int64_t>{ms(1700000000), ms(1700000015)}));
        QCOMPARE(s->values, (std::vector<double>{100, 260}));
        QCOMPARE(r.store->info().unmappedSeries, std::size_t{0});
        QVERIFY(r.warned("Prometheus warning: partial response"));
        QVERIFY(r.warned("2 NaN/Inf"));
        QVERIFY(r.warned("repeat a timestamp"));
    }

    void apiDocExamplesSayWhyNothingImports() {
        for (const char* f : {"prometheus/query_range_matrix_example.json", "prometheus/query_instant_vector_example.json"}) {
            try {
                json(readData(QString::fromLatin1(f)), f);
                QFAIL("the 'up' metric is not an InfiniBand counter");
            } catch (const ImportError& e) {
                QVERIFY2(e.diagnostic().message.find("no InfiniBand counter samples (seen: up") != std::string::npos,
                         e.diagnostic().message.c_str());
            }
        }
    }

    void brokenInputsNameFileAndLine() {
        try {
            json("{\"status\":\"success\",\n\"data\": {\"resultType\": \"matrix\",\n \"result\": [ }\n", "bad.json");
            QFAIL("broken JSON must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().file, std::string("bad.json"));
            QCOMPARE(e.diagnostic().line, std::int64_t{3});
        }
        try {
            json("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\"\"}");
            QFAIL("an error answer must fail");
        } catch (const ImportError& e) {
            QVERIFY(e.diagnostic().message.find("bad_data") != std::string::npos);
        }
        try {
            text("# TYPE x counter\nnode_infiniband_port_data_received_bytes_total{device=\"mlx5_0\",port=\"1\" 5\n", "bad.prom");
            QFAIL("a broken label set must fail");
        } catch (const ImportError& e) {
            QCOMPARE(e.diagnostic().line, std::int64_t{2});
        }
        // Found by fuzzing: a number beyond double range, fields of the wrong JSON type.
        QVERIFY_THROWS_EXCEPTION(ImportError, json(rangeAnswer("[1e308308,\"1\"]")));
        QVERIFY_THROWS_EXCEPTION(ImportError, json("{\"status\":7,\"data\":{\"resultType\":[\"matrix\"]}}"));
        QVERIFY_THROWS_EXCEPTION(ImportError, text("infiniband_switch_port_symbol_error_total{guid=\"0x10\",port=\"3\"} twelve\n"));
    }

    void detectedAsTheirOwnFormats() {
        ImporterRegistry reg;
        const std::pair<const char*, const char*> files[] = {
            {"prometheus/infiniband_exporter-switch.prom", "prometheus"},
            {"prometheus/node_exporter-infiniband.prom", "prometheus"},
            {"prometheus/query_range_matrix_example.json", "prometheus-json"},
            {"prometheus/query_instant_vector_example.json", "prometheus-json"},
        };
        for (const auto& [file, format] : files) {
            const auto* imp = reg.detect(readData(QString::fromLatin1(file)).substr(0, 16384));
            QVERIFY2(imp && imp->name() == format, file);
        }
        QCOMPARE(PrometheusTextImporter().detect(readData("ibsim/perfquery-series.txt")), 0);
        QCOMPARE(PrometheusJsonImporter().detect(readData("prometheus/node_exporter-infiniband.prom")), 0);
    }
};

QTEST_GUILESS_MAIN(TestIbPrometheus)
#include "tst_ib_prometheus.moc"
