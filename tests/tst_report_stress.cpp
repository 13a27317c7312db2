// The report's "Single points of stress" section (issue 22) on compare_fixture.h's 4-leaf, 3-spine
// fabric (4xHDR, 200 Gb/s) with steady load: leaf01's uplinks carry 70 % up, every other link
// direction 50 %, and a job runs on gpu01 (leaf01) and gpu03 (leaf02). Each spine failed in turn
// moves leaf01's 70 % onto its two other uplinks (70 + 70 / 2 = 105 %, so two directions turn
// hot; the others reach 75 %, below the 80 % threshold) and the job, whose ring crosses one of
// them, slows by max(1, 1.05) / max(1, 0.7). Each leaf's uplink group loses one uplink: leaf01's
// moves 70 % onto its two siblings (105 %); another leaf's moves 50 % onto its siblings (75 %), and
// what leaf01 sent through that spine to the leaf now climbs leaf01's other uplinks (80.3 %, hot).
// The expected numbers are worked out here from the fixture, not with FabScope's code. A store
// without counters has no such section.
#include "uplink_load_fixture.h"
#include "core/report/csv_writer.h"
#include "core/report/document.h"
#include "core/report/html_writer.h"
#include "core/report/json_writer.h"
#include "core/report/report_data.h"
#include "report_doc_find.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <set>

using namespace fabscope;

namespace {

constexpr int kLeaves = 4, kSpines = 3, kIntervals = 30, kStep = 10;
constexpr double kLeaf01Up = 0.7, kOther = 0.5, kHot = 0.8;

// The hand calculation: a failed spine's up load from a leaf spreads over the leaf's other uplinks.
constexpr double kWorstAfter = kLeaf01Up + kLeaf01Up / (kSpines - 1);                         // 1.05
constexpr double kSlowdown = (kWorstAfter > 1 ? kWorstAfter : 1) / (kLeaf01Up > 1 ? kLeaf01Up : 1);  // 1.05
constexpr double kGpuHours = (kSlowdown - 1) * 2 /* ranks */ * kIntervals * kStep / 3600.0;

// A leaf uplink group, one uplink failed (p20 on a tie: every uplink of a leaf carries the same).
// leaf01's: its up load (140 Gb/s) onto its 2 siblings. Another leaf's: its up load onto its
// siblings (75 %), and its down load (100 Gb/s) that came up the failed uplink's spine from the
// other leaves (in proportion to their up load there: leaf01 140 of 140 + 100 + 100 Gb/s) now
// climbs their other uplinks, leaf01's in 2 equal shares.
constexpr double kGbps = 200;
constexpr double kLeaf01Group = kLeaf01Up + kLeaf01Up / (kSpines - 1);  // 1.05
constexpr double kOtherGroup =
    kLeaf01Up + kOther * kGbps * (kLeaf01Up / (kLeaf01Up + (kLeaves - 2) * kOther)) / (kSpines - 1) / kGbps;  // 0.8029
static_assert(kOtherGroup > kHot && kOther + kOther / (kSpines - 1) < kHot);

int expectedTurningHot() {
    int n = 0;
    for (int l = 1; l <= kLeaves; ++l) {
        const double up = l == 1 ? kLeaf01Up : kOther;
        const double upAfter = up + up / (kSpines - 1), downAfter = kOther + kOther / (kSpines - 1);
        n += (kSpines - 1) * ((up < kHot && upAfter >= kHot) + (kOther < kHot && downAfter >= kHot));
    }
    return n;
}

using docfind::column;
using docfind::paragraphs;
using docfind::section;
using docfind::table;

} // namespace

