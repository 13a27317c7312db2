// Incidents (core/analysis/incidents.h, docs/ANALYSIS.md "Incidents"): findings that are one
// problem share an incident id, the cause first; the JSON carries it; the report's summary and the
// GUI's findings panel show one group per incident. The store plants 9 findings that are 5
// problems: a 1xHDR host link that is also hot, a congestion tree and its victim's hot link, one
// link raising three error counters together, and on another link two error bursts far apart.
#include "analysis_fixture.h"
#include "app/main_window.h"
#include "core/analysis/incidents.h"
#include "core/report/document.h"
#include "core/report/report_data.h"
#include "views/fabric_view.h"
#include "views/findings_model.h"
#include "views/findings_panel.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTableView>

using namespace atest;

namespace {

Fabric fabric() {
    MiniFabric m;
    const NodeId l1 = m.sw("leaf01"), l2 = m.sw("leaf02"), s1 = m.sw("spine01");
    m.link(l1, 1, m.host("dgx001 mlx5_0"), 1);
    m.link(l1, 2, m.host("dgx002 mlx5_0"), 1);
    m.link(l1, 3, m.host("dgx005 mlx5_0"), 1, 1);  // 1xHDR among 4xHDR host links
    m.link(l2, 1, m.host("dgx003 mlx5_0"), 1);
    m.link(l2, 2, m.host("dgx004 mlx5_0"), 1);
    m.link(l2, 3, m.host("dgx006 mlx5_0"), 1);
    m.link(l1, 9, s1, 1);
    m.link(l2, 9, s1, 2);
    return m.build();
}

// Ticks per 10 s interval for a wait share at the default 4 ns tick, cumulative.
std::vector<double> waits(const std::vector<double>& shares) {
    std::vector<double> d;
    for (double s : shares) d.push_back(s * 10 / 4e-9);
    return cumulative(d);
}

std::string counters() {
    const std::vector<double> quiet(11, 0.01), congested{0.01, 0.01, 0.5, 0.6, 0.7, 0.6, 0.55, 0.5, 0.01, 0.01, 0.01},
        spread{0.01, 0.01, 0.4, 0.45, 0.4, 0.35, 0.4, 0.4, 0.01, 0.01, 0.01};
    // The congestion tree rooted at leaf02 p1 -> dgx003, upstream spine01 p2, leaf01 p9, dgx001.
    std::string s = rows("leaf02", 1, "xmit_wait", waits(congested)) + rows("spine01", 2, "xmit_wait", waits(spread)) +
                    rows("leaf01", 9, "xmit_wait", waits(spread)) + rows("dgx001 mlx5_0", 1, "xmit_wait", waits(spread)) +
                    rows("leaf01", 1, "xmit_wait", waits(quiet)) + rows("spine01", 1, "xmit_wait", waits(quiet));
    // Its victim leaf01 p9 -> spine01 is hot (90%) while the tree lasts: a warning.
    s += rows("leaf01", 9, "xmit_bytes", hdrBytes({0.2, 0.2, 0.9, 0.9, 0.92, 0.9, 0.9, 0.9, 0.2, 0.2, 0.2}));
    // The 1x link leaf01 p3 -> dgx005 (50 Gb/s) at 97-98%: critical. hdrBytes counts 200 Gb/s.
    s += rows("leaf01", 3, "xmit_bytes", hdrBytes({0.025, 0.025, 0.2425, 0.2425, 0.245, 0.2425, 0.025, 0.025, 0.025, 0.025, 0.025}));
    // leaf02 p2 <- dgx004: three counters rising together over the whole window.
    s += rows("leaf02", 2, "symbol_errors", cumulative(std::vector<double>(11, 50))) +
         rows("leaf02", 2, "link_error_recovery", cumulative(std::vector<double>(11, 1))) +
         rows("leaf02", 2, "rcv_errors", cumulative(std::vector<double>(11, 30)));
    // leaf02 p3 <- dgx006: a burst of symbol errors early, of receive errors late: two events.
    s += rows("leaf02", 3, "symbol_errors", cumulative({6, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0})) +
         rows("leaf02", 3, "rcv_errors", cumulative({0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 6}));
    return s;
}

// The index of the one finding of `kind` whose first or second port is `port` ("leaf01:3").
std::size_t indexOf(const FindingsReport& r, FindingKind kind, const std::string& port, const std::string& counter = {}) {
    std::size_t found = r.findings.size();
    for (std::size_t i = 0; i < r.findings.size(); ++i) {
        const Finding& f = r.findings[i];
        if (f.kind != kind || (!counter.empty() && metricText(f, "counter") != counter)) continue;
        for (std::size_t k = 0; k < std::min<std::size_t>(2, f.ports.size()); ++k)
            if (label(f.ports[k]) == port) {
                if (found != r.findings.size()) throw std::runtime_error("two " + std::string(kindName(kind)) + " at " + port);
                found = i;
            }
    }
    if (found == r.findings.size()) throw std::runtime_error("no " + std::string(kindName(kind)) + " at " + port);
    return found;
}

const Incident& incidentOf(const FindingsReport& r, std::size_t finding) {
    return r.incidents.at(static_cast<std::size_t>(r.findings.at(finding).incident - 1));
}

// The panel's rows as shown (through its sorted proxy): "incident | kind | first port".
QStringList rowsShown(FindingsPanel* panel) {
    QStringList out;
    const QAbstractItemModel* m = panel->table()->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        const Finding* f = panel->model()->finding(panel->proxy()->mapToSource(m->index(r, 0)).row());
        out << m->index(r, FindingsModel::Incident).data().toString() + QStringLiteral(" | ") +
                   m->index(r, FindingsModel::Kind).data().toString() + QStringLiteral(" | ") +
                   (f && !f->ports.empty() ? QString::fromStdString(label(f->ports.front())) : QString());
    }
    return out;
}

