// Selecting a finding draws it on the fabric graph: a straggler's route hop by hop, a PFC storm's
// origin and the ports it spread to; moving the selection elsewhere clears it. The store holds a
// two-leaf, two-spine fabric with a degraded host link under a job (a straggler) and a NIC that
// stops draining (a PFC storm), built as tst_analysis_straggler and tst_analysis_pfc do.
#include "screenshot.h"
#include "analysis_fixture.h"
#include "pfc_storm_fixture.h"
#include "app/main_window.h"
#include "core/store/sqlite_stmt.h"
#include "views/fabric_view.h"
#include "views/job_panel.h"
#include "views/findings_model.h"
#include "views/findings_panel.h"
#include "views/store_snapshot.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>

#include <set>

using namespace atest;

namespace {

Fabric fabric() { return pfcstorm::fabric(1); }  // dgx004's link 1x: the job's straggler

std::string pfcRows() { return pfcstorm::stormRows(true); }

// A job 'train' with a rank on each host (named at lines 10, 11, ...), imported from `file` when given.
void addJob(const std::string& db, const std::vector<std::string>& hosts = {"dgx001", "dgx002", "dgx003", "dgx004"},
            const std::string& file = {}) {
    Store store(db);
    if (!file.empty())
        sql::Stmt(store.handle(), "INSERT INTO imports(id, file, sha256, format, rows, imported_at) VALUES(99, ?, 'x', 'nccl-log', 5, 0)")
            .bind(1, file)
            .run();
    sql::Stmt job(store.handle(), "INSERT INTO jobs(id, name, import_id) VALUES(1, 'train', ?)");
    job.bind(1, std::int64_t{file.empty() ? 0 : 99}).run();
    sql::Stmt rank(store.handle(), "INSERT INTO job_ranks(job_id, rank, host, device, line) VALUES(1, ?, ?, 'mlx5_0', ?)");
    for (std::size_t r = 0; r < hosts.size(); ++r)
        rank.bind(1, static_cast<std::int64_t>(r)).bind(2, hosts[r]).bind(3, static_cast<std::int64_t>(10 + r)).run();
}

std::uint32_t nodeOf(const StoreSnapshot& s, const std::string& name) { return s.nodeByName.at(name); }

// The text a table shows at a row and column, in its current order.
QString cell(const QTableView* t, int row, int column) { return t->model()->index(row, column).data().toString(); }

void clickRow(QTableView* t, int row) { QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualRect(t->model()->index(row, 0)).center()); }

std::pair<std::uint32_t, std::uint32_t> endsOf(const StoreSnapshot& s, std::uint32_t link) {
    const Link& l = s.fabric.links[link];
    return {static_cast<std::uint32_t>(s.fabric.port(l.a).node.value()), static_cast<std::uint32_t>(s.fabric.port(l.b).node.value())};
}

} // namespace

class TestFindingOverlay : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Stores stores_{dir_};
    QString pfcStore_, stragglerStore_, offFabricStore_;

    void open(MainWindow& w, const QString& store) {
        QSignalSpy analysed(&w, &MainWindow::analysisFinished);
        QSignalSpy loaded(&w, &MainWindow::storeLoaded);
        w.openStore(store);
        QVERIFY(loaded.wait(20000));
        QVERIFY(analysed.count() > 0 || analysed.wait(30000));
    }

    void clickKind(FindingsPanel* panel, const QString& kind) {
        QTableView* table = panel->table();
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, FindingsModel::Kind).data().toString() == kind) {
                QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                                  table->visualRect(table->model()->index(r, FindingsModel::Summary)).center());
                return;
            }
        QFAIL(qPrintable(QStringLiteral("no %1 row").arg(kind)));
    }

