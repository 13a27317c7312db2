// The report sections built from the analysis' rarer findings: ECMP imbalance, PFC storms and
// congestion trees (origin and spread by level), straggler paths with the route drawn, and
// topology changes, port modules and ibdiagnet's checks. Each store comes from the analysis
// tests' fixtures or tests/data, so the numbers the report must carry are known; the demo store
// has none of these and every section says so.
#include "analysis_fixture.h"
#include "core/report/csv_writer.h"
#include "core/report/document.h"
#include "core/report/html_writer.h"
#include "core/report/json_writer.h"
#include "core/report/report_data.h"
#include "core/report/report_writer.h"
#include "core/report/text_format.h"
#include "report_doc_find.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <map>

using namespace atest;

namespace {

ReportData reportOf(const std::string& db) {
    const Store store(db, Store::Mode::ReadOnly);
    return buildReportData(store, {});
}

using docfind::section;
using docfind::table;

// One row of a table as column header -> cell.
std::map<std::string, std::string> row(const Table& t, std::size_t r) {
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < t.columns.size() && i < t.rows.at(r).cells.size(); ++i) out[t.columns[i]] = t.rows[r].cells[i];
    return out;
}

std::vector<const Diagram*> diagrams(const Section& s) {
    std::vector<const Diagram*> out;
    for (const auto& b : s.blocks)
        if (const auto* g = std::get_if<Diagram>(&b)) out.push_back(g);
    return out;
}

// FABSCOPE_KEEP_REPORTS=DIR keeps each fixture's report as HTML and PDF there, to look at.
void keep(const ReportData& d, const std::string& name) {
    const QByteArray dir = qgetenv("FABSCOPE_KEEP_REPORTS");
    if (dir.isEmpty()) return;
    writeReport(d, ReportFormat::Html, dir.toStdString() + "/" + name + ".html");
    writeReport(d, ReportFormat::Pdf, dir.toStdString() + "/" + name + ".pdf");
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

// --- fixtures (as in tst_analysis_ecmp/congestion/pfc/straggler/topology) ---

Fabric ecmpFabric() {
    MiniFabric m;
    const NodeId l1 = m.sw("leaf01"), l2 = m.sw("leaf02");
    std::vector<NodeId> spines;
    for (int s = 1; s <= 4; ++s) spines.push_back(m.sw("spine0" + std::to_string(s)));
    m.link(l1, 1, m.host("dgx001 mlx5_0"), 1);
    m.link(l2, 1, m.host("dgx002 mlx5_0"), 1);
    for (int s = 0; s < 4; ++s) {
        m.link(l1, 9 + s, spines[static_cast<std::size_t>(s)], 1);
        m.link(l2, 9 + s, spines[static_cast<std::size_t>(s)], 2);
    }
    return m.build();
}

// Two leaves with two hosts each under one spine (PFC, congestion); a second spine for stragglers.
Fabric twoLeaves(bool twoSpines, int dgx004Width = 4, const std::string& dgx004 = "dgx004 mlx5_0") {
    MiniFabric m;
    const NodeId l1 = m.sw("leaf01"), l2 = m.sw("leaf02"), s1 = m.sw("spine01");
    m.link(l1, 1, m.host("dgx001 mlx5_0"), 1);
    m.link(l1, 2, m.host("dgx002 mlx5_0"), 1);
    m.link(l2, 1, m.host("dgx003 mlx5_0"), 1);
    m.link(l2, 2, m.host(dgx004), 1, dgx004Width);
    if (twoSpines) {
        const NodeId s2 = m.sw("spine02");
        m.link(l1, 9, s1, 1);
        m.link(l1, 10, s2, 1);
        m.link(l2, 9, s1, 2);
        m.link(l2, 10, s2, 2);
    } else {
        m.link(l1, 9, s1, 1);
        m.link(l2, 9, s1, 2);
    }
    return m.build();
}

std::vector<double> sharesAsUs(const std::vector<double>& shares) {
    std::vector<double> d;
    for (double s : shares) d.push_back(s * 10e6);
    return cumulative(d);
}

std::vector<double> waits(const std::vector<double>& shares) {  // PortXmitWait ticks at the default 4 ns
    std::vector<double> d;
    for (double s : shares) d.push_back(s * 10 / 4e-9);
    return cumulative(d);
}

} // namespace