class TestReportStress : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string db_, bare_;

    ReportData data(const std::string& db, std::size_t limit = 48, std::size_t uplinkLimit = 48) {
        const Store store(db, Store::Mode::ReadOnly);
        ReportOptions o;
        o.stressSwitches = limit;
        o.stressUplinkGroups = uplinkLimit;
        return buildReportData(store, o);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        static_assert(kLeaves == 4 && kSpines == 3, "the fixture's fabric");
        atest::Stores stores(dir_);
        db_ = stores.make(cmpfix::fabric(false),
                          cmpfix::steadyUplinks([](int l, int) { return l == 1 ? kLeaf01Up : kOther; }, kOther, kIntervals, kStep));
        cmpfix::importFile(db_, cmpfix::twoRankJob(stores));
        bare_ = stores.make(cmpfix::fabric(false), "");  // a topology, no counters
    }

    void everySpineFailedInTurn() {
        const ReportData d = data(db_);
        const ReportDocument doc = buildDocument(d);
        const Section* s = section(doc, "single_points_of_stress");
        QVERIFY(s);
        QCOMPARE(QString::fromStdString(s->title), QStringLiteral("Single points of stress"));
        const Table* t = table(*s, "single_points_of_stress");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{kSpines});
        std::set<std::string> names;
        const std::size_t cLink = column(*t, "Worst link"), cBefore = column(*t, "p95 before"), cAfter = column(*t, "p95 after"),
                          cHot = column(*t, "Turning hot"), cFailed = column(*t, "Links failed"), cCut = column(*t, "Hosts cut"),
                          cJob = column(*t, "Worst job"), cSlow = column(*t, "Job slowdown"), cRisk = column(*t, "GPU-hours");
        QVERIFY(t->columns[cRisk].find("GPU h") != std::string::npos);
        QVERIFY(t->columns[cAfter].find("(%)") != std::string::npos);
        for (const TableRow& r : t->rows) {
            const std::string& spine = r.cells[0];
            names.insert(spine);
            QCOMPARE(std::stoi(r.cells[cFailed]), kLeaves);
            // The worst link: one of leaf01's surviving uplinks, into another spine.
            const std::string& link = r.cells[cLink];
            QVERIFY2(link.starts_with("leaf01 p") && link.find(" -> spine0") != std::string::npos && link.find(spine) == std::string::npos,
                     link.c_str());
            QVERIFY2(std::abs(std::stod(r.cells[cBefore]) - kLeaf01Up * 100) < 0.05, r.cells[cBefore].c_str());
            QVERIFY2(std::abs(std::stod(r.cells[cAfter]) - kWorstAfter * 100) < 0.05, r.cells[cAfter].c_str());
            QCOMPARE(std::stoi(r.cells[cHot]), expectedTurningHot());
            QCOMPARE(r.cells[cCut], std::string("0"));
            QVERIFY(!r.cells[cJob].empty() && r.cells[cJob] != "-");
            QVERIFY2(std::abs(std::stod(r.cells[cSlow]) - kSlowdown) < 1e-3, r.cells[cSlow].c_str());
            QVERIFY2(std::abs(std::stod(r.cells[cRisk]) - kGpuHours) < 1e-4, r.cells[cRisk].c_str());
            QVERIFY(r.tone == Tone::Critical);  // 105 % is past the critical hot_link threshold
        }
        QCOMPARE(names, (std::set<std::string>{"spine01", "spine02", "spine03"}));
        QCOMPARE(expectedTurningHot(), 2);
        // The model and its caveat, and how many were evaluated.
        const std::string text = paragraphs(*s);
        QVERIFY(text.find("docs/ANALYSIS.md \"What-if\"") != std::string::npos);
        QVERIFY(text.find("prediction") != std::string::npos);
        QVERIFY(text.find("all 3 top-tier switches") != std::string::npos);
        // HTML and CSV carry it too.
        QVERIFY(renderHtml(doc).find("Single points of stress") != std::string::npos);
        QVERIFY(renderCsv(doc).find("# table,single_points_of_stress") != std::string::npos);
    }

    // A large fabric's report spends most of its time here (~11 s at k=48 with tables): the export
    // dialog's bar moves through each what-if and says which, never back, from start to end. This
    // fixture routes by ECMP, on one thread, so every count is said (with tables on two threads,
    // the calling thread says the counts it sees after its own what-ifs, and the last).
    void progressNamesEachWhatIf() {
        const Store store(db_, Store::Mode::ReadOnly);
        ReportOptions o;
        std::vector<std::pair<double, std::string>> told;
        o.progress = [&told](double fraction, const std::string& stage) { told.emplace_back(fraction, stage); };
        buildReportData(store, o);
        QVERIFY(told.size() > 2);
        QCOMPARE(told.front().first, 0.0);
        QCOMPARE(told.back().first, 1.0);
        std::vector<std::string> stages;
        for (std::size_t i = 0; i < told.size(); ++i) {
            QVERIFY2(told[i].first >= 0 && told[i].first <= 1, told[i].second.c_str());
            if (i > 0) QVERIFY2(told[i].first >= told[i - 1].first, told[i].second.c_str());
            stages.push_back(told[i].second);
        }
        const auto said = [&stages](const std::string& s) { return std::find(stages.begin(), stages.end(), s) != stages.end(); };
        for (std::size_t k = 0; k <= kSpines; ++k)
            QVERIFY2(said("Single points of stress: what-if " + std::to_string(k) + " of 3 (top-tier switch)…"), std::to_string(k).c_str());
        for (std::size_t k = 0; k <= 4; ++k)
            QVERIFY2(said("Single points of stress: what-if " + std::to_string(k) + " of 4 (leaf uplink)…"), std::to_string(k).c_str());
    }

    void jsonHasTheArray() {
        const QJsonObject report =
            QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(data(db_)))).object()[QStringLiteral("report")].toObject();
        const QJsonArray a = report[QStringLiteral("single_points_of_stress")].toArray();
        QCOMPARE(a.size(), kSpines);
        for (const auto& v : a) {
            const QJsonObject e = v.toObject();
            QVERIFY(e[QStringLiteral("switch")].toString().startsWith(QStringLiteral("spine0")));
            QCOMPARE(e[QStringLiteral("links_failed")].toInt(), kLeaves);
            const QJsonObject w = e[QStringLiteral("worst_link")].toObject();
            QCOMPARE(w[QStringLiteral("tx")].toObject()[QStringLiteral("node")].toString(), QStringLiteral("leaf01"));
            QVERIFY(std::abs(w[QStringLiteral("p95_util_before")].toDouble() - kLeaf01Up) < 1e-4);
            QVERIFY(std::abs(w[QStringLiteral("p95_util_after")].toDouble() - kWorstAfter) < 1e-4);
            QCOMPARE(e[QStringLiteral("turning_hot")].toInt(), expectedTurningHot());
            QVERIFY(e[QStringLiteral("disconnected")].toArray().isEmpty());
            QVERIFY(std::abs(e[QStringLiteral("worst_slowdown")].toDouble() - kSlowdown) < 1e-4);
            QVERIFY(std::abs(e[QStringLiteral("gpu_hours_at_risk")].toDouble() - kGpuHours) < 1e-4);
            QCOMPARE(e[QStringLiteral("jobs")].toArray().size(), 1);
        }
        const QJsonObject scope = report[QStringLiteral("single_points_of_stress_scope")].toObject();
        QCOMPARE(scope[QStringLiteral("top_tier_switches")].toInt(), kSpines);
        QCOMPARE(scope[QStringLiteral("switches_evaluated")].toInt(), kSpines);
        QVERIFY(report[QStringLiteral("tables")].toObject().contains(QStringLiteral("single_points_of_stress")));
    }

    void atMostTheLimitAreEvaluatedAndTheSectionSaysSo() {
        const ReportData d = data(db_, 2);
        QCOMPARE(d.stress.rows.size(), std::size_t{2});
        QVERIFY(d.stress.byLoad);
        const ReportDocument doc = buildDocument(d);
        const Section* s = section(doc, "single_points_of_stress");
        QVERIFY(s);
        QVERIFY(paragraphs(*s).find("2 of the 3 top-tier switches") != std::string::npos);
        QCOMPARE(table(*s, "single_points_of_stress")->rows.size(), std::size_t{2});
    }

    void eachLeafLosesItsMostLoadedUplink() {
        const ReportData d = data(db_);
        const ReportDocument doc = buildDocument(d);
        const Section* s = section(doc, "single_points_of_stress");
        QVERIFY(s);
        const Table* t = table(*s, "single_points_of_stress_uplinks");
        QVERIFY(t);
        QCOMPARE(t->rows.size(), std::size_t{kLeaves});
        const std::size_t cUp = column(*t, "Uplinks"), cFailed = column(*t, "Uplink failed"), cItsP95 = column(*t, "Its p95"),
                          cLink = column(*t, "Worst link"), cBefore = column(*t, "p95 before"), cAfter = column(*t, "p95 after"),
                          cHot = column(*t, "Turning hot"), cCut = column(*t, "Hosts cut"), cSlow = column(*t, "Job slowdown"),
                          cRisk = column(*t, "GPU-hours");
        QVERIFY(t->columns[cItsP95].find("(%)") != std::string::npos && t->columns[cRisk].find("GPU h") != std::string::npos);
        for (std::size_t i = 0; i < t->rows.size(); ++i) {
            const TableRow& r = t->rows[i];
            // Worst first: leaf01's group, then the others by name (they leave the same 80.3 %).
            const std::string leaf = "leaf0" + std::to_string(i + 1);
            QCOMPARE(r.cells[0], leaf);
            QCOMPARE(std::stoi(r.cells[cUp]), kSpines);
            QVERIFY2(r.cells[cFailed].starts_with(leaf + " p20 -> spine01 p"), r.cells[cFailed].c_str());
            const double up = i == 0 ? kLeaf01Up : kOther, after = i == 0 ? kLeaf01Group : kOtherGroup;
            QVERIFY2(std::abs(std::stod(r.cells[cItsP95]) - up * 100) < 0.05, r.cells[cItsP95].c_str());
            // The worst link after: one of leaf01's two other uplinks, in every group.
            QVERIFY2(r.cells[cLink].starts_with("leaf01 p2") && r.cells[cLink].find("spine01") == std::string::npos, r.cells[cLink].c_str());
            QVERIFY2(std::abs(std::stod(r.cells[cBefore]) - kLeaf01Up * 100) < 0.05, r.cells[cBefore].c_str());
            QVERIFY2(std::abs(std::stod(r.cells[cAfter]) - after * 100) < 0.05, r.cells[cAfter].c_str());
            QCOMPARE(std::stoi(r.cells[cHot]), 2);  // leaf01's two other uplinks, up
            QCOMPARE(r.cells[cCut], std::string("0"));
            // Only leaf01's group drives the job's link past 100 %.
            QVERIFY2(std::abs(std::stod(r.cells[cSlow]) - (i == 0 ? kSlowdown : 1.0)) < 1e-3, r.cells[cSlow].c_str());
            QVERIFY2(std::abs(std::stod(r.cells[cRisk]) - (i == 0 ? kGpuHours : 0.0)) < 1e-4, r.cells[cRisk].c_str());
            QVERIFY(r.tone == (i == 0 ? Tone::Critical : Tone::Warning));
        }
        QVERIFY(paragraphs(*s).find("all 4 leaves with uplinks") != std::string::npos);
        QVERIFY(renderCsv(doc).find("# table,single_points_of_stress_uplinks") != std::string::npos);

        const QJsonObject report =
            QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(d))).object()[QStringLiteral("report")].toObject();
        const QJsonArray a = report[QStringLiteral("single_points_of_stress_uplinks")].toArray();
        QCOMPARE(a.size(), kLeaves);
        const QJsonObject first = a[0].toObject();
        QCOMPARE(first[QStringLiteral("leaf")].toString(), QStringLiteral("leaf01"));
        QCOMPARE(first[QStringLiteral("uplinks")].toInt(), kSpines);
        const QJsonObject failed = first[QStringLiteral("uplink_failed")].toObject();
        QCOMPARE(failed[QStringLiteral("tx")].toObject()[QStringLiteral("port")].toVariant().toString(), QStringLiteral("20"));
        QVERIFY(std::abs(failed[QStringLiteral("p95_util_before")].toDouble() - kLeaf01Up) < 1e-4);
        QVERIFY(std::abs(first[QStringLiteral("worst_link")].toObject()[QStringLiteral("p95_util_after")].toDouble() - kLeaf01Group) < 1e-4);
        QCOMPARE(first[QStringLiteral("links_failed")].toInt(), 1);
        QVERIFY(std::abs(first[QStringLiteral("worst_slowdown")].toDouble() - kSlowdown) < 1e-4);
        QVERIFY(std::abs(a[3].toObject()[QStringLiteral("worst_link")].toObject()[QStringLiteral("p95_util_after")].toDouble() -
                         kOtherGroup) < 1e-4);
        const QJsonObject scope = report[QStringLiteral("single_points_of_stress_scope")].toObject();
        QCOMPARE(scope[QStringLiteral("leaf_uplink_groups")].toInt(), kLeaves);
        QCOMPARE(scope[QStringLiteral("uplink_groups_evaluated")].toInt(), kLeaves);
        QVERIFY(!scope[QStringLiteral("uplinks_chosen_by_load")].toBool());
    }

    // At most the limit: leaf01's group carries the most (3 x (140 + 100) Gb/s against 3 x 200),
    // then the name decides among equals.
    void atMostTheLimitOfLeavesAndTheMostLoaded() {
        const ReportData d = data(db_, 48, 2);
        QVERIFY(d.stress.uplinksByLoad);
        const ReportDocument doc = buildDocument(d);
        const Section* s = section(doc, "single_points_of_stress");
        QVERIFY(s);
        QVERIFY(paragraphs(*s).find("2 of the 4 leaves with uplinks") != std::string::npos);
        const Table* t = table(*s, "single_points_of_stress_uplinks");
        QCOMPARE(t->rows.size(), std::size_t{2});
        QCOMPARE(t->rows[0].cells[0], std::string("leaf01"));
        QCOMPARE(t->rows[1].cells[0], std::string("leaf02"));
    }

    void absentWithoutCounters() {
        const ReportData d = data(bare_);
        QVERIFY(!section(buildDocument(d), "single_points_of_stress"));
        const QJsonObject report =
            QJsonDocument::fromJson(QByteArray::fromStdString(renderJson(d))).object()[QStringLiteral("report")].toObject();
        QVERIFY(report[QStringLiteral("single_points_of_stress")].isArray());
        QVERIFY(report[QStringLiteral("single_points_of_stress")].toArray().isEmpty());
        QVERIFY(report[QStringLiteral("single_points_of_stress_uplinks")].isArray());
        QVERIFY(report[QStringLiteral("single_points_of_stress_uplinks")].toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestReportStress)
#include "tst_report_stress.moc"
