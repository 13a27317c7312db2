// Latency matrix dock on the ibsim fat tree with tests/data/probes/pingmesh.csv (make-pingmesh.py):
// the cable leaf02 p1 <-> spine01 p2 drops ~4% of what crosses it and gpu008 answers ~20-30 us
// late. The matrix must show gpu008's row and column as the hottest p99 cells, loss on the pairs
// whose routes cross the cable, and a click must select the pair and hand over its route.
#include "screenshot.h"
#include "core/store/store.h"
#include "importers/import_runner.h"
#include "importers/registry.h"
#include "views/latency_matrix_view.h"
#include "views/selection.h"
#include "views/store_snapshot.h"
#include "views/time_controller.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace fabscope;

namespace {

std::string importStore(const QTemporaryDir& dir) {
    const std::string db = dir.filePath(QStringLiteral("m.sqlite")).toStdString();
    Store store(db);
    ImporterRegistry registry;
    std::vector<std::string> files;
    for (const char* f : {"ibsim/ibnetdiscover.txt", "ibsim/dump_fts.txt", "probes/pingmesh.csv"})
        files.push_back(std::string(FABSCOPE_TEST_DATA "/") + f);
    if (ImportRunner(store, registry).run(files, {}).anyFailed()) qFatal("import failed");
    return db;
}

// The fabric link between two switch ports given as "node:port".
int linkBetween(const StoreSnapshot& s, const std::string& a, const std::string& b) {
    for (std::size_t i = 0; i < s.fabric.links.size(); ++i) {
        const Link& l = s.fabric.links[i];
        const auto end = [&](PortId p) { return s.fabric.node(s.fabric.port(p).node).description + ":" + s.fabric.port(p).name; };
        if ((end(l.a) == a && end(l.b) == b) || (end(l.a) == b && end(l.b) == a)) return static_cast<int>(i);
    }
    return -1;
}

bool crosses(const StoreSnapshot& s, const ProbeRoutes& routes, int link) {
    for (const auto& r : routes.routes)
        for (const Hop& h : r.hops)
            if (const auto l = s.linkOf(h.tx); l && static_cast<int>(l->value()) == link) return true;
    return false;
}

} // namespace

