// Collective benchmark assessment and the report's Benchmarks section: a nccl-tests run on hosts
// of the demo fabric, whose one degraded host link (manifest fault) must be named as the
// bottleneck; a run on healthy hosts must not name it; the report shows both kinds of results.
#include "core/analysis/collective_bandwidth.h"
#include "core/demo_fabric.h"
#include "core/report/document.h"
#include "core/report/html_writer.h"
#include "core/report/report_data.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace fabscope;

namespace {

CollectiveRun run(const std::vector<std::string>& hosts, double bigBusbw) {
    CollectiveRun r;
    r.id = 7;
    r.tool = "all_reduce_perf";
    r.hosts = hosts;
    r.avgBusbwGBs = 4.5;
    CollectiveRow small{1048576, 262144, "float", "sum", 100, 10, 2.5, 101, 10, 2.4, 0};
    CollectiveRow big{1073741824, 268435456, "float", "sum", 90000, 11.9, bigBusbw, 90100, 11.9, bigBusbw - 0.1, 0};
    r.rows = {small, big};
    return r;
}

// The demo's degraded link: its host end's host name ("dgx021" of "dgx021 mlx5_0").
const DemoFault& degradedFault(const DemoManifest& m) {
    for (const auto& f : m.faults)
        if (f.kind == FindingKind::DegradedLink) return f;
    qFatal("demo has no degraded link");
    return m.faults.front();
}

std::string hostName(const std::string& description) { return description.substr(0, description.find(' ')); }

bool namesLink(const CollectiveBottleneck& b, const std::string& node, const std::string& port) {
    return (b.txNode == node && b.txPort == port) || (b.rxNode == node && b.rxPort == port);
}

std::string ncclOutput(const std::string& a, const std::string& b) {
    return "1700000000\n# nThread 1 nGpus 1 minBytes 1048576 maxBytes 2097152 step: 2(factor)\n#\n# Using devices\n"
           "#  Rank  0 Group  0 Pid  1 on " + a + " device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
           "#  Rank  1 Group  0 Pid  2 on " + b + " device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
           "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
           "     1048576        262144     float     sum      -1    120.5    8.70    8.70      0    119.8    8.75    8.75      0\n"
           "     2097152        524288     float     sum      -1    180.2   11.64   11.64      0    179.9   11.66   11.66      0\n"
           "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 10.1875\n";
}

} // namespace

class TestBenchmarks : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    DemoManifest demo_;
    Fabric fabric_;