const QStringList kExpectedRows{
    QStringLiteral("#1 critical | error_link | leaf02:2"),      QStringLiteral("\u21b3 #1 | error_link | leaf02:2"),
    QStringLiteral("\u21b3 #1 | error_link | leaf02:2"),        QStringLiteral("#2 critical | congestion_tree | leaf02:1"),
    QStringLiteral("\u21b3 #2 | hot_link | leaf01:9"),          QStringLiteral("#3 critical | degraded_link | leaf01:3"),
    QStringLiteral("\u21b3 #3 | hot_link | leaf01:3"),          QStringLiteral("#4 warning | error_link | leaf02:3"),
    QStringLiteral("#5 warning | error_link | leaf02:3"),
};

} // namespace

class TestIncidents : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};
    std::string db_, demoDb_;
    FindingsReport r_;

private Q_SLOTS:
    void initTestCase() {
        db_ = stores_.make(fabric(), counters());
        r_ = analyzeStore(db_);
        for (const auto& f : r_.findings) qInfo("#%d %s %s: %s", f.incident, f.id.c_str(), sev(f).c_str(), f.summary.c_str());
        const std::string demo = stores_.path("demo");
        writeDemo(demo, {});
        demoDb_ = stores_.path("demo.sqlite");
        Store s(demoDb_);
        ImporterRegistry reg;
        QVERIFY(!ImportRunner(s, reg).run({demo}, {}).anyFailed());
    }

    void nineFindingsAreFiveIncidents() {
        QCOMPARE(r_.findings.size(), std::size_t{9});
        QCOMPARE(r_.incidents.size(), std::size_t{5});
        // Listed incident by incident, each one's members together, ids from 1 in order.
        std::size_t at = 0;
        for (std::size_t k = 0; k < r_.incidents.size(); ++k) {
            const Incident& inc = r_.incidents[k];
            QCOMPARE(inc.id, static_cast<int>(k) + 1);
            for (std::size_t m : inc.members) {
                QCOMPARE(m, at++);
                QCOMPARE(r_.findings[m].incident, inc.id);
            }
            if (k > 0) {  // by severity, then start
                const Incident& prev = r_.incidents[k - 1];
                QVERIFY(prev.severity < inc.severity || (prev.severity == inc.severity && prev.start <= inc.start));
            }
        }
    }

    void degradedLinkComesBeforeTheHotLinkItCauses() {
        const std::size_t degraded = indexOf(r_, FindingKind::DegradedLink, "leaf01:3"), hot = indexOf(r_, FindingKind::HotLink, "leaf01:3");
        QCOMPARE(r_.findings[degraded].incident, r_.findings[hot].incident);
        const Incident& inc = incidentOf(r_, hot);
        QCOMPARE(inc.members, (std::vector<std::size_t>{degraded, hot}));  // the cause first
        QCOMPARE(sev(r_.findings[degraded]), std::string("warning"));    // its own severity is kept,
        QCOMPARE(sev(r_.findings[hot]), std::string("critical"));
        QVERIFY(inc.severity == FindingSeverity::Critical);               // the incident's is the worst
        QCOMPARE(inc.start, r_.findings[hot].start);                      // it started when the link got hot
        QCOMPARE(inc.end, r_.findings[hot].end);                          // and ended when it cooled,
        QCOMPARE(r_.findings[degraded].start, r_.windowStart);            // though the width holds over the window
        QCOMPARE(r_.findings[degraded].end, r_.windowEnd);
    }

    void congestionTreeAndItsVictimsHotLinkAreOneIncident() {
        const std::size_t tree = indexOf(r_, FindingKind::CongestionTree, "leaf02:1"), hot = indexOf(r_, FindingKind::HotLink, "leaf01:9");
        QCOMPARE(r_.findings[tree].incident, r_.findings[hot].incident);
        QCOMPARE(incidentOf(r_, tree).members, (std::vector<std::size_t>{tree, hot}));
        QVERIFY(r_.findings[tree].incident != r_.findings[indexOf(r_, FindingKind::HotLink, "leaf01:3")].incident);
    }

    void errorRowsOfOneLinkAndTimeAreOneIncident() {
        const std::size_t sym = indexOf(r_, FindingKind::ErrorLink, "leaf02:2", "symbol_errors"),
                          rec = indexOf(r_, FindingKind::ErrorLink, "leaf02:2", "link_error_recovery"),
                          rcv = indexOf(r_, FindingKind::ErrorLink, "leaf02:2", "rcv_errors");
        const Incident& inc = incidentOf(r_, sym);
        QCOMPARE(inc.members.size(), std::size_t{3});
        QCOMPARE(r_.findings[rec].incident, inc.id);
        QCOMPARE(r_.findings[rcv].incident, inc.id);
        // The same link at times that do not overlap: two events, two incidents.
        const std::size_t early = indexOf(r_, FindingKind::ErrorLink, "leaf02:3", "symbol_errors"),
                          late = indexOf(r_, FindingKind::ErrorLink, "leaf02:3", "rcv_errors");
        QVERIFY(r_.findings[early].incident != r_.findings[late].incident);
        QCOMPARE(incidentOf(r_, early).members.size(), std::size_t{1});
    }

    void jsonCarriesTheIncident() {
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(findingsJson(r_))).object();
        const QJsonArray fs = j[QStringLiteral("findings")].toArray();
        QCOMPARE(fs.size(), 9);
        std::map<QString, int> incidentOfId;
        int last = 0;
        for (const auto& v : fs) {
            const QJsonObject f = v.toObject();
            QVERIFY(f[QStringLiteral("incident")].isDouble());
            const int n = f[QStringLiteral("incident")].toInt();
            QVERIFY(n >= last && n >= 1 && n <= 5);  // grouped, in incident order
            last = n;
            incidentOfId[f[QStringLiteral("id")].toString()] = n;
        }
        const auto& dl = r_.findings[indexOf(r_, FindingKind::DegradedLink, "leaf01:3")];
        const auto& hot = r_.findings[indexOf(r_, FindingKind::HotLink, "leaf01:3")];
        QCOMPARE(incidentOfId.at(QString::fromStdString(dl.id)), incidentOfId.at(QString::fromStdString(hot.id)));

        // The demo's three faults are independent: three incidents of one finding each.
        const FindingsReport demo = analyzeStore(demoDb_);
        QCOMPARE(demo.incidents.size(), demo.findings.size());
        const QJsonArray dfs =
            QJsonDocument::fromJson(QByteArray::fromStdString(findingsJson(demo))).object()[QStringLiteral("findings")].toArray();
        QCOMPARE(dfs.size(), 3);
        for (int i = 0; i < dfs.size(); ++i) QCOMPARE(dfs[i].toObject()[QStringLiteral("incident")].toInt(), i + 1);
    }

    void reportSummaryHasOneLinePerIncident() {
        const Store store(db_, Store::Mode::ReadOnly);
        const ReportData d = buildReportData(store, ReportOptions{});
        const ReportDocument doc = buildDocument(d);
        const Table* key = nullptr;
        const Table* incidents = nullptr;
        for (const auto& s : doc.sections)
            for (const auto& b : s.blocks)
                if (const auto* t = std::get_if<Table>(&b)) {
                    if (t->id == "key_findings") key = t;
                    if (t->id == "incidents") incidents = t;
                }
        QVERIFY(key && incidents);
        QCOMPARE(incidents->rows.size(), std::size_t{5});
        QCOMPARE(key->rows.size(), std::size_t{3});  // the three critical incidents
        const Finding& dl = d.findings.findings[indexOf(d.findings, FindingKind::DegradedLink, "leaf01:3")];
        const Finding& hot = d.findings.findings[indexOf(d.findings, FindingKind::HotLink, "leaf01:3")];
        const auto& third = key->rows[2].cells;  // incident 3: the degraded link, with its hot link
        QCOMPARE(third[0], std::string("critical"));
        QCOMPARE(third[1], dl.summary + " (with " + hot.id + ")");
        const auto& row = incidents->rows[2].cells;
        QCOMPARE(row[0], std::string("3"));
        QCOMPARE(row[2], dl.id + ": " + dl.summary);
        QCOMPARE(row[3], hot.id);
        QCOMPARE(incidents->rows[3].cells[3], std::string("-"));
    }

    void panelShowsFindingsGroupedByIncident() {
        FindingsPanel panel;
        panel.resize(900, 400);
        panel.show();
        auto report = std::make_shared<const FindingsReport>(r_);
        panel.setReport(report);
        QCOMPARE(rowsShown(&panel), kExpectedRows);
        // Sorting by severity and back: the incident column puts the cause first again.
        panel.table()->sortByColumn(FindingsModel::Severity, Qt::AscendingOrder);
        panel.table()->sortByColumn(FindingsModel::Incident, Qt::AscendingOrder);
        QCOMPARE(rowsShown(&panel), kExpectedRows);
        // A click still activates the finding of that row.
        QSignalSpy activated(&panel, &FindingsPanel::findingActivated);
        QTableView* table = panel.table();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(6, FindingsModel::Summary)).center());
        QVERIFY(activated.count() >= 1);
        const auto* f = panel.model()->finding(panel.proxy()->mapToSource(table->currentIndex()).row());
        QVERIFY(f);
        QCOMPARE(f->kind, FindingKind::HotLink);
        QCOMPARE(label(f->ports.front()), std::string("leaf01:3"));
    }

    void mainWindowShowsIncidentsAndFramesAClickedFinding() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy analysed(&w, &MainWindow::analysisFinished);
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(QString::fromStdString(db_));
        QVERIFY(loaded.wait(20000));
        QVERIFY(analysed.count() > 0 || analysed.wait(30000));
        auto* panel = w.findChild<FindingsPanel*>();
        auto* fabric = w.findChild<FabricView*>();
        QCOMPARE(rowsShown(panel), kExpectedRows);
        // The member row under incident 3: the hot 1x link; the cursor goes to its start, its link is selected.
        QTableView* table = panel->table();
        const Finding* f = panel->model()->finding(panel->proxy()->mapToSource(table->model()->index(6, 0)).row());
        QVERIFY(f);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(6, FindingsModel::Summary)).center());
        QCOMPARE(w.timeController()->time(), f->start);
        const int link = fabric->selectedLink();
        QVERIFY(link >= 0);
        const QString shown = QString::fromStdString(w.snapshot()->linkLabel(LinkId(static_cast<std::size_t>(link))));
        QVERIFY2(shown.contains(QStringLiteral("leaf01 p3")) && shown.contains(QStringLiteral("dgx005")), qPrintable(shown));
    }
};

QTEST_MAIN(TestIncidents)
#include "tst_analysis_incidents.moc"