class TestViewLatencyMatrix : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        snapshot_ = loadStoreSnapshot(importStore(dir_));
        planted_ = linkBetween(*snapshot_, "leaf02:1", "spine01:2");
        QVERIFY(planted_ >= 0);
    }

    void matrixShowsSlowHostAndLossyLink() {
        TimeController time;
        SelectionController selection;
        LatencyMatrixView view(&time, &selection);
        view.resize(900, 760);
        view.show();
        QSignalSpy loaded(&view, &LatencyMatrixView::loaded);
        view.setSnapshot(snapshot_);
        QVERIFY(loaded.wait(20000));
        const ProbeMatrix& m = view.matrix();
        QCOMPARE(m.tool, std::string("pingmesh"));
        QVERIFY(m.size() >= 8);
        const auto gpu008 = std::find(m.hosts.begin(), m.hosts.end(), "gpu008");
        QVERIFY(gpu008 != m.hosts.end());
        QVERIFY(std::find(m.hosts.begin(), m.hosts.end(), "gpu001") != m.hosts.end());
        // hosts grouped: each leaf's hosts contiguous
        for (std::size_t i = 1; i < m.size(); ++i)
            for (std::size_t j = i + 1; j < m.size(); ++j)
                if (m.leafOf[j] == m.leafOf[i - 1]) QCOMPARE(m.leafOf[i], m.leafOf[i - 1]);
        const std::size_t slow = static_cast<std::size_t>(gpu008 - m.hosts.begin());

        // p99: every measured cell of gpu008's row and column is hotter than every other cell
        QCOMPARE(view.mode(), LatencyMatrixView::Mode::P99);
        double coolestSlow = 1e300, hottestOther = 0;
        int slowCells = 0;
        for (std::size_t i = 0; i < m.size(); ++i)
            for (std::size_t j = 0; j < m.size(); ++j) {
                const auto v = view.cellValue(i, j);
                if (!v || i == j) continue;
                if (i == slow || j == slow) coolestSlow = std::min(coolestSlow, *v), ++slowCells;
                else hottestOther = std::max(hottestOther, *v);
            }
        QVERIFY(slowCells >= 2 * (static_cast<int>(m.size()) - 1) - 2);
        QVERIFY2(coolestSlow > hottestOther, qPrintable(QStringLiteral("%1 <= %2").arg(coolestSlow).arg(hottestOther)));

        // loss: pairs whose probe or reply route crosses the planted cable lose, the others hardly
        view.modeBox()->setCurrentIndex(1);
        QCOMPARE(view.mode(), LatencyMatrixView::Mode::Loss);
        int crossing = 0, crossingLossy = 0, other = 0;
        double otherLoss = 0;
        for (std::size_t i = 0; i < m.size(); ++i)
            for (std::size_t j = 0; j < m.size(); ++j) {
                const ProbePair* p = m.at(i, j);
                if (!p) continue;
                const double loss = view.cellValue(i, j).value_or(0);
                if (crosses(*snapshot_, p->forward, planted_) || crosses(*snapshot_, p->reply, planted_)) {
                    ++crossing;
                    crossingLossy += loss > 0;
                } else {
                    ++other;
                    otherLoss += loss;
                }
            }
        QVERIFY(crossing >= 4);
        QVERIFY2(crossingLossy * 10 >= crossing * 7, qPrintable(QStringLiteral("%1 of %2").arg(crossingLossy).arg(crossing)));
        QVERIFY(other > 0 && otherLoss / other < 0.5);

        // tooltip with units
        const QString tip = view.cellToolTip(0, 1);
        QVERIFY2(tip.contains(QStringLiteral(" -> ")) && tip.contains(QStringLiteral("µs")) && tip.contains(QStringLiteral("probes")),
                 qPrintable(tip));

        saveScreenshot(view.grab(), QStringLiteral("latency_matrix.png"));
        view.modeBox()->setCurrentIndex(0);
        saveScreenshot(view.grab(), QStringLiteral("latency_matrix_p99.png"));

        // click a pair crossing the planted cable: its source port is selected, its route drawn
        std::size_t src = 0, dst = 0;
        for (std::size_t i = 0; i < m.size() && !dst; ++i)
            for (std::size_t j = 0; j < m.size(); ++j)
                if (const ProbePair* p = m.at(i, j); p && crosses(*snapshot_, p->forward, planted_)) {
                    src = i, dst = j;
                    break;
                }
        QVERIFY(src != dst);
        QSignalSpy route(&view, &LatencyMatrixView::routeRequested);
        QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, view.cellRect(src, dst).center());
        QCOMPARE(route.count(), 1);
        QCOMPARE(view.selectedCell(), std::make_pair(static_cast<int>(src), static_cast<int>(dst)));
        QCOMPARE(selection.port(), static_cast<int>(m.at(src, dst)->srcPort.value()));
        const auto focus = route.at(0).at(0).value<FindingFocus>();
        QVERIFY(focus.pathLinks.size() >= 2);
        QCOMPARE(static_cast<int>(focus.pathLinks.front()), static_cast<int>(snapshot_->linkOf(m.at(src, dst)->srcPort)->value()));
        QCOMPARE(static_cast<int>(focus.pathLinks.back()), static_cast<int>(snapshot_->linkOf(m.at(src, dst)->dstPort)->value()));
        QVERIFY(std::find(focus.pathLinks.begin(), focus.pathLinks.end(), static_cast<std::uint32_t>(planted_)) != focus.pathLinks.end());

        // a window without probes empties the matrix
        time.reset(TimeRange{1000, 2000}, 1);
        time.setSelection(TimeRange{1000, 1500});
        QVERIFY(loaded.wait(20000));
        QCOMPARE(view.matrix().size(), std::size_t{0});
    }

private:
    QTemporaryDir dir_;
    std::shared_ptr<const StoreSnapshot> snapshot_;
    int planted_ = -1;
};

QTEST_MAIN(TestViewLatencyMatrix)
#include "tst_view_latency_matrix.moc"
