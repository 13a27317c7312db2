// "Latency, jitter and loss" report section on the ibsim fat tree with tests/data/probes/pingmesh.csv
// (make-pingmesh.py plants a lossy cable leaf02 p1 <-> spine01 p2 and a slow host gpu008): the
// worst-p99 pairs are gpu008's with the p99 its raw probes give, the worst-loss pair carries its
// raw loss, the planted cable is blamed with its votes; a store without probes says so.
#include "core/analysis/probe_pairs.h"
#include "core/store/probes.h"
#include "core/report/document.h"
#include "core/report/html_writer.h"
#include "core/report/report_data.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "report_doc_find.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace fabscope;

namespace {

std::string importStore(const QTemporaryDir& dir, const std::string& name, const std::vector<std::string>& rel) {
    const std::string db = dir.filePath(QString::fromStdString(name + ".sqlite")).toStdString();
    Store store(db);
    ImporterRegistry registry;
    std::vector<std::string> files;
    for (const auto& f : rel) files.push_back(std::string(FABSCOPE_TEST_DATA "/") + f);
    if (ImportRunner(store, registry).run(files, {}).anyFailed()) qFatal("import failed");
    return db;
}

ReportDocument reportOf(const std::string& db) {
    const Store store(db, Store::Mode::ReadOnly);
    return buildDocument(buildReportData(store, {}));
}

using docfind::section;
using docfind::table;

// The raw probes of one direction: RTTs (sorted, lost probes have none), sent and lost.
struct Raw {
    std::vector<double> rtt;
    std::int64_t sent = 0, lost = 0;
};
Raw rawOf(const std::string& db, const std::string& src, const std::string& dst) {
    const Store store(db, Store::Mode::ReadOnly);
    Raw r;
    for (const ProbeResult& p : loadProbes(store))
        if (p.src == src && p.dst == dst) {
            if (p.latencyUs) r.rtt.push_back(*p.latencyUs);
            r.sent += p.sent;
            r.lost += p.lost;
        }
    std::sort(r.rtt.begin(), r.rtt.end());
    return r;
}

std::pair<std::string, std::string> splitPair(const std::string& cell) {
    const auto at = cell.find(" -> ");
    return {cell.substr(0, at), cell.substr(at + 4)};
}

} // namespace

class TestReportLatency : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pingmeshStoreNamesSlowHostAndLossyLink() {
        QTemporaryDir dir;
        const std::string db = importStore(dir, "p", {"ibsim/ibnetdiscover.txt", "ibsim/dump_fts.txt", "probes/pingmesh.csv"});
        const ReportDocument doc = reportOf(db);
        const Section* s = section(doc, "latency");
        QVERIFY(s);
        QCOMPARE(s->title, std::string("Latency, jitter and loss"));

        const Table* cls = table(*s, "latency_by_distance");
        QVERIFY(cls && !cls->rows.empty());
        std::int64_t pairs = 0;
        for (const auto& r : cls->rows) pairs += std::stoll(r.cells[1]);
        QCOMPARE(pairs, std::int64_t{56});  // 8 hosts, every ordered pair

        // worst p99: all ten are gpu008's pairs; the first has the p99 of its raw probes
        const Table* p99 = table(*s, "latency_worst_p99");
        QVERIFY(p99 && p99->rows.size() == 10);
        for (const auto& r : p99->rows) {
            const auto [a, b] = splitPair(r.cells[0]);
            QVERIFY2(a == "gpu008" || b == "gpu008", r.cells[0].c_str());
        }
        {
            const auto [a, b] = splitPair(p99->rows[0].cells[0]);
            const Raw raw = rawOf(db, a, b);
            QVERIFY(raw.rtt.size() >= 5);
            // p99 with linear interpolation, computed here from the raw rows
            const double at = 0.99 * static_cast<double>(raw.rtt.size() - 1);
            const auto lo = static_cast<std::size_t>(at);
            const double want = raw.rtt[lo] + (raw.rtt[std::min(lo + 1, raw.rtt.size() - 1)] - raw.rtt[lo]) * (at - static_cast<double>(lo));
            QVERIFY2(std::abs(std::stod(p99->rows[0].cells[4]) - want) < 0.01 * want,
                     qPrintable(QStringLiteral("%1 vs %2").arg(QString::fromStdString(p99->rows[0].cells[4])).arg(want)));
            QVERIFY(want > 15);  // the planted delay
        }

        // worst loss: the first pair's loss is its raw lost / sent
        const Table* loss = table(*s, "latency_worst_loss");
        QVERIFY(loss && !loss->rows.empty());
        {
            const auto [a, b] = splitPair(loss->rows[0].cells[0]);
            const Raw raw = rawOf(db, a, b);
            QVERIFY(raw.lost > 0);
            const double want = 100.0 * static_cast<double>(raw.lost) / static_cast<double>(raw.sent);
            QVERIFY(std::abs(std::stod(loss->rows[0].cells[7]) - want) < 0.1);
        }

        // the planted cable is blamed, with its votes
        const Table* blamed = table(*s, "latency_blamed_links");
        QVERIFY(blamed);
        QCOMPARE(blamed->rows.size(), std::size_t{1});
        const std::string& link = blamed->rows[0].cells[0];
        QVERIFY2(link.find("leaf02 p1") != std::string::npos && link.find("spine01 p2") != std::string::npos, link.c_str());
        QVERIFY(std::stod(blamed->rows[0].cells[1]) >= 2);

        const std::string html = renderHtml(doc);
        QVERIFY(html.find("Latency, jitter and loss") != std::string::npos);
        QVERIFY(html.find("gpu008") != std::string::npos);
    }

    void storeWithoutProbesSaysSo() {
        QTemporaryDir dir;
        const std::string db = importStore(dir, "t", {"ibsim/ibnetdiscover.txt"});
        const ReportDocument doc = reportOf(db);
        const Section* s = section(doc, "latency");
        QVERIFY(s && s->blocks.size() == 1);
        const auto* p = std::get_if<Paragraph>(&s->blocks[0]);
        QVERIFY(p && p->text == "No probe data in this window.");
    }
};

QTEST_MAIN(TestReportLatency)
#include "tst_report_latency.moc"