private Q_SLOTS:
    void initTestCase() {
        // Two stores: the storm's paused links would also slow the job's other pairs and hide
        // the straggler (straggler_path penalises links a pfc_storm names).
        pfcStore_ = QString::fromStdString(stores_.make(fabric(), pfcRows()));
        const std::string db = stores_.make(fabric(), "");
        addJob(db);
        stragglerStore_ = QString::fromStdString(db);
        // The same job with a fifth rank on a host the topology does not have.
        const std::string off = stores_.make(fabric(), "");
        addJob(off, {"dgx001", "dgx002", "dgx003", "dgx004", "dgx099"}, "/captures/run7/train-nccl.log");
        offFabricStore_ = QString::fromStdString(off);
    }

    void selectedFindingsDrawTheirPathOrSpread() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        open(w, pfcStore_);
        auto* panel = w.findChild<FindingsPanel*>();
        auto* view = w.findChild<FabricView*>();
        auto snap = w.snapshot();
        QVERIFY(view->findingOverlay().empty());

        // The PFC storm: origin at dgx003's NIC, spread over the ports upstream of it.
        clickKind(panel, QStringLiteral("pfc_storm"));
        const FindingFocus pfc = view->findingOverlay();
        QCOMPARE(pfc.originNode, int(nodeOf(*snap, "dgx003 mlx5_0")));
        QVERIFY(pfc.originLink >= 0);
        const auto originEnds = endsOf(*snap, static_cast<std::uint32_t>(pfc.originLink));
        QVERIFY(originEnds.first == nodeOf(*snap, "dgx003 mlx5_0") || originEnds.second == nodeOf(*snap, "dgx003 mlx5_0"));
        std::set<std::string> spread;
        for (auto l : pfc.spreadLinks) spread.insert(snap->linkLabel(LinkId(l)));
        QCOMPARE(spread.size(), std::size_t(3));  // leaf02 p9-spine01, spine01 p1-leaf01 p9, leaf01 p1-dgx001
        for (const char* port : {"leaf02 p9", "spine01 p1", "leaf01 p1"})
            QVERIFY2(std::any_of(spread.begin(), spread.end(), [&](const std::string& s) { return s.find(port) != std::string::npos; }), port);
        QVERIFY(std::find(pfc.spreadLinks.begin(), pfc.spreadLinks.end(), std::uint32_t(pfc.originLink)) == pfc.spreadLinks.end());
        QVERIFY(pfc.pathLinks.empty());
        // What is shown: the drawn fabric (not the "Drawing the fabric…" banner), the origin's
        // link banded in red.
        QTRY_VERIFY(view->frameIsCurrent());
        const QImage pfcShown = view->grab().toImage();
        QVERIFY(saveScreenshot(QPixmap::fromImage(pfcShown), QStringLiteral("fabscope_overlay_pfc.png")));
        const auto originPixel = view->pixelOfLink(pfc.originLink);
        QVERIFY(originPixel);
        int red = 0;  // the origin's red band beside the link's own (selected) line
        for (int dy = -6; dy <= 6; ++dy)
            for (int dx = -6; dx <= 6; ++dx) {
                const QColor c(pfcShown.pixel(*originPixel + QPoint(dx, dy)));
                red += c.red() > 150 && c.green() < 90 && c.blue() < 90;
            }
        QVERIFY2(red > 10, qPrintable(QString::number(red)));


        // The straggler: its route from dgx001 to dgx004, four links joined end to end. Opening
        // another store drops the storm's overlay.
        open(w, stragglerStore_);
        QVERIFY(view->findingOverlay().empty());
        snap = w.snapshot();
        clickKind(panel, QStringLiteral("straggler_path"));
        const FindingFocus path = view->findingOverlay();
        QCOMPARE(path.originNode, -1);
        QVERIFY(path.spreadLinks.empty());
        QCOMPARE(path.pathLinks.size(), std::size_t(4));
        std::uint32_t at = nodeOf(*snap, "dgx001 mlx5_0");
        for (auto l : path.pathLinks) {
            const auto [a, b] = endsOf(*snap, l);
            QVERIFY(a == at || b == at);
            at = a == at ? b : a;
        }
        QCOMPARE(at, nodeOf(*snap, "dgx004 mlx5_0"));
        // Drawn: each hop's link is on screen in the current frame.
        view->renderFrame();
        for (auto l : path.pathLinks) QVERIFY(view->nodePosition(int(endsOf(*snap, l).first)));
        // And on screen: four numbered hop discs (solid blue) sit at the middles of the route's links.
        const QImage shown = view->grab().toImage();
        for (auto l : path.pathLinks) {
            const auto [a, b] = endsOf(*snap, l);
            const QPointF mid = (*view->nodePosition(int(a)) + *view->nodePosition(int(b))) / 2;
            // Solid blue around the digit (whose glyph width varies): most of the disc's ~200 px.
            int solid = 0;
            for (int dy = -8; dy <= 8; ++dy)
                for (int dx = -8; dx <= 8; ++dx) {
                    const QColor c(shown.pixel(mid.toPoint() + QPoint(dx, dy)));
                    solid += c.red() < 10 && std::abs(c.green() - 90) < 10 && std::abs(c.blue() - 200) < 10;
                }
            QVERIFY2(solid > 100, qPrintable(QString::number(solid)));
        }
        QTRY_VERIFY(view->frameIsCurrent());
        QVERIFY(saveScreenshot(view->grab(), QStringLiteral("fabscope_overlay_straggler.png")));

        // Clicking the fabric's background moves the selection on: the overlay goes.
        view->renderFrame();
        QPoint empty;
        for (int y = view->height() - 4; y > view->height() / 2 && empty.isNull(); y -= 7)
            for (int x = 4; x < view->width() - 4; x += 11)
                if (view->nodeAt(QPointF(x, y)) < 0 && view->linkAt(QPointF(x, y)) < 0) {
                    empty = QPoint(x, y);
                    break;
                }
        QVERIFY(!empty.isNull());
        QTest::mouseClick(view, Qt::LeftButton, {}, empty);
        QVERIFY(view->findingOverlay().empty());
    }

    void jobRoutesDrawTheJobAndFrameAChosenPair() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        open(w, stragglerStore_);
        auto* view = w.findChild<FabricView*>();
        auto* panel = w.findChild<JobPanel*>();
        QVERIFY(panel);
        const auto snap = w.snapshot();
        QCOMPARE(panel->jobs()->count(), 1);
        QVERIFY(panel->jobs()->currentText().startsWith(QStringLiteral("train (4 ranks)")));
        QTableView* pairs = panel->pairs();
        QCOMPARE(pairs->model()->rowCount(), 6);  // 4 ranks: every pair, worst first
        QCOMPARE(cell(pairs, 0, 0), QStringLiteral("rank 0 (dgx001) -> rank 3 (dgx004)"));
        QCOMPARE(cell(pairs, 0, 1), QStringLiteral("25.0"));  // the 1x host link of a 4x fabric
        QVERIFY(cell(pairs, 0, 2).endsWith(QStringLiteral("dgx004 mlx5_0 p1")));
        QVERIFY2(panel->findChild<QLabel*>(QStringLiteral("jobInfo"))->text().contains(QStringLiteral("Straggler path (straggler_path-1)")),
                 qPrintable(panel->findChild<QLabel*>(QStringLiteral("jobInfo"))->text()));

        // View > Job routes draws every route of the job and the straggler's hop by hop.
        view->renderFrame();
        const QImage before = view->grab().toImage();
        QVERIFY(view->findingOverlay().empty());
        auto* action = w.findChild<QAction*>(QStringLiteral("jobRoutesAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+J")));
        action->trigger();
        const FindingFocus job = view->findingOverlay();
        QCOMPARE(job.pathLinks.size(), std::size_t(4));
        for (const char* host : {"dgx001 mlx5_0", "dgx002 mlx5_0", "dgx003 mlx5_0", "dgx004 mlx5_0"})
            QVERIFY2(std::any_of(job.jobLinks.begin(), job.jobLinks.end(),
                                 [&](std::uint32_t l) { const auto [a, b] = endsOf(*snap, l); return a == nodeOf(*snap, host) || b == nodeOf(*snap, host); }),
                     host);
        view->renderFrame();
        const QImage after = view->grab().toImage();
        QTRY_VERIFY(view->frameIsCurrent());
        QVERIFY(saveScreenshot(view->grab(), QStringLiteral("fabscope_job_routes.png")));
        // Pixels: the hop numbers' discs (solid blue) and the job's teal glow appear.
        auto count = [](const QImage& img, auto pred) {
            int n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    if (pred(QColor(img.pixel(x, y)))) ++n;
            return n;
        };
        auto disc = [](const QColor& c) { return c.red() < 10 && std::abs(c.green() - 90) < 10 && std::abs(c.blue() - 200) < 10; };
        auto teal = [](const QColor& c) { return c.green() - c.red() > 50 && c.blue() - c.red() > 40 && std::abs(c.green() - c.blue()) < 40; };
        QCOMPARE(count(before, disc), 0);
        QVERIFY(count(after, disc) > 50);
        QVERIFY2(count(after, teal) > count(before, teal) + 200, qPrintable(QStringLiteral("%1 vs %2").arg(count(after, teal)).arg(count(before, teal))));

        // Clicking another pair draws its route from its own source host.
        const int last = pairs->model()->rowCount() - 1;
        clickRow(pairs, last);
        const auto m = QRegularExpression(QStringLiteral("^rank \\d+ \\((\\S+)\\) -> rank \\d+ \\((\\S+)\\)$")).match(cell(pairs, last, 0));
        QVERIFY(m.hasMatch());
        const FindingFocus pair = view->findingOverlay();
        QVERIFY(!pair.pathLinks.empty());
        const auto [a, b] = endsOf(*snap, pair.pathLinks.front());
        const auto src = nodeOf(*snap, m.captured(1).toStdString() + " mlx5_0");
        QVERIFY(a == src || b == src);
        const auto [c, d] = endsOf(*snap, pair.pathLinks.back());
        const auto dst = nodeOf(*snap, m.captured(2).toStdString() + " mlx5_0");
        QVERIFY(c == dst || d == dst);
        QCOMPARE(pair.jobLinks, job.jobLinks);  // still the whole job
    }

    // The Ranks tab says where each rank runs: its host's port and the switch port cabled to it,
    // as the fabric has them, or that its host is not on the fabric; choosing a rank frames its link.
    void jobRanksSayWhereEachRankRuns() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        open(w, offFabricStore_);
        auto* view = w.findChild<FabricView*>();
        auto* panel = w.findChild<JobPanel*>();
        const auto snap = w.snapshot();
        QTableView* ranks = panel->ranks();
        QCOMPARE(ranks->model()->rowCount(), 5);
        QCOMPARE(ranks->horizontalHeader()->sortIndicatorSection(), 0);  // by rank, as the job lists them
        QCOMPARE(ranks->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
        QCOMPARE(panel->tabs()->tabText(1), QStringLiteral("Ranks (5, 1 off the fabric)"));
        panel->tabs()->setCurrentIndex(1);
        for (int r = 0; r < 4; ++r) {
            const std::string host = "dgx00" + std::to_string(r + 1) + " mlx5_0";
            QCOMPARE(cell(ranks, r, 0), QString::number(r));
            QCOMPARE(cell(ranks, r, 1), QStringLiteral("dgx00%1 (mlx5_0)").arg(r + 1));
            QCOMPARE(cell(ranks, r, 2), QString::fromStdString(host + " p1"));
            // The switch port is the host link's other end in the loaded fabric.
            const std::uint32_t node = nodeOf(*snap, host);
            const Link* cable = nullptr;
            for (const Link& l : snap->fabric.links)
                if (snap->fabric.port(l.a).node.value() == node || snap->fabric.port(l.b).node.value() == node) cable = &l;
            QVERIFY(cable);
            const Port& other = snap->fabric.port(snap->fabric.port(cable->a).node.value() == node ? cable->b : cable->a);
            QCOMPARE(cell(ranks, r, 3), QString::fromStdString(snap->fabric.nodes[other.node.value()].description + " p" + other.name));
            QCOMPARE(cell(ranks, r, 5), QStringLiteral("train-nccl.log:%1").arg(10 + r));
            // Every pair through dgx004's 1x link keeps 25 % (an idle 4x fabric): its rank's median
            // says so; the others' pairs mostly run clear.
            QCOMPARE(cell(ranks, r, 4), r == 3 ? QStringLiteral("25.0") : QStringLiteral("100.0"));
        }
        QCOMPARE(cell(ranks, 4, 1), QStringLiteral("dgx099 (mlx5_0)"));
        QCOMPARE(cell(ranks, 4, 2), QStringLiteral("not on the fabric"));
        QCOMPARE(cell(ranks, 4, 3), QStringLiteral("-"));
        QCOMPARE(cell(ranks, 4, 4), QStringLiteral("-"));  // none of its pairs routed
        QVERIFY(saveScreenshot(panel->grab(), QStringLiteral("fabscope_job_ranks.png")));

        // Sorting by the median pair headroom (a click on its header) puts the rank behind the
        // bottleneck first; the rank off the fabric, with no median, last.
        QHeaderView* header = ranks->horizontalHeader();
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(header->sectionViewportPosition(4) + header->sectionSize(4) / 2, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), 4);
        QCOMPARE(cell(ranks, 0, 0), QStringLiteral("3"));
        QCOMPARE(cell(ranks, 0, 4), QStringLiteral("25.0"));
        QCOMPARE(cell(ranks, 4, 2), QStringLiteral("not on the fabric"));
        QVERIFY(saveScreenshot(panel->grab(), QStringLiteral("fabscope_job_ranks_sorted.png")));
        // A new analysis (another window, say) keeps the sort the user chose.
        panel->setReport(w.findChild<FindingsPanel*>()->model()->report());
        QCOMPARE(header->sortIndicatorSection(), 4);
        QCOMPARE(cell(ranks, 0, 0), QStringLiteral("3"));
        QCOMPARE(cell(ranks, 4, 0), QStringLiteral("4"));

        // Clicking that first row (rank 3, sorted) draws its host link as the named link among the job's links.
        clickRow(ranks, 0);
        const FindingFocus focus = view->findingOverlay();
        QVERIFY(focus.primaryLink >= 0);
        const auto [a, b] = endsOf(*snap, static_cast<std::uint32_t>(focus.primaryLink));
        const auto dgx004 = nodeOf(*snap, "dgx004 mlx5_0");
        QVERIFY(a == dgx004 || b == dgx004);
        QVERIFY(std::find(focus.nodes.begin(), focus.nodes.end(), dgx004) != focus.nodes.end());
        QVERIFY(!focus.jobLinks.empty());
        // The rank off the fabric has no link to draw: the job's links stay, nothing is named.
        clickRow(ranks, 4);
        QCOMPARE(view->findingOverlay().primaryLink, -1);
        QCOMPARE(view->findingOverlay().jobLinks, focus.jobLinks);

        // The filter keeps the rows that name a host, in both tabs, and the titles count them.
        QTest::keyClicks(panel->filter(), QStringLiteral("DGX002"));
        QCOMPARE(ranks->model()->rowCount(), 1);
        QCOMPARE(cell(ranks, 0, 1), QStringLiteral("dgx002 (mlx5_0)"));
        QCOMPARE(panel->tabs()->tabText(1), QStringLiteral("Ranks (1 of 5, 1 off the fabric)"));
        QTableView* pairs = panel->pairs();
        QCOMPARE(pairs->model()->rowCount(), 3);  // dgx002 with each of the 3 other hosts on the fabric
        for (int r = 0; r < 3; ++r) QVERIFY2(cell(pairs, r, 0).contains(QStringLiteral("(dgx002)")), qPrintable(cell(pairs, r, 0)));
        QCOMPARE(panel->tabs()->tabText(0), QStringLiteral("Pairs (3 of 6)"));
        // The kept pair chosen is the one drawn: its route starts or ends at dgx002.
        clickRow(pairs, 2);
        const FindingFocus pair = view->findingOverlay();
        QVERIFY(!pair.pathLinks.empty());
        const auto dgx002 = nodeOf(*snap, "dgx002 mlx5_0");
        const auto [s0, s1] = endsOf(*snap, pair.pathLinks.front());
        const auto [e0, e1] = endsOf(*snap, pair.pathLinks.back());
        QVERIFY(s0 == dgx002 || s1 == dgx002 || e0 == dgx002 || e1 == dgx002);
        // A number keeps that rank, besides the hosts whose names contain it.
        panel->filter()->setText(QStringLiteral("4"));
        QCOMPARE(ranks->model()->rowCount(), 2);
        QCOMPARE(cell(ranks, 0, 1), QStringLiteral("dgx004 (mlx5_0)"));  // rank 3
        QCOMPARE(cell(ranks, 1, 0), QStringLiteral("4"));                 // on dgx099
        panel->filter()->clear();
        QCOMPARE(ranks->model()->rowCount(), 5);
        QCOMPARE(panel->tabs()->tabText(1), QStringLiteral("Ranks (5, 1 off the fabric)"));
    }
};

QTEST_MAIN(TestFindingOverlay)
#include "tst_finding_overlay.moc"