private Q_SLOTS:
    void initTestCase() {
        demo_ = writeDemo(dir_.filePath(QStringLiteral("demo")).toStdString(), {});
        fabric_ = demoFabric(DemoOptions::Scale::Small);
    }

    void degradedHostLinkIsTheBottleneck() {
        const DemoFault& f = degradedFault(demo_);
        const std::string slowHost = hostName(f.peerNode.starts_with("leaf") ? f.node : f.peerNode);
        const std::string other = slowHost == "dgx001" ? "dgx002" : "dgx001";
        const auto a = assessCollectiveRun(fabric_, run({other, other, slowHost, slowHost}, 2.9));
        QVERIFY2(a.bottleneck, a.note.c_str());
        QVERIFY2(namesLink(*a.bottleneck, f.node, f.port), (a.bottleneck->txNode + " p" + a.bottleneck->txPort).c_str());
        // the degraded link's capacity, and busbw x 8 over it
        double cap = 0;
        for (const Link& l : fabric_.links)
            if ((fabric_.node(fabric_.port(l.a).node).description == f.node && fabric_.port(l.a).name == f.port) ||
                (fabric_.node(fabric_.port(l.b).node).description == f.node && fabric_.port(l.b).name == f.port))
                cap = static_cast<double>(l.capacityBps) / 1e9;
        QCOMPARE(a.bottleneck->capacityGbps, cap);
        QCOMPARE(a.largestBytes, std::int64_t{1073741824});
        QCOMPARE(*a.busbwGBs, 2.9);
        QCOMPARE(*a.peakBusbwGBs, 2.9);
        QCOMPARE(*a.efficiency, 2.9 * 8 / cap);
    }

    void healthyHostsDoNotBlameIt() {
        const DemoFault& f = degradedFault(demo_);
        const std::string slowHost = hostName(f.peerNode.starts_with("leaf") ? f.node : f.peerNode);
        std::vector<std::string> healthy;
        for (const auto& n : fabric_.nodes)
            if (n.type == NodeType::Ca && hostName(n.description) != slowHost && healthy.size() < 3)
                healthy.push_back(hostName(n.description));
        const auto a = assessCollectiveRun(fabric_, run(healthy, 20));
        QVERIFY(a.bottleneck);
        QVERIFY(!namesLink(*a.bottleneck, f.node, f.port));
        QVERIFY(a.bottleneck->capacityGbps > 100);
    }

    void runsTheFabricCannotPlace() {
        QVERIFY(assessCollectiveRun(fabric_, run({"dgx001", "dgx001"}, 5)).note.find("one host") != std::string::npos);
        const auto a = assessCollectiveRun(fabric_, run({"dgx001", "nosuchhost"}, 5));
        QVERIFY(!a.bottleneck);
        QCOMPARE(a.unmappedHosts, std::vector<std::string>{"nosuchhost"});
        QVERIFY(assessCollectiveRun(fabric_, run({}, 5)).note.find("no hosts") != std::string::npos);
    }

    void reportShowsRunsAndPerftest() {
        const DemoFault& f = degradedFault(demo_);
        const std::string slowHost = hostName(f.peerNode.starts_with("leaf") ? f.node : f.peerNode);
        const std::string db = dir_.filePath(QStringLiteral("r.sqlite")).toStdString();
        const std::string nccl = dir_.filePath(QStringLiteral("all_reduce_perf.txt")).toStdString();
        const std::string lat = dir_.filePath(QStringLiteral("ib_write_lat_dgx001_dgx009.txt")).toStdString();
        std::ofstream(nccl) << ncclOutput("dgx001", slowHost);
        std::ofstream(lat) << "1700000050\n #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
                              "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]\n"
                              " 2       1000          1.76           6.12         1.79                1.80             0.06            "
                              "1.88                    6.12\n";
        {
            Store store(db);
            ImporterRegistry reg;
            for (const auto& paths : {std::vector<std::string>{demo_.files.front()}, std::vector<std::string>{nccl, lat}}) {
                const auto sum = ImportRunner(store, reg).run(paths, {});
                for (const auto& d : sum.diagnostics) qWarning("%s", d.format().c_str());
                QVERIFY(!sum.anyFailed());
            }
        }
        const Store store(db, Store::Mode::ReadOnly);
        const ReportData data = buildReportData(store, {});
        QCOMPARE(data.benchmarks.runs.size(), std::size_t{1});
        QCOMPARE(data.benchmarks.perftest.size(), std::size_t{1});
        const std::string html = renderHtml(buildDocument(data));
        QVERIFY(html.find("Benchmarks") != std::string::npos);
        QVERIFY(html.find("10.19") != std::string::npos);  // avg busbw
        QVERIFY(html.find("11.64") != std::string::npos);  // busbw at the largest size
        QVERIFY(html.find(f.node + " p" + f.port) != std::string::npos);  // the bottleneck link
        QVERIFY(html.find("1.79") != std::string::npos);   // perftest t_typical
        QVERIFY(html.find("dgx001 -&gt; dgx009") != std::string::npos || html.find("dgx001 -> dgx009") != std::string::npos);
        QVERIFY(html.find("<polyline") != std::string::npos);  // the busbw chart
    }
};

QTEST_GUILESS_MAIN(TestBenchmarks)
#include "tst_benchmarks.moc"
