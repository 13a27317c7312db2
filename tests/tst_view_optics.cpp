// The inspector shows what a port's module reported (ibdiagnet2.cables) with units: identity,
// temperature against its alarm, per-lane powers and bias, flags; a passive cable has no sensor;
// a port without a module shows none; a port's FEC mode and bit error rates (net_dump_ext); and
// what ibdiagnet reported about a node (db_csv
// WARNINGS_); the fabric marks the modules to look at on their links, by the thresholds of
// Analysis > Thresholds. Opened from a store of tests/data/ibdiagnet2-run/.
#include "gui_fixture.h"
#include "screenshot.h"
#include "core/analysis/port_ref.h"
#include "views/fabric_view.h"
#include "views/inspector_panel.h"
#include "views/settings_dialog.h"
#include "views/selection.h"
#include "views/store_snapshot.h"

#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QPushButton>
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
    QString store_, phyStore_;  // the run; the run with its net_dump_ext

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        store_ = dir_.filePath(QStringLiteral("run.sqlite"));
        Store s(store_.toStdString());
        ImporterRegistry reg;
        QVERIFY(!ImportRunner(s, reg).run({std::string(FABSCOPE_TEST_DATA) + "/ibdiagnet2-run/"}, {}).anyFailed());
        phyStore_ = dir_.filePath(QStringLiteral("phy.sqlite"));
        Store phy(phyStore_.toStdString());
        const std::string data = FABSCOPE_TEST_DATA;
        QVERIFY(!ImportRunner(phy, reg).run({data + "/ibdiagnet2-run/", data + "/ibdiagnet-net-dump-ext/ibdiagnet2.net_dump_ext"}, {}).anyFailed());
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

    // With the run's net_dump_ext (`--get_phy_info`): a port's FEC mode and its bit error rates
    // before FEC, after FEC and after retransmission, under the port; a port never read has none.
    void inspectorShowsEachPortsBitErrorRates() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, phyStore_, false));
        const auto snap = w.snapshot();
        auto* inspector = w.findChild<InspectorPanel*>();
        QVERIFY(inspector);
        w.selection()->selectPort(static_cast<int>(snap->findPort(PortRef{"", "0x5c25730300d0b112", "1"})->value()));
        QString text = inspector->text();
        QVERIFY2(text.contains(QStringLiteral("Bit error rate: 3.2e-10 after FEC")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("FEC: RS_FEC_544_514")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Before FEC (raw): 8.7e-5")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("After FEC and retransmission (symbol): 4e-13")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Effective errors: 1632")), qPrintable(text));
        inspector->tree()->scrollTo(rowNamed(*inspector->tree()->model(), QStringLiteral("Bit error rate")), QAbstractItemView::PositionAtTop);
        QVERIFY(saveScreenshot(inspector->grab(), QStringLiteral("fabscope-inspector-ber.png")));
        // node-3: FEC N/A and no rates in the file: nothing shown.
        w.selection()->selectPort(static_cast<int>(snap->findPort(PortRef{"", "0x5c25730300a1f4dc", "1"})->value()));
        QVERIFY2(!inspector->text().contains(QStringLiteral("Bit error rate")), qPrintable(inspector->text()));
    }

    // ibswinfo's report on switch A (a real output with PSU1's DC power and fan in ERROR, its
    // GUID set to switch A's): under the switch, titled by the tool, beside ibdiagnet's own.
    void inspectorShowsWhatIbswinfoReported() {
        const QString store = dir_.filePath(QStringLiteral("ibswinfo.sqlite"));
        QVERIFY(QFile::copy(store_, store));
        QFile in(QStringLiteral(FABSCOPE_TEST_DATA "/ibswinfo/test3.out"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString report = dir_.filePath(QStringLiteral("swA.ibswinfo.txt"));
        QFile out(report);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(in.readAll().replace("0x08c0eb0300add20e", kSwitch.c_str()));
        out.close();
        {
            Store s(store.toStdString());
            ImporterRegistry reg;
            QVERIFY(!ImportRunner(s, reg).run({report.toStdString()}, {}).anyFailed());
        }
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, store, false));
        auto* inspector = w.findChild<InspectorPanel*>();
        w.selection()->selectNode(static_cast<int>(w.snapshot()->nodeByName.at(kSwitch)));
        const QString text = inspector->text();
        QVERIFY2(text.contains(QStringLiteral("ibswinfo reported (2)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("error PSU_DC_POWER: PSU1 DC power ERROR")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("error PSU_FAN: PSU1 fan ERROR")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("ibdiagnet reported")), qPrintable(text));  // ibdiagnet said nothing about switch A
        QVERIFY(saveScreenshot(inspector->grab(), QStringLiteral("fabscope-inspector-ibswinfo.png")));
        // On the fabric: a red square on switch A, its tooltip saying what ibswinfo reported.
        auto* fabric = w.findChild<FabricView*>();
        QCOMPARE(fabric->nodeErrorMarks().size(), std::size_t{1});
        const auto& mark = fabric->nodeErrorMarks().front();
        QCOMPARE(mark.node, static_cast<std::uint32_t>(w.snapshot()->nodeByName.at(kSwitch)));
        QCOMPARE(mark.text, QStringLiteral("ibswinfo: PSU1 DC power ERROR; ibswinfo: PSU1 fan ERROR"));
        fabric->renderFrame();
        const QImage shot = fabric->grab().toImage();
        const auto at = fabric->nodeErrorMarkPosition(mark);
        QVERIFY(at);
        const QColor c = shot.pixelColor(at->toPoint() * shot.devicePixelRatio());
        QVERIFY2(c.red() > 180 && c.green() < 80 && c.blue() < 80, qPrintable(c.name()));
        const auto node = fabric->nodePosition(static_cast<int>(mark.node));
        QVERIFY(node);
        QVERIFY2(fabric->tooltipAt(*node).contains(QStringLiteral("■ ibswinfo: PSU1 DC power ERROR")), qPrintable(fabric->tooltipAt(*node)));
        QVERIFY(saveScreenshot(fabric->grab(), QStringLiteral("fabscope-fabric-error-marks.png")));
    }

    // The fabric marks the two modules to look at (switch A's optic at 77 °C of its 80 °C alarm
    // with lanes 4.1 dB apart; switch B's with loss-of-lock flags) in amber on their links, says
    // why in the node's and link's tooltips, and follows the thresholds the user sets.
    void fabricMarksModulesToLookAt() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, store_, false));
        auto* fabric = w.findChild<FabricView*>();
        QVERIFY(fabric);
        QCOMPARE(fabric->moduleMarks().size(), std::size_t{2});
        QVERIFY(fabric->nodeErrorMarks().empty());  // ibdiagnet's one warning is no error
        QStringList texts;
        for (const auto& m : fabric->moduleMarks()) texts << m.text;
        QVERIFY2(texts.contains(QStringLiteral("MF0;sw-mgmt:MQM9700/U1 p1 module: at 77 °C (its alarm 80 °C), receive lanes 4.1 dB "
                                              "apart (-2.8 to 1.3 dBm)")),
                 qPrintable(texts.join(u'\n')));
        QVERIFY2(texts.filter(QStringLiteral(" p3 module: flag Latched TX / RX LOL Indicator 0x0f")).size() == 1, qPrintable(texts.join(u'\n')));

        fabric->renderFrame();
        QTRY_VERIFY(!fabric->grab().isNull());
        const QImage shot = fabric->grab().toImage();
        for (const auto& m : fabric->moduleMarks()) {
            const auto at = fabric->moduleMarkPosition(m);
            QVERIFY(at);
            const QColor c = shot.pixelColor((*at + QPointF(0, 2)).toPoint() * shot.devicePixelRatio());
            QVERIFY2(c.red() > 220 && c.green() > 140 && c.green() < 210 && c.blue() < 60, qPrintable(c.name()));
            // The node's tooltip says why.
            const auto node = fabric->nodePosition(static_cast<int>(m.node));
            if (node) QVERIFY2(fabric->tooltipAt(*node).contains(m.text.toHtmlEscaped()), qPrintable(fabric->tooltipAt(*node)));
        }
        QVERIFY(saveScreenshot(fabric->grab(), QStringLiteral("fabscope-fabric-module-marks.png")));

        // Stricter thresholds in Analysis > Thresholds: only the flagged module stays marked.
        w.findChild<QAction*>(QStringLiteral("thresholdsAction"))->trigger();
        auto* dialog = w.findChild<SettingsDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        dialog->editor()->setPlainText(QStringLiteral(R"({"optics": {"temperature_margin_c": 2, "rx_lane_spread_db": 5}})"));
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(fabric->moduleMarks().size(), std::size_t{1});
        QVERIFY(fabric->moduleMarks().front().text.contains(QStringLiteral("LOL")));
        QFile::remove(QString::fromStdString(userConfigPath()));
    }

    // The two ports above the bit error rate threshold (node-2 at 3.2e-10 after FEC, switch B
    // port 3 at 2.5e-12 after retransmission) get a red diamond on their links, said in the header
    // and the tooltips, and follow the thresholds the user sets.
    void fabricMarksPortsAboveTheBerThreshold() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(guitest::openAndWait(w, phyStore_, false));
        auto* fabric = w.findChild<FabricView*>();
        QVERIFY(fabric);
        QStringList texts;
        for (const auto& m : fabric->moduleMarks())
            if (m.bitErrors) texts << m.text;
        QCOMPARE(texts.size(), 2);
        QVERIFY2(texts.contains(QStringLiteral("node-2 mlx5_0 p1 bit error rate 3.2e-10 after FEC (threshold 1e-12)")), qPrintable(texts.join(u'\n')));
        QVERIFY2(texts.filter(QStringLiteral(" p3 bit error rate 2.5e-12 after FEC and retransmission (threshold 1e-12)")).size() == 1,
                 qPrintable(texts.join(u'\n')));
        QVERIFY2(fabric->moduleMarksNote().contains(QStringLiteral("◆ 2 ports above the bit error rate threshold")), qPrintable(fabric->moduleMarksNote()));

        fabric->renderFrame();
        QTRY_VERIFY(!fabric->grab().isNull());
        const QImage shot = fabric->grab().toImage();
        for (const auto& m : fabric->moduleMarks()) {
            if (!m.bitErrors) continue;
            const auto at = fabric->moduleMarkPosition(m);
            QVERIFY(at);
            const QColor c = shot.pixelColor(at->toPoint() * shot.devicePixelRatio());
            QVERIFY2(c.red() > 190 && c.green() < 70 && c.blue() < 70, qPrintable(c.name()));
            if (m.link >= 0) {  // the link's tooltip says why, at the mark
                const QString tip = fabric->tooltipAt(*at);
                QVERIFY2(tip.contains(QStringLiteral("◆ ") + m.text.toHtmlEscaped()), qPrintable(tip));
            }
        }
        QVERIFY(saveScreenshot(fabric->grab(), QStringLiteral("fabscope-fabric-ber-marks.png")));

        // A laxer threshold after FEC in Analysis > Thresholds: only switch B's port stays marked.
        w.findChild<QAction*>(QStringLiteral("thresholdsAction"))->trigger();
        auto* dialog = w.findChild<SettingsDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        dialog->editor()->setPlainText(QStringLiteral(R"({"error_link": {"effective_ber": 1e-9}})"));
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        texts.clear();
        for (const auto& m : fabric->moduleMarks())
            if (m.bitErrors) texts << m.text;
        QCOMPARE(texts.size(), 1);
        QVERIFY(texts.front().contains(QStringLiteral("after FEC and retransmission")));
        QFile::remove(QString::fromStdString(userConfigPath()));
    }
};

QTEST_MAIN(TestViewOptics)
#include "tst_view_optics.moc"
