// The inspector shows what a port's module reported (ibdiagnet2.cables) with units: identity,
// temperature against its alarm, per-lane powers and bias, flags; a passive cable has no sensor;
// a port without a module shows none; and what ibdiagnet reported about a node (db_csv
// WARNINGS_). Opened from a store of tests/data/ibdiagnet2-run/.
#include "gui_fixture.h"
#include "screenshot.h"
#include "core/analysis/port_ref.h"
#include "views/inspector_panel.h"
#include "views/selection.h"
#include "views/store_snapshot.h"

#include <QStandardPaths>
#include <QTreeView>
#include <QtTest>

using namespace fabscope;

namespace {

const std::string kSwitch = "0xb0cf0e0300d33fc0";

// The row whose first column reads `key` anywhere in the tree.
QModelIndex rowNamed(const QAbstractItemModel& m, const QString& key, const QModelIndex& parent = {}) {
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        if (i.data().toString() == key) return i;
        if (const QModelIndex below = rowNamed(m, key, i); below.isValid()) return below;
    }
    return {};
}

} // namespace

class TestViewOptics : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        store_ = dir_.filePath(QStringLiteral("run.sqlite"));
        Store s(store_.toStdString());
        ImporterRegistry reg;
        QVERIFY(!ImportRunner(s, reg).run({std::string(FABSCOPE_TEST_DATA) + "/ibdiagnet2-run/"}, {}).anyFailed());
    }

    void inspectorShowsEachPortsModule() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, store_, false));
        const auto snap = w.snapshot();
        auto* inspector = w.findChild<InspectorPanel*>();
        QVERIFY(inspector);
        const auto optic = snap->findPort(PortRef{"", kSwitch, "1"});
        QVERIFY(optic);
        const auto link = snap->linkOf(*optic);
        QVERIFY(link);

        // The link from the switch's optic to node-1: its module under the switch's port.
        w.selection()->selectLink(static_cast<int>(link->value()));
        QString text = inspector->text();
        QVERIFY2(text.contains(QStringLiteral("Module: ACME OPTICS OSFP-400G-SR4-T 850 nm VCSEL")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Serial number: AC25010001")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Temperature: 77 °C (alarm at 80 °C)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("RX power: 1.20, -2.80, 1.10, 1.30 dBm")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("TX power: 1.00, 0.90, —, 1.10 dBm")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("TX bias: 7.12, 7.08, 7.15, 7.11 mA")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Flags set: none")), qPrintable(text));
        QCOMPARE(text.count(QStringLiteral("Module: ")), 1);  // node-1's end has no reading
        // ibdiagnet's warning about node-1, under the link's node-1 end.
        QVERIFY2(text.contains(QStringLiteral("ibdiagnet reported on node-1 mlx5_0 p1 (1)")), qPrintable(text));
        inspector->tree()->scrollTo(rowNamed(*inspector->tree()->model(), QStringLiteral("Module")), QAbstractItemView::PositionAtTop);
        QVERIFY(saveScreenshot(inspector->grab(), QStringLiteral("fabscope-inspector-optic.png")));

        // Enter on the "Port B" section selects node-1's port: no module there.
        QTreeView* tree = inspector->tree();
        const QModelIndex portB = rowNamed(*tree->model(), QStringLiteral("Port B"));
        QVERIFY(portB.isValid());
        tree->setFocus();
        tree->setCurrentIndex(portB);
        QTest::keyClick(tree, Qt::Key_Return);
        QTRY_VERIFY(inspector->text().contains(QStringLiteral("node-1 mlx5_0 p1")));
        QVERIFY2(!inspector->text().contains(QStringLiteral("Module: ")), qPrintable(inspector->text()));
        // What ibdiagnet itself said about node-1 (db_csv WARNINGS_FW_CHECK), under its port too.
        QVERIFY2(inspector->text().contains(QStringLiteral("ibdiagnet reported (1)")), qPrintable(inspector->text()));
        QVERIFY2(inspector->text().contains(QStringLiteral("warning FW_VERSION: Node has FW version 28.39.1002 while the latest")),
                 qPrintable(inspector->text()));

        // A passive copper cable: its identity and length, no sensor; a flagged optic's flags.
        w.selection()->selectPort(static_cast<int>(snap->findPort(PortRef{"", kSwitch, "2"})->value()));
        text = inspector->text();
        QVERIFY2(text.contains(QStringLiteral("Module: ACME CABLES OSFP-400G-DAC2 Copper cable- unequalized")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Length: 2 m")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Temperature: no sensor (a passive cable)")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("RX power")), qPrintable(text));
        w.selection()->selectPort(static_cast<int>(snap->findPort(PortRef{"", "0xfc6a1c030091cf00", "3"})->value()));
        text = inspector->text();
        QVERIFY2(text.contains(QStringLiteral("Flags set: Latched TX / RX LOL Indicator 0x0f")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(": TX Bias Alarm and Warning 0x3333")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("RX power: —, —, -0.50, -0.60 dBm")), qPrintable(text));
    }
};

QTEST_MAIN(TestViewOptics)
#include "tst_view_optics.moc"