class TestReportSections : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};

private Q_SLOTS:
    void ecmpImbalanceNamesTheGroupAndTheBusiestMember() {
        const std::vector<double> busy{0.3, 0.3, 0.6, 0.65, 0.6, 0.7, 0.6, 0.6, 0.3, 0.3};
        const std::vector<double> rest{0.3, 0.3, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3};
        std::string csv = rows("leaf01", 9, "xmit_bytes", hdrBytes(busy));
        for (int p = 10; p <= 12; ++p) csv += rows("leaf01", p, "xmit_bytes", hdrBytes(rest));
        const ReportData d = reportOf(stores_.make(ecmpFabric(), csv));
        const ReportDocument doc = buildDocument(d);
        const Table* t = table(doc, "ecmp_imbalance");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{1});
        const auto r = row(*t, 0);
        QCOMPARE(r.at("Group"), std::string("leaf01: 4 up-links (ports 9, 10, 11, 12)"));
        QCOMPARE(r.at("Busiest link (transmitter -> receiver)"), std::string("leaf01 p9 -> spine01 p1"));
        // Intervals 3..8 are imbalanced: port 9 against the mean of all four.
        const std::vector<double> hot(busy.begin() + 2, busy.begin() + 8);
        QCOMPARE(mean(hot), 0.625);
        QCOMPARE(r.at("Busiest (%)"), std::string("62.5"));
        QCOMPARE(r.at("Group mean (%)"), std::string("30.6"));  // (0.625 + 3 x 0.2) / 4
        QCOMPARE(r.at("Peak ratio (x)"), std::string("2.154"));  // 0.7 / ((0.7 + 3 x 0.2) / 4)
        QCOMPARE(r.at("Duration (s)"), std::string("60"));
        QCOMPARE(r.at("From"), std::string("2023-11-14 22:13:40 UTC"));  // kT0 + 20 s
        const std::string html = renderHtml(doc);
        QVERIFY(html.find("<section id=\"ecmp_imbalance\">") != std::string::npos);
        QVERIFY(html.find("leaf01 p9 -&gt; spine01 p1") != std::string::npos);

        // JSON: the contract plus the table, with numbers as numbers.
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(d))).object();
        QCOMPARE(j[QStringLiteral("fabscope_findings")].toInt(), 1);
        const QJsonObject tj = j[QStringLiteral("report")].toObject()[QStringLiteral("tables")].toObject()[QStringLiteral("ecmp_imbalance")].toObject();
        const QJsonObject r0 = tj[QStringLiteral("rows")].toArray().at(0).toObject();
        QCOMPARE(r0[QStringLiteral("Peak ratio (x)")].toDouble(), 2.154);
        QCOMPARE(r0[QStringLiteral("Duration (s)")].toDouble(), 60.0);
        QCOMPARE(r0[QStringLiteral("Busiest link (transmitter -> receiver)")].toString(), QStringLiteral("leaf01 p9 -> spine01 p1"));
        // CSV: the same table under its name.
        const std::string csvOut = renderCsv(doc);
        QVERIFY(csvOut.find("# table,ecmp_imbalance\r\nSeverity,Group,") != std::string::npos);
        QVERIFY(csvOut.find("warning,\"leaf01: 4 up-links (ports 9, 10, 11, 12)\",leaf01 p9 -> spine01 p1,") != std::string::npos);
    }

    void congestionTreeShowsRootAndLevels() {
        const std::vector<double> quiet(12, 0.01);
        const std::vector<double> root{0.01, 0.01, 0.5, 0.6, 0.7, 0.6, 0.55, 0.5, 0.01, 0.01, 0.01, 0.01};
        const std::vector<double> spread{0.01, 0.01, 0.4, 0.45, 0.4, 0.35, 0.4, 0.4, 0.01, 0.01, 0.01, 0.01};
        std::string csv = rows("leaf02", 1, "xmit_wait", waits(root)) + rows("spine01", 2, "xmit_wait", waits(spread)) +
                          rows("leaf01", 9, "xmit_wait", waits(spread)) + rows("dgx001 mlx5_0", 1, "xmit_wait", waits(spread));
        for (const auto& [node, port] : std::vector<std::pair<std::string, int>>{{"leaf01", 1}, {"leaf01", 2}, {"leaf02", 2}, {"spine01", 1}})
            csv += rows(node, port, "xmit_wait", waits(quiet));
        const ReportDocument doc = buildDocument(reportOf(stores_.make(twoLeaves(false), csv)));
        const Table* t = table(doc, "congestion_trees");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{1});
        const auto r = row(*t, 0);
        QCOMPARE(r.at("Root -> receiver"), std::string("leaf02 p1 -> dgx003 mlx5_0 p1"));
        QCOMPARE(r.at("Root wait peak (%)"), std::string("70.0"));
        QCOMPARE(r.at("Ports in tree"), std::string("4"));
        QCOMPARE(r.at("Levels"), std::string("3"));
        QCOMPARE(r.at("Spread"), std::string("level 1: spine01 p2; level 2: leaf01 p9; level 3: dgx001 mlx5_0 p1"));
        QCOMPARE(r.at("Duration (s)"), std::string("60"));
        QCOMPARE(r.at("Severity"), std::string("critical"));
        const Table* spreadTable = table(doc, "congestion_tree_spread");
        QVERIFY(spreadTable);
        QCOMPARE(spreadTable->rows.size(), std::size_t{4});
        QCOMPARE(row(*spreadTable, 3).at("Level (hops upstream)"), std::string("3"));
        QCOMPARE(row(*spreadTable, 3).at("Port"), std::string("dgx001 mlx5_0 p1"));
        const Table* pfc = table(doc, "pfc_storms");
        QVERIFY(pfc && pfc->rows.empty());
        QVERIFY(pfc->emptyText.starts_with("None in this window"));
    }

    void pfcStormShowsOriginAndSpread() {
        const std::vector<double> none(10, 0);
        const std::vector<double> storm{0, 0.8, 0.9, 0.95, 0.9, 0.85, 0, 0, 0, 0};
        const std::vector<double> spread{0, 0.6, 0.7, 0.7, 0.6, 0.6, 0, 0, 0, 0};
        auto tx = [](const std::string& node, int port, const std::vector<double>& s) {
            return rows(node, port, "pfc_tx_pause_us_prio3", sharesAsUs(s));
        };
        const std::string csv = tx("leaf01", 9, none) + tx("leaf02", 1, none) + tx("leaf02", 2, none) + tx("spine01", 2, none) +
                                tx("dgx001 mlx5_0", 1, none) + tx("dgx003 mlx5_0", 1, storm) + tx("leaf02", 9, spread) +
                                tx("spine01", 1, spread) + tx("leaf01", 1, spread);
        const ReportData data = reportOf(stores_.make(twoLeaves(false), csv));
        keep(data, "pfc");
        const ReportDocument doc = buildDocument(data);
        const Table* t = table(doc, "pfc_storms");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{1});
        const auto r = row(*t, 0);
        QCOMPARE(r.at("Origin"), std::string("dgx003 mlx5_0 p1"));
        QCOMPARE(r.at("Paused peak (%)"), std::string("95.0"));
        QCOMPARE(r.at("Priority"), std::string("3"));
        QCOMPARE(r.at("Ports reached"), std::string("3"));
        QCOMPARE(r.at("Levels"), std::string("3"));
        QCOMPARE(r.at("Spread"), std::string("level 1: leaf02 p9; level 2: spine01 p1; level 3: leaf01 p1"));
        QCOMPARE(r.at("Duration (s)"), std::string("50"));
        QVERIFY(table(doc, "pfc_storm_spread"));
        QCOMPARE(table(doc, "pfc_storm_spread")->rows.size(), std::size_t{4});
    }

    void stragglerPathIsDrawnWithItsBottleneck() {
        const std::string hostile = "dgx004 <i>&co</i>";
        const std::string db = stores_.make(twoLeaves(true, 1, hostile), "");
        {
            Store store(db);
            sql::exec(store.handle(), "INSERT INTO jobs(id, name, import_id) VALUES(1, 'train', 0);"
                                      "INSERT INTO job_ranks(job_id, rank, host, device) VALUES(1, 0, 'dgx001', 'mlx5_0'), (1, 1, 'dgx002', ''),"
                                      "(1, 2, 'dgx003', ''), (1, 3, 'dgx004', '');");
        }
        const ReportData data = reportOf(db);
        keep(data, "straggler");
        const ReportDocument doc = buildDocument(data);
        const Table* t = table(doc, "straggler_paths");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{1});
        const auto r = row(*t, 0);
        QCOMPARE(r.at("Job"), std::string("train"));
        QCOMPARE(r.at("Pair (source -> destination)"), std::string("rank 0 (dgx001) -> rank 3 (dgx004)"));
        QCOMPARE(r.at("Bottleneck hop"), "leaf02 p2 -> " + hostile + " p1");
        QCOMPARE(r.at("Bottleneck headroom (%)"), std::string("25.0"));  // 1x of 4x
        QCOMPARE(r.at("Reason"), std::string("degraded_link"));
        QCOMPARE(r.at("Routes"), std::string("2"));
        QCOMPARE(r.at("Pairs scored"), std::string("6"));
        const Table* hops = table(doc, "straggler_routes");
        QVERIFY(hops);
        QCOMPARE(hops->rows.size(), std::size_t{4});  // host -> leaf -> spine -> leaf -> host
        QCOMPARE(row(*hops, 0).at("Leaves (node, out-port)"), std::string("dgx001 mlx5_0 p1"));
        QCOMPARE(row(*hops, 3).at("Bottleneck"), std::string("yes"));
        QCOMPARE(row(*hops, 2).at("Bottleneck"), std::string());

        const auto ds = diagrams(*section(doc, "jobs"));
        QCOMPARE(ds.size(), std::size_t{1});
        const std::string& svg = ds[0]->svg;
        for (const char* s : {"dgx001 mlx5_0", "leaf01", "leaf02", ">host<", ">leaf<", ">spine<", ">p1<", ">p2<", ">bottleneck<",
                              "degraded_link, 25.0% headroom"})
            QVERIFY2(svg.find(s) != std::string::npos, s);
        QCOMPARE(std::count(svg.begin(), svg.end(), '\n') > 10, true);
        QVERIFY(svg.find("stroke=\"#b3261e\" stroke-width=\"4\"") != std::string::npos);  // the bad hop, once

        // The Jobs part: the job with its hosts, its tightest pairs, and why the straggler is the worst.
        const Table* jobs = table(doc, "jobs");
        QVERIFY(jobs);
        QCOMPARE(jobs->rows.size(), std::size_t{1});
        QCOMPARE(row(*jobs, 0).at("Job"), std::string("train"));
        QCOMPARE(row(*jobs, 0).at("Hosts"), std::string("4"));
        QCOMPARE(row(*jobs, 0).at("Pairs scored"), std::string("6"));
        QCOMPARE(row(*jobs, 0).at("Straggler path"), std::string("straggler_path-1"));
        const Table* pairs = table(doc, "job_pairs");
        QVERIFY(pairs);
        QCOMPARE(pairs->rows.size(), std::size_t{5});  // the 5 tightest of 6
        QCOMPARE(row(*pairs, 0).at("Pair (source -> destination)"), std::string("rank 0 (dgx001) -> rank 3 (dgx004)"));
        QCOMPARE(row(*pairs, 0).at("Routed by"), std::string("1 of 2 equal-cost routes"));
        // The ranks by the median headroom of their pairs: rank 3, behind its 1x link, first.
        const Table* tight = table(doc, "job_tight_ranks");
        QVERIFY(tight);
        QCOMPARE(tight->rows.size(), std::size_t{4});
        QCOMPARE(row(*tight, 0).at("Rank"), std::string("3"));
        QCOMPARE(row(*tight, 0).at("Host (adapter)"), std::string("dgx004"));
        QCOMPARE(row(*tight, 0).at("Host port"), hostile + " p1");
        QCOMPARE(row(*tight, 0).at("Switch port"), std::string("leaf02 p2"));  // the bottleneck hop's transmitter
        QCOMPARE(row(*tight, 0).at("Median pair headroom (%)"), std::string("25.0"));
        for (std::size_t i = 1; i < 4; ++i) {  // the others' pairs run clear, by rank
            QCOMPARE(row(*tight, i).at("Rank"), std::to_string(i - 1));
            QCOMPARE(row(*tight, i).at("Median pair headroom (%)"), std::string("100.0"));
        }
        bool why = false, hosts = false, end = false;
        for (const auto& b : section(doc, "jobs")->blocks)
            if (const auto* p = std::get_if<Paragraph>(&b)) {
                why = why || p->text.starts_with("Why rank 0 (dgx001) -> rank 3 (dgx004) is job train's straggler: job train:");
                hosts = hosts || p->text == "Job train runs on dgx001 mlx5_0, dgx002, dgx003, dgx004.";
                // Which end: every pair through rank 3's 1x host link keeps 25 %; rank 0's other pairs run clear.
                end = end || p->text == "Median headroom of the pairs each rank is in: rank 0 (dgx001) 100.0%, rank 3 (dgx004) 25.0%: "
                                        "rank 3 (dgx004) is behind the bottleneck, its other pairs as tight.";
            }
        QVERIFY(why);
        QVERIFY(hosts);
        QVERIFY(end);

        // The straggler feeds the GPU time at risk even as a warning: the ring runs at its bound.
        QCOMPARE(data.gpuRisk.jobs.size(), std::size_t{1});
        QCOMPARE(data.gpuRisk.jobs[0].straggler, std::string("straggler_path-1"));
        QCOMPARE(data.gpuRisk.jobs[0].seconds, data.findings.windowEnd - data.findings.windowStart);
        QVERIFY(data.gpuRisk.jobs[0].boundGbps > 0);
        const Table* risk = table(doc, "gpu_time_at_risk_by_job");
        QVERIFY(risk);
        QCOMPARE(row(*risk, 0).at("Straggler path"), std::string("straggler_path-1"));
        QVERIFY(svg.find("stroke-width=\"4\"", svg.find("stroke-width=\"4\"") + 1) == std::string::npos);
        QVERIFY(svg.find("<i>") == std::string::npos);
        QVERIFY(svg.find(">&lt;i&gt;&amp;co&lt;/i&gt;</text>") != std::string::npos);  // its second line, escaped
        const std::string html = renderHtml(doc);
        QVERIFY(html.find("<figure class=\"diagram\"") != std::string::npos);
        QVERIFY(html.find("<i>&co") == std::string::npos);
    }

    // Ranks whose hosts the topology does not have are named in the job's paragraph (the hosts to
    // look for), and counted in the Jobs table; the others are routed as before.
    void jobRanksOffTheFabricAreNamed() {
        const std::string db = stores_.make(twoLeaves(true), "");
        {
            Store store(db);
            sql::exec(store.handle(), "INSERT INTO jobs(id, name, import_id) VALUES(1, 'train', 0);"
                                      "INSERT INTO job_ranks(job_id, rank, host, device) VALUES(1, 0, 'dgx001', 'mlx5_0'), (1, 1, 'dgx002', ''),"
                                      "(1, 2, 'gpu-spare7', 'mlx5_3'), (1, 3, 'dgx004', ''), (1, 4, 'gpu-spare9', '');");
        }
        const ReportDocument doc = buildDocument(reportOf(db));
        const Table* jobs = table(doc, "jobs");
        QVERIFY(jobs);
        QCOMPARE(row(*jobs, 0).at("Ranks not on the fabric"), std::string("2"));
        QCOMPARE(row(*jobs, 0).at("Pairs scored"), std::string("3"));  // among dgx001, dgx002, dgx004
        const Table* tight = table(doc, "job_tight_ranks");  // only the ranks whose pairs were routed
        QVERIFY(tight);
        QCOMPARE(tight->rows.size(), std::size_t{3});
        for (std::size_t i = 0; i < 3; ++i) QVERIFY(!row(*tight, i).at("Host (adapter)").starts_with("gpu-spare"));
        std::string text;
        for (const auto& b : section(doc, "jobs")->blocks)
            if (const auto* p = std::get_if<Paragraph>(&b); p && p->text.starts_with("Job train runs on")) text = p->text;
        QCOMPARE(text, std::string("Job train runs on dgx001 mlx5_0, dgx002, gpu-spare7 mlx5_3, dgx004, gpu-spare9. Not on the fabric, so "
                                   "their pairs are not routed: rank 2 (gpu-spare7 mlx5_3), rank 4 (gpu-spare9)."));
    }

    void topologyChangesListEveryKind() {
        MiniFabric b, a;
        {
            const NodeId leaf = b.sw("leaf01"), s1 = b.sw("spine01"), s2 = b.sw("spine02"), h1 = b.host("dgx001 mlx5_0"),
                         h2 = b.host("dgx002 mlx5_0");
            b.link(leaf, 1, h1, 1);
            b.link(leaf, 2, h2, 1);
            b.link(leaf, 9, s1, 1);
            b.link(leaf, 10, s2, 1);
        }
        {
            const NodeId leaf = a.sw("leaf01"), s1 = a.sw("spine01"), s2 = a.sw("spine02"), h1 = a.host("dgx001 mlx5_0"),
                         h2 = a.host("dgx002 mlx5_0");
            a.link(leaf, 1, h1, 1);
            a.link(leaf, 3, h2, 1);
            a.link(leaf, 9, s1, 1, 1);
            a.link(leaf, 11, s2, 2);
        }
        const std::string db = stores_.make(b.build(), "");
        stores_.addSnapshot(db, a.build(), "B", kT0 + 3600);
        const ReportDocument doc = buildDocument(reportOf(db));
        const Table* t = table(doc, "topology_changes");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{4});
        std::map<std::string, std::map<std::string, std::string>> byChange;
        for (std::size_t i = 0; i < t->rows.size(); ++i) byChange[row(*t, i).at("Change")] = row(*t, i);
        QCOMPARE(byChange["width_speed"].at("Link or port"), std::string("leaf01 p9 <-> spine01 p1"));
        QCOMPARE(byChange["width_speed"].at("Before"), std::string("4xHDR"));
        QCOMPARE(byChange["width_speed"].at("After"), std::string("1xHDR"));
        QCOMPARE(byChange["width_speed"].at("Capacity change (Gb/s)"), std::string("-150"));
        QCOMPARE(byChange["moved"].at("Link or port"), std::string("dgx002 mlx5_0 p1"));
        QCOMPARE(byChange["moved"].at("Before"), std::string("cabled to leaf01 p2"));
        QCOMPARE(byChange["moved"].at("After"), std::string("cabled to leaf01 p3"));
        QCOMPARE(byChange["removed"].at("Link or port"), std::string("leaf01 p10 <-> spine02 p1"));
        QCOMPARE(byChange["added"].at("Link or port"), std::string("leaf01 p11 <-> spine02 p2"));
        const std::string html = renderHtml(doc);
        QVERIFY(html.find(std::string("between the topology snapshot of 2023-11-14 22:13:20 UTC and that of 2023-11-14 23:13:20 UTC")) !=
                std::string::npos);
    }

    // An ibdiagnet run with ibdiagnet2.cables (tests/data/ibdiagnet2-run/): the modules to look at
    // in order (flagged, then near the alarm), the ones that are fine left out, and ibdiagnet's
    // own warning; the demo store has neither and no such section.
    void portModulesListTheOnesToLookAt() {
        Store store(stores_.path("run.sqlite"));
        ImporterRegistry registry;
        QVERIFY(!ImportRunner(store, registry).run({std::string(FABSCOPE_TEST_DATA) + "/ibdiagnet2-run/"}, {}).anyFailed());
        const ReportData d = buildReportData(store, {});
        keep(d, "ibdiagnet2-run");
        const ReportDocument doc = buildDocument(d);
        const Section* s = section(doc, "port_modules");
        QVERIFY(s);
        const Table* t = table(*s, "port_modules");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{2});  // not the passive copper cable, not the dark optic
        auto r = row(*t, 0);  // flagged first: the loss of lock on the other switch's port 3
        QCOMPARE(r.at("Port"), std::string("Quantum-2 Mellanox Technologies p3"));
        QCOMPARE(r.at("Link"), std::string("up"));
        QCOMPARE(r.at("Flags"), std::string("Latched TX / RX LOL Indicator 0x0f; TX Bias Alarm and Warning 0x3333"));
        QCOMPARE(r.at("Weakest RX lane (dBm)"), std::string("-0.6"));
        r = row(*t, 1);  // 3 °C below its 80 °C alarm, lanes 4.1 dB apart
        QCOMPARE(r.at("Port"), std::string("MF0;sw-mgmt:MQM9700/U1 p1"));
        QCOMPARE(r.at("Module (vendor, part, serial)"), std::string("ACME OPTICS OSFP-400G-SR4-T AC25010001"));
        QCOMPARE(r.at("Temperature (°C)"), std::string("77"));
        QCOMPARE(r.at("Alarm (°C)"), std::string("80"));
        QCOMPARE(r.at("RX lane spread (dB)"), std::string("4.1"));
        QCOMPARE(t->rows[1].tone, Tone::Warning);
        const Table* checks = table(*s, "ibdiagnet_checks");
        QVERIFY(checks);
        QCOMPARE(checks->rows.size(), std::size_t{1});
        QCOMPARE(row(*checks, 0).at("Node or port"), std::string("node-1 mlx5_0"));
        QCOMPARE(row(*checks, 0).at("Event"), std::string("FW_VERSION"));
        QCOMPARE(row(*checks, 0).at("Tool"), std::string("ibdiagnet"));
        // The same in the CSV and JSON the report writes.
        QVERIFY(renderCsv(doc).find("# table,port_modules\r\n") != std::string::npos);
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(d))).object();
        const QJsonArray rows = j[QStringLiteral("report")].toObject()[QStringLiteral("tables")].toObject()[QStringLiteral("port_modules")]
                                    .toObject()[QStringLiteral("rows")].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(1).toObject()[QStringLiteral("Temperature (°C)")].toDouble(), 77.0);
        // A stricter margin leaves the warm optic out; its lanes still count.
        ReportOptions strict;
        strict.config.optics.temperatureMarginC = 2;
        strict.config.optics.rxLaneSpreadDb = 5;
        QCOMPARE(table(buildDocument(buildReportData(store, strict)), "port_modules")->rows.size(), std::size_t{1});
    }

    void demoSaysNoneInThisWindowForEach() {
        const DemoManifest demo = writeDemo(stores_.path("demo"), {});
        Store store(stores_.path("demo.sqlite"));
        ImporterRegistry registry;
        QVERIFY(!ImportRunner(store, registry).run({stores_.path("demo")}, {}).anyFailed());
        const ReportData data = buildReportData(store, {});
        keep(data, "demo");
        const ReportDocument doc = buildDocument(data);
        for (const char* id : {"ecmp_imbalance", "pfc_storms", "congestion_trees", "straggler_paths", "topology_changes"}) {
            const Table* t = table(doc, id);
            QVERIFY2(t && t->rows.empty(), id);
            QVERIFY2(t->emptyText.starts_with("None in this window"), id);
        }
        const std::string html = renderHtml(doc);
        for (const char* id : {"ecmp_imbalance", "pfc_congestion", "jobs", "topology_changes"}) {
            const auto at = html.find(std::string("<section id=\"") + id + "\">");
            QVERIFY2(at != std::string::npos, id);
            QVERIFY2(html.substr(at, html.find("</section>", at) - at).find("None in this window") != std::string::npos, id);
        }
        QVERIFY(!demo.faults.empty());
        QVERIFY(!section(doc, "port_modules"));  // no module readings, no ibdiagnet checks: no section
    }
};

QTEST_MAIN(TestReportSections)
#include "tst_report_sections.moc"
